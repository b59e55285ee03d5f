// Drawing the board and tiles. Squares are named column letter then row: "G7".

export const SIZE = 13;
export const COLUMNS = "ABCDEFGHIJKLM";
export const inPatch = (row, col) => row < 2 && col < 3; // the title patch, not on the board

export function rankText(tile) {
  const rank = tile.slice(0, -1);
  return rank === "T" ? "10" : rank;
}

export const isLight = (tile) => tile.endsWith("L");
export const isSixNine = (tile) => tile[0] === "6" || tile[0] === "9";

export function tileElement(tile, { sixNine = false } = {}) {
  const el = document.createElement("div");
  el.className = `tile ${isLight(tile) ? "light" : "dark"}`;
  el.dataset.tile = tile;
  const face = document.createElement("span");
  face.className = "face";
  face.textContent = rankText(tile);
  el.append(face);
  if (sixNine) {
    el.classList.add("six-nine");
    const flip = document.createElement("span");
    flip.className = "flip";
    flip.textContent = "6/9";
    el.append(flip);
  }
  el.title = `${rankText(tile)} ${isLight(tile) ? "light" : "dark"}`;
  return el;
}

// Build the empty grid once; returns a map square name -> square element.
export function buildBoard(container) {
  container.replaceChildren();
  const squares = new Map();
  container.append(cell("coord", ""));
  for (let c = 0; c < SIZE; c++) container.append(cell("coord", COLUMNS[c]));
  for (let r = 0; r < SIZE; r++) {
    container.append(cell("coord", String(r + 1)));
    for (let c = 0; c < SIZE; c++) {
      if (inPatch(r, c)) {
        if (r === 0 && c === 0) {
          const patch = cell("patch", "");
          patch.innerHTML = "KINGS<br>CRIBBAGE";
          container.append(patch);
        }
        continue;
      }
      const name = `${COLUMNS[c]}${r + 1}`;
      const sq = cell("sq", "");
      sq.dataset.square = name;
      sq.title = name;
      if (r === 6 && c === 6) sq.classList.add("centre");
      container.append(sq);
      squares.set(name, sq);
    }
  }
  return squares;
}

function cell(cls, text) {
  const el = document.createElement("div");
  el.className = cls;
  el.textContent = text;
  return el;
}
