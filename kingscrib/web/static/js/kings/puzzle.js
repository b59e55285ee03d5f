// A Kings puzzle: the board and rack drawn and played as in a game (board.js, drag.js,
// keys.js): click or drag a rack tile to a square, or type ranks at the cursor; Play,
// Exchange or Pass send the answer.

import { buildBoard, isSixNine, tileElement } from "./board.js";
import { draggable, targetAt } from "../common/drag.js";
import { bindKeys } from "../common/keys.js";
import { tileName } from "./spoken.js";
import {
  freeFrom as freeSquareFrom, layTile, markedIndex, otherColour, placedFace as placedTile,
  playTiles as laidPlay, rowCol, squareAt, typedIndex, usedIndexes as laidIndexes,
} from "./turn_tiles.js";

const $ = (id) => document.getElementById(id);
let puzzle = null;
let answer = null; // called with the move, as the game sends one
let open = false; // waiting for an answer
let squares = new Map();
let pending = new Map(); // square -> { index }
let placedOrder = [];
let selected = null; // { kind: "rack", index } or { kind: "board", square }
let faces = {};
let cursor = "G7";
let across = true;
let exchangeMode = false;
let marked = new Set();
let best = null; // squares of the best play, shown after answering
let keysBound = false;

const board = () => puzzle.position.board;
const rack = () => puzzle.position.rack;
const filled = (name) => Boolean(board()[name] || pending.has(name));
const usedIndexes = () => laidIndexes(pending);
const placedFace = (index) => placedTile(rack()[index], faces[index]);

export function show(shown, onAnswer) {
  puzzle = shown;
  answer = onAnswer;
  open = true;
  pending = new Map(); placedOrder = []; selected = null; faces = {};
  exchangeMode = false; marked = new Set(); best = null; across = true;
  $("p-kings").hidden = false;
  squares = buildBoard($("board"));
  cursor = freeSquareNear();
  for (const [name, sq] of squares) {
    sq.setAttribute("role", "button");
    sq.tabIndex = name === cursor ? 0 : -1;
    sq.addEventListener("click", () => { setCursor(name, false); clickSquare(name); });
  }
  $("commit").onclick = commit;
  $("recall").onclick = () => { recall(); draw(); };
  $("turn69").onclick = turnSixNine;
  $("exchange").onclick = exchange;
  $("pass").onclick = () => send({ action: "pass" });
  $("help-open").onclick = () => toggleHelp();
  $("help-close").onclick = () => toggleHelp(false);
  $("p-bag").textContent = puzzle.position.bag
    ? `${puzzle.position.bag} tiles in the bag` : "The bag is empty: the tiles left on a rack count against it.";
  if (!keysBound) bind();
  draw();
}

export function hide() { open = false; $("p-kings").hidden = true; }

// After the answer: no more input; the best play is shown on the board.
export function showBest(move) {
  open = false;
  recall();
  best = move.action === "play" ? move.tiles : null;
  draw();
}

function freeSquareNear() {
  const free = [...squares.keys()].filter((s) => !board()[s]);
  return free.find((s) => s === "G7") || free[0];
}

function bind() {
  keysBound = true;
  document.addEventListener("keydown", () => { if (open) $("p-kings").classList.add("keys"); });
  document.addEventListener("pointerdown", (e) => { if (e.pointerType === "touch") $("p-kings").classList.remove("keys"); });
  bindKeys({
    active: () => open && !$("p-kings").hidden,
    move: moveCursor,
    rank: typeRank,
    turnDirection: () => { across = !across; draw(); },
    back: takeBackLast,
    play: () => { if (!$("help").hidden) return; if (exchangeMode) exchange(); else commit(); },
    enterSquare: () => { if (selected || exchangeMode) clickSquare(cursor); else commit(); },
    recallAll: () => {
      if (!$("help").hidden) { toggleHelp(false); return; }
      exchangeMode = false; marked.clear(); recall(); draw();
    },
    flip: () => {
      const last = placedOrder[placedOrder.length - 1];
      if (last && pending.has(last)) selected = { kind: "board", square: last };
      turnSixNine();
    },
    otherColour: swapColour,
    exchange,
    pass: () => send({ action: "pass" }),
    hint: () => {},
    help: () => toggleHelp(),
  });
}

function toggleHelp(showIt = $("help").hidden) {
  $("help").hidden = !showIt;
  $("help-open").setAttribute("aria-expanded", String(showIt));
  if (showIt) $("help-close").focus(); else squares.get(cursor)?.focus();
}

function setCursor(name, focus = true) {
  squares.get(cursor)?.setAttribute("tabindex", "-1");
  cursor = name;
  const sq = squares.get(name);
  sq.tabIndex = 0;
  if (focus) sq.focus();
  renderCursor();
}

function moveCursor(dr, dc) {
  let [row, col] = rowCol(cursor);
  do { row += dr; col += dc; } while (squareAt(row, col) && !squares.has(squareAt(row, col)));
  const next = squareAt(row, col);
  if (next) setCursor(next);
}

const freeFrom = (name) => freeSquareFrom(name, squares, filled, across);

function typeRank(rank, key) {
  if (!open) return;
  if (exchangeMode) {
    const index = markedIndex(rack(), marked, rank);
    if (index >= 0) { marked.add(index); draw(); }
    return;
  }
  const index = typedIndex(rack(), usedIndexes(), rank);
  if (index < 0) { message(`No ${rank === "T" ? "10" : key.toUpperCase()} left in your rack.`); return; }
  const square = freeFrom(cursor);
  if (!square) { message("No free square that way: move the cursor."); return; }
  if (isSixNine(rack()[index])) faces[index] = rank === "9" ? "9" : "6";
  placeAt(square, index);
  const [row, col] = rowCol(square);
  setCursor(freeFrom(squareAt(row + (across ? 0 : 1), col + (across ? 1 : 0)) || square) || square);
  draw();
}

