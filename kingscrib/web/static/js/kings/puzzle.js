// A Kings puzzle: the board and rack drawn and played as in a game (kings/laying.js,
// common/drag.js): click or drag a rack tile to a square, or type ranks at the cursor;
// Play, Exchange or Pass send the answer.

import { draggable, targetAt } from "../common/drag.js";
import { isSixNine, tileElement } from "./board.js";
import { Laying } from "./laying.js";
import { tileName } from "./spoken.js";

const $ = (id) => document.getElementById(id);

// The puzzle on screen, in one place.
const shown = {
  puzzle: null,
  answer: null, // called with the move, as the game sends one
  open: false, // waiting for an answer
  best: null, // squares of the best play, shown after answering
  keysBound: false,
};

const board = () => shown.puzzle.position.board;
const rack = () => shown.puzzle.position.rack;
const laying = new Laying({
  board,
  rack,
  canPlace: () => shown.open,
  changed: () => draw(),
  say: (text) => message(text),
  placed: () => message(""),
  cursorShown: () => shown.open,
});

export function show(puzzle, onAnswer) {
  Object.assign(shown, { puzzle, answer: onAnswer, open: true, best: null });
  laying.reset();
  laying.across = true;
  $("p-kings").hidden = false;
  laying.buildBoard($("board"), freeSquareNear);
  $("commit").onclick = commit;
  $("recall").onclick = () => { laying.recall(); draw(); };
  $("turn69").onclick = () => laying.turnSixNine();
  $("exchange").onclick = exchange;
  $("pass").onclick = () => send({ action: "pass" });
  $("help-open").onclick = () => laying.toggleHelp();
  $("help-close").onclick = () => laying.toggleHelp(false);
  $("p-bag").textContent = puzzle.position.bag
    ? `${puzzle.position.bag} tiles in the bag` : "The bag is empty: the tiles left on a rack count against it.";
  if (!shown.keysBound) bind();
  draw();
}

export function hide() { shown.open = false; $("p-kings").hidden = true; }

// After the answer: no more input; the best play is shown on the board.
export function showBest(move) {
  shown.open = false;
  laying.recall();
  shown.best = move.action === "play" ? move.tiles : null;
  draw();
}

// The cursor starts at the centre, or the first free square if the centre is taken.
function freeSquareNear(squares) {
  const free = [...squares.keys()].filter((s) => !board()[s]);
  return free.find((s) => s === "G7") || free[0];
}

function bind() {
  shown.keysBound = true;
  laying.bindKeys($("p-kings"), {
    active: () => shown.open && !$("p-kings").hidden,
    play: () => { if (!$("help").hidden) return; if (laying.exchangeMode) exchange(); else commit(); },
    enterSquare: () => { if (laying.selected || laying.exchangeMode) laying.clickSquare(laying.cursor); else commit(); },
    recallAll: () => {
      if (!$("help").hidden) { laying.toggleHelp(false); return; }
      laying.exchangeMode = false; laying.marked.clear(); laying.recall(); draw();
    },
    exchange,
    pass: () => send({ action: "pass" }),
    hint: () => {},
  });
}

function commit() {
  if (!shown.open || !laying.pending.size) return;
  send({ action: "play", tiles: laying.play() });
}

function exchange() {
  if (!shown.open) return;
  if (!laying.exchangeMode) {
    laying.recall();
    laying.exchangeMode = true;
    laying.marked.clear();
    message("Pick the tiles to exchange (click them or type their ranks), then press Exchange again.");
    draw();
    return;
  }
  laying.exchangeMode = false;
  const tiles = [...laying.marked].map((i) => rack()[i]);
  laying.marked.clear();
  draw();
  if (tiles.length) send({ action: "exchange", tiles });
  else message("");
}

function send(move) { if (shown.open) shown.answer(move); }

function message(text) { $("p-message").textContent = text; }

function draw() {
  const { open, best } = shown;
  const { pending, selected, marked, exchangeMode } = laying;
  for (const [name, sq] of laying.squares) {
    sq.replaceChildren();
    sq.classList.toggle("target", open && !board()[name]);
    let label = `${name}, empty`;
    const tile = board()[name] || best?.[name];
    if (tile) {
      const el = tileElement(tile);
      el.setAttribute("aria-hidden", "true");
      label = `${name}, ${tileName(tile)}`;
      if (!board()[name]) { el.classList.add("best"); label += ", the best play"; }
      sq.append(el);
    } else if (pending.has(name)) {
      const { index } = pending.get(name);
      const sixNine = isSixNine(rack()[index]);
      const el = tileElement(laying.placedFace(index), { sixNine });
      el.setAttribute("aria-hidden", "true");
      el.classList.add("pending");
      label = `${name}, ${tileName(laying.placedFace(index), { sixNine })}, placed, not yet played`;
      if (selected?.kind === "board" && selected.square === name) el.classList.add("selected");
      sq.append(el);
    }
    sq.setAttribute("aria-label", label);
    sq.title = label;
  }
  laying.renderCursor();
  const rackEl = $("rack");
  rackEl.replaceChildren();
  const used = laying.usedIndexes();
  rack().forEach((tile, index) => {
    if (used.has(index)) return;
    const face = laying.placedFace(index);
    const el = tileElement(face, { sixNine: isSixNine(tile) });
    el.dataset.index = index;
    el.setAttribute("role", "button");
    el.tabIndex = open ? 0 : -1;
    const chosen = exchangeMode ? marked.has(index) : selected?.kind === "rack" && selected.index === index;
    el.setAttribute("aria-pressed", String(Boolean(chosen)));
    el.setAttribute("aria-label", `${tileName(face, { sixNine: isSixNine(tile) })}${exchangeMode ? ", to exchange" : ""}`);
    for (const child of el.children) child.setAttribute("aria-hidden", "true");
    if (selected?.kind === "rack" && selected.index === index) el.classList.add("selected");
    if (marked.has(index)) el.classList.add("marked");
    el.addEventListener("click", () => { laying.clickRack(index); rackEl.querySelector(`[data-index="${index}"]`)?.focus(); });
    el.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); el.click(); }
    });
    draggable(el, {
      enabled: () => shown.open && !laying.exchangeMode,
      over: (x, y) => {
        for (const s of $("board").querySelectorAll(".sq.drop")) s.classList.remove("drop");
        const sq = targetAt(x, y, ".sq");
        if (sq && !laying.filled(sq.dataset.square)) sq.classList.add("drop");
      },
      drop: (x, y) => laying.dropOn(index, targetAt(x, y, ".sq")?.dataset.square),
    });
    rackEl.append(el);
  });
  $("p-kings-controls").hidden = !open;
  $("rack").hidden = !open;
  $("commit").disabled = !pending.size;
  $("recall").disabled = !pending.size;
  const sel = laying.selectedIndex();
  $("turn69").disabled = sel === null || !isSixNine(rack()[sel]);
  $("exchange").disabled = !shown.puzzle.position.bag;
  $("exchange").classList.toggle("on", exchangeMode);
  $("exchange").textContent = exchangeMode ? `Exchange ${marked.size} tile${marked.size === 1 ? "" : "s"}` : "Exchange…";
}
