// The rules pages' diagrams: hands, small pieces of board and cards, drawn from the
// data attributes with the game's own tile and card elements.

import { COLUMNS, isLight, rankText } from "../kings/board.js";
import { cardElement, spoken } from "../cribbage/cards.js";

const tileWords = (tile) => `${isLight(tile) ? "light" : "dark"} ${rankText(tile)}`;

function tile(code, laid = false) {
  const el = document.createElement("div");
  el.className = `tile ${isLight(code) ? "light" : "dark"}${laid ? " last" : ""}`;
  el.textContent = rankText(code);
  return el;
}

for (const line of document.querySelectorAll(".hand-line")) {
  const tiles = line.dataset.tiles.split(" ");
  line.replaceChildren(...tiles.map((code) => tile(code)));
  line.setAttribute("role", "img");
  line.setAttribute("aria-label", `a line of tiles: ${tiles.map(tileWords).join(", ")}`);
}

for (const board of document.querySelectorAll(".mini-board")) {
  const parse = (text) => [COLUMNS.indexOf(text[0]), Number(text.slice(1)) - 1];
  const pairs = (text) => new Map((text || "").split(" ").filter(Boolean).map((p) => p.split(":")));
  const [c0, r0] = parse(board.dataset.from);
  const [c1, r1] = parse(board.dataset.to);
  const tiles = pairs(board.dataset.tiles);
  const laid = pairs(board.dataset.laid);
  board.style.gridTemplateColumns = `1.2rem repeat(${c1 - c0 + 1}, auto)`;
  const cell = (cls, text = "") => {
    const el = document.createElement("div");
    el.className = cls;
    el.textContent = text;
    return el;
  };
  board.append(cell("coord"));
  for (let c = c0; c <= c1; c++) board.append(cell("coord", COLUMNS[c]));
  for (let r = r0; r <= r1; r++) {
    board.append(cell("coord", String(r + 1)));
    for (let c = c0; c <= c1; c++) {
      const name = `${COLUMNS[c]}${r + 1}`;
      const sq = cell("sq");
      const code = tiles.get(name) || laid.get(name);
      if (code) sq.append(tile(code, laid.has(name)));
      board.append(sq);
    }
  }
  const said = [...tiles].map(([sq, code]) => `${tileWords(code)} on ${sq}`);
  const newly = [...laid].map(([sq, code]) => `${tileWords(code)} laid on ${sq}`);
  board.setAttribute("role", "img");
  board.setAttribute("aria-label", `part of the board: ${said.concat(newly).join(", ")}`);
}

for (const line of document.querySelectorAll(".card-line")) {
  const cards = line.dataset.cards.split(" ");
  line.replaceChildren(...cards.map((card) => cardElement(card, { small: true })));
  if (line.dataset.starter) {
    const label = document.createElement("span");
    label.className = "starter-label";
    label.textContent = "starter";
    label.setAttribute("aria-hidden", "true");
    const starter = cardElement(line.dataset.starter, { small: true });
    starter.classList.add("starter");
    starter.setAttribute("aria-label", `starter: ${spoken(line.dataset.starter)}`);
    line.append(label, starter);
  }
  line.setAttribute("role", "group");
  line.setAttribute("aria-label", "cards");
}

