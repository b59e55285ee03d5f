// The keyboard of the Kings board: which key does what. kings/laying.js and the page supply the actions.

export const RANK_KEYS = {
  a: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
  t: "T", 0: "T", 1: "T", j: "J", q: "Q", k: "K",
};

const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

const typing = (el) => el && (el.tagName === "INPUT" || el.tagName === "SELECT" || el.tagName === "TEXTAREA");
const pressable = (el) => el && (el.tagName === "BUTTON" || el.tagName === "A" || el.getAttribute?.("role") === "button");

// actions: move(dr, dc), rank(rank), turnDirection(), back(), play(), enterSquare(), recallAll(),
// flip(), otherColour(), exchange(), pass(), hint(), help(), active() -> is the game on screen.
export function bindKeys(actions) {
  document.addEventListener("keydown", (event) => {
    if (!actions.active() || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = document.activeElement;
    if (typing(target)) return;
    const key = event.key;
    const onBoard = target?.classList?.contains("sq") || target === document.body || !target;
    let handled = true;
    if (key === "?") actions.help();
    else if (key === "Escape") actions.recallAll();
    else if (ARROWS[key] && onBoard) actions.move(...ARROWS[key]);
    else if (key === " " && onBoard) actions.turnDirection();
    else if (key === "Enter" && target?.classList?.contains("sq")) actions.enterSquare();
    else if (key === "Enter" && !pressable(target)) actions.play();
    else if (key === "Backspace") actions.back();
    else if (RANK_KEYS[key.toLowerCase()] && key.length === 1) actions.rank(RANK_KEYS[key.toLowerCase()], key);
    else if (key === "f" || key === "F") actions.flip();
    else if (key === "c" || key === "C") actions.otherColour();
    else if (key === "x" || key === "X") actions.exchange();
    else if (key === "p" || key === "P") actions.pass();
    else if (key === "h" || key === "H") actions.hint();
    else handled = false;
    if (handled) event.preventDefault();
  });
}
