// A Kings turn's tiles as the player lays them, before they are played: the squares
// typed or clicked onto, the tiles of the rack they take, and the play they make.
// Laid through kings/laying.js, for the game (kings/game.js) and the puzzles (kings/puzzle.js).
// ``pending`` maps a square to { index } (of the rack); ``faces`` maps a rack index of a
// 6/9 tile to the face it is placed with ("6" unless turned).

import { COLUMNS, isSixNine, SIZE } from "./board.js";

export const squareAt = (row, col) => (row >= 0 && row < SIZE && col >= 0 && col < SIZE ? `${COLUMNS[col]}${row + 1}` : null);
export const rowCol = (name) => [Number(name.slice(1)) - 1, COLUMNS.indexOf(name[0])];

export const usedIndexes = (pending) => new Set([...pending.values()].map((p) => p.index));

// The tile as placed: a 6/9 tile carries the face it was turned to.
export const placedFace = (tile, face) => (isSixNine(tile) ? `${face || "6"}${tile.slice(-1)}` : tile);

// The play the laid tiles make: square -> tile as placed.
export function playTiles(pending, rack, faces) {
  const tiles = {};
  for (const [square, p] of pending) tiles[square] = placedFace(rack[p.index], faces[p.index]);
  return tiles;
}

// The next free square from `name` on in the typing direction (itself if free);
// `squares` holds the board's squares (not the title patch), `filled` says what is taken.
export function freeFrom(name, squares, filled, across) {
  let [row, col] = rowCol(name);
  while (squareAt(row, col)) {
    const here = squareAt(row, col);
    if (squares.has(here) && !filled(here)) return here;
    if (across) col += 1; else row += 1;
  }
  return null;
}

// The rack tile a typed rank places (-1: none left). A 6/9 tile is held as a 6; typing
// 9 takes only such a tile (placed turned).
export function typedIndex(rack, used, rank) {
  const wanted = rank === "9" ? "6" : rank;
  return rack.findIndex((t, i) => !used.has(i) && t[0] === wanted && (rank !== "9" || isSixNine(t)));
}

// The rack tile a typed rank marks for an exchange (-1: none left unmarked).
export const markedIndex = (rack, marked, rank) => rack.findIndex((t, i) => !marked.has(i) && t[0] === (rank === "9" ? "6" : rank));

// A free tile of the same rank in the other colour (-1: none).
export function otherColour(rack, used, index) {
  const tile = rack[index];
  return rack.findIndex((t, i) => !used.has(i) && t[0] === tile[0] && t.slice(-1) !== tile.slice(-1));
}

// Lay rack tile `index` on `square`; returns the new order the squares were laid in.
export function layTile(pending, placedOrder, square, index) {
  pending.set(square, { index });
  return [...placedOrder.filter((s) => s !== square && pending.has(s)), square];
}
