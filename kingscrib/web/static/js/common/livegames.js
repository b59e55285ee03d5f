// The start page's live games as small cards: a Kings game's board in miniature, a
// Cribbage game's sides on their way to 121, the names, and a link to watch. The card is
// drawn at once from the lobby's list (its picture's size kept), the picture filled in
// from the game's spectator view (/api/games/<id>).

import { COLUMNS, SIZE, inPatch } from "../kings/board.js";

const SVG = "http://www.w3.org/2000/svg";
const TITLES = { kings: "Kings Cribbage", cribbage: "Cribbage" };
const SHOWN = 8; // the most cards drawn: each asks for its game's view

function svg(tag, attributes) {
  const element = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}

function boardPicture() {
  const picture = svg("svg", { viewBox: `0 0 ${SIZE} ${SIZE}`, "aria-hidden": "true", focusable: "false" });
  picture.append(svg("rect", { width: SIZE, height: SIZE, fill: "var(--board)" }));
  return picture;
}

// The tiles of a Kings view's board ({"G7": "7L", ...}) as squares of their colour.
function drawBoard(picture, board) {
  for (let r = 0; r < SIZE; r++) {
    for (let c = 0; c < SIZE; c++) {
      if (inPatch(r, c)) continue;
      const tile = board[`${COLUMNS[c]}${r + 1}`];
      const fill = !tile ? "var(--square)" : tile.endsWith("L") ? "var(--light)" : "var(--dark)";
      picture.append(svg("rect", { x: c + 0.06, y: r + 0.06, width: 0.88, height: 0.88, rx: 0.12, fill }));
    }
  }
}

function pegsPicture() {
  return svg("svg", { viewBox: "0 0 121 30", class: "pegs", "aria-hidden": "true", focusable: "false" });
}

// A Cribbage view's sides: one track each, filled to the side's score out of 121.
function drawPegs(picture, scores, win) {
  const rows = Math.max(scores.length, 1);
  const height = 30 / rows;
  scores.forEach((score, i) => {
    picture.append(svg("rect", { x: 0, y: i * height + 1, width: 121, height: height - 2, rx: 2, fill: "var(--square)" }));
    picture.append(svg("rect", { x: 0, y: i * height + 1, width: Math.min(score, win) * 121 / win,
      height: height - 2, rx: 2, fill: i % 2 ? "var(--accent)" : "var(--light)" }));
  });
}

function scoresOf(view) {
  if (Array.isArray(view.scores)) return view.scores.map(Number);
  return (view.seats || []).map((seat) => Number(seat.score || 0));
}

async function fill(card, game) {
  const picture = card.querySelector("svg");
  const response = await fetch(`/api/games/${encodeURIComponent(game.id)}`);
  if (!response.ok) return;
  const view = await response.json();
  const scores = scoresOf(view);
  if (game.game === "cribbage") drawPegs(picture, scores, view.lines?.win || 121);
  else drawBoard(picture, view.board || {});
  card.querySelector(".what").textContent = `${TITLES[game.game] || game.game} · ${scores.join(" – ")}`;
}

export function drawLiveGames(list, games) {
  list.classList.toggle("live", games.length > 0);
  list.replaceChildren(...games.slice(0, SHOWN).map((game) => {
    const li = document.createElement("li");
    const card = document.createElement("a");
    card.className = "watch-card";
    card.href = `/?game=${encodeURIComponent(game.id)}&watch=1`;
    const names = document.createElement("span");
    names.className = "names";
    names.textContent = game.names.join(" – ");
    const what = document.createElement("span");
    what.className = "what";
    what.textContent = TITLES[game.game] || game.game;
    card.append(game.game === "cribbage" ? pegsPicture() : boardPicture(), names, what);
    li.append(card);
    fill(card, game).catch(() => { /* the card stays, without its picture */ });
    return li;
  }));
  if (!games.length) {
    const li = document.createElement("li");
    li.className = "none";
    li.textContent = "No game is being played right now.";
    list.append(li);
  }
}