function placeAt(square, index) {
  placedOrder = layTile(pending, placedOrder, square, index);
  selected = null;
  message("");
}

function swapColour() {
  const last = placedOrder.filter((s) => pending.has(s)).pop();
  if (!last) return;
  const { index } = pending.get(last);
  const tile = rack()[index];
  const other = otherColour(rack(), usedIndexes(), index);
  if (other < 0) { message("No other colour of that rank in your rack."); return; }
  if (isSixNine(tile)) faces[other] = faces[index] || "6";
  pending.set(last, { index: other });
  draw();
}

function takeBackLast() {
  if (exchangeMode) {
    const last = [...marked].pop();
    if (last !== undefined) { marked.delete(last); draw(); }
    return;
  }
  placedOrder = placedOrder.filter((s) => pending.has(s));
  const last = placedOrder.pop();
  if (!last) return;
  pending.delete(last);
  selected = null;
  setCursor(last);
  draw();
}

function clickSquare(name) {
  if (!open || board()[name] || exchangeMode) return;
  if (pending.has(name)) {
    if (selected?.kind === "board" && selected.square === name) { pending.delete(name); selected = null; }
    else selected = { kind: "board", square: name };
  } else if (selected?.kind === "rack" && !usedIndexes().has(selected.index)) {
    placeAt(name, selected.index);
  } else if (selected?.kind === "board") {
    const from = selected.square;
    pending.set(name, pending.get(from));
    pending.delete(from);
    placeAt(name, pending.get(name).index);
  } else {
    return;
  }
  draw();
}

function clickRack(index) {
  if (!open) return;
  if (exchangeMode) {
    if (marked.has(index)) marked.delete(index); else marked.add(index);
  } else {
    selected = selected?.kind === "rack" && selected.index === index ? null : { kind: "rack", index };
  }
  draw();
}

function turnSixNine() {
  let index = null;
  if (selected?.kind === "rack") index = selected.index;
  if (selected?.kind === "board") index = pending.get(selected.square)?.index;
  if (index === null || index === undefined || !isSixNine(rack()[index])) return;
  faces[index] = (faces[index] || "6") === "6" ? "9" : "6";
  draw();
}

function recall() { pending.clear(); placedOrder = []; selected = null; }

function commit() {
  if (!open || !pending.size) return;
  send({ action: "play", tiles: laidPlay(pending, rack(), faces) });
}

function exchange() {
  if (!open) return;
  if (!exchangeMode) {
    recall();
    exchangeMode = true;
    marked.clear();
    message("Pick the tiles to exchange (click them or type their ranks), then press Exchange again.");
    draw();
    return;
  }
  exchangeMode = false;
  const tiles = [...marked].map((i) => rack()[i]);
  marked.clear();
  draw();
  if (tiles.length) send({ action: "exchange", tiles });
  else message("");
}

function send(move) { if (open) answer(move); }

function message(text) { $("p-message").textContent = text; }

function renderCursor() {
  for (const [name, sq] of squares) {
    const here = name === cursor && open;
    sq.classList.toggle("cursor", here);
    if (here) sq.dataset.dir = across ? "→" : "↓"; else delete sq.dataset.dir;
  }
  $("cursor-note").textContent = open ? `Cursor ${cursor}; typing goes ${across ? "across" : "down"} (Space turns). Keys: ?` : "";
}

function draw() {
  for (const [name, sq] of squares) {
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
      const el = tileElement(placedFace(index), { sixNine });
      el.setAttribute("aria-hidden", "true");
      el.classList.add("pending");
      label = `${name}, ${tileName(placedFace(index), { sixNine })}, placed, not yet played`;
      if (selected?.kind === "board" && selected.square === name) el.classList.add("selected");
      sq.append(el);
    }
    sq.setAttribute("aria-label", label);
    sq.title = label;
  }
  renderCursor();
  const rackEl = $("rack");
  rackEl.replaceChildren();
  const used = usedIndexes();
  rack().forEach((tile, index) => {
    if (used.has(index)) return;
    const face = placedFace(index);
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
    el.addEventListener("click", () => { clickRack(index); rackEl.querySelector(`[data-index="${index}"]`)?.focus(); });
    el.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); el.click(); }
    });
    draggable(el, {
      enabled: () => open && !exchangeMode,
      over: (x, y) => {
        for (const s of $("board").querySelectorAll(".sq.drop")) s.classList.remove("drop");
        const sq = targetAt(x, y, ".sq");
        if (sq && !filled(sq.dataset.square)) sq.classList.add("drop");
      },
      drop: (x, y) => {
        const sq = targetAt(x, y, ".sq");
        if (!sq || board()[sq.dataset.square]) return;
        selected = { kind: "rack", index };
        clickSquare(sq.dataset.square);
      },
    });
    rackEl.append(el);
  });
  $("p-kings-controls").hidden = !open;
  $("rack").hidden = !open;
  $("commit").disabled = !pending.size;
  $("recall").disabled = !pending.size;
  const sel = selected?.kind === "rack" ? selected.index
    : selected?.kind === "board" ? pending.get(selected.square)?.index : null;
  $("turn69").disabled = sel === null || sel === undefined || !isSixNine(rack()[sel]);
  $("exchange").disabled = !puzzle.position.bag;
  $("exchange").classList.toggle("on", exchangeMode);
  $("exchange").textContent = exchangeMode ? `Exchange ${marked.size} tile${marked.size === 1 ? "" : "s"}` : "Exchange…";
}
