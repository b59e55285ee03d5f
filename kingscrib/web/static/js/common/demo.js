// The front door's example turn: three tiles laid beside a 7, then the hand 7 8 8 9
// counted out a line at a time, the tiles of each line outlined, over and over. Every
// line keeps its place from the start (only visibility and transforms change: nothing is drawn faded, so every word is at full contrast), so the page
// never moves; a reader who asked for less motion sees the finished count, still.

const figure = document.getElementById("demo");
const STILL = matchMedia("(prefers-reduced-motion: reduce)");
const LAY = 550; // ms between two tiles
const SAY = 1100; // ms between two lines of the count
const REST = 3200; // ms the finished count stays before the turn is played again

function squaresOf(line) {
  return (line.dataset.with || "").split(" ")
    .map((name) => figure.querySelector(`[data-demo-square="${name}"] .tile`)).filter(Boolean);
}

function finished() {
  figure.classList.remove("laying", "counting");
  for (const tile of figure.querySelectorAll(".tile")) tile.classList.remove("counted");
  for (const line of figure.querySelectorAll(".demo-count li")) line.classList.add("said");
  figure.dataset.step = "done";
}

const pause = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

async function play() {
  const placed = [...figure.querySelectorAll(".tile.placed")];
  const lines = [...figure.querySelectorAll(".demo-count li")];
  for (;;) {
    if (STILL.matches || document.hidden) { finished(); await pause(REST); continue; }
    figure.classList.add("laying", "counting");
    for (const tile of placed) tile.classList.remove("down", "counted");
    for (const line of lines) line.classList.remove("said");
    figure.dataset.step = "laying";
    await pause(LAY);
    for (const tile of placed) { tile.classList.add("down"); await pause(LAY); }
    figure.dataset.step = "counting";
    for (const line of lines) {
      for (const tile of figure.querySelectorAll(".tile.counted")) tile.classList.remove("counted");
      for (const tile of squaresOf(line)) tile.classList.add("counted");
      line.classList.add("said");
      await pause(SAY);
    }
    for (const tile of figure.querySelectorAll(".tile.counted")) tile.classList.remove("counted");
    figure.dataset.step = "done";
    await pause(REST);
  }
}

// Started by the lobby once it shows (never under a game or a replay).
export function startDemo() {
  if (figure && !figure.dataset.step) play();
}
