// The tiles a Kings player lays before sending a turn, and the keyboard cursor that lays
// them: placed tiles, the picked tile, the faces of 6/9 tiles, the tiles marked for an
// exchange. One for the game (kings/game.js) and one for a puzzle (kings/puzzle.js); the
// page says what it shows and sends.

import { bindKeys } from "../common/keys.js";
import { buildBoard, isSixNine } from "./board.js";
import {
  freeFrom, layTile, markedIndex, otherColour, placedFace, playTiles, rowCol, squareAt,
  typedIndex, usedIndexes,
} from "./turn_tiles.js";

const $ = (id) => document.getElementById(id);

export class Laying {
  // board(): the tiles on the board (square -> tile); rack(): the player's rack;
  // canPlace(): tiles may be placed and picked now; canType(): ranks typed place tiles now;
  // changed(laid): to draw again, ``laid`` when the placed tiles changed (a new preview);
  // say(text): a line to the player (an instruction, or "" to clear it);
  // placed(): after a tile is placed; cursorShown(): the cursor is drawn (in use).
  constructor({ board, rack, canPlace, canType = canPlace, changed, say, placed = () => {},
    cursorShown = () => true }) {
    Object.assign(this, { board, rack, canPlace, canType, changed, say, placed, cursorShown });
    this.squares = new Map();
    this.cursor = "G7";
    this.across = true; // typing moves the cursor across (else down)
    this.reset();
  }

  // Nothing laid, picked or marked.
  reset() {
    this.pending = new Map(); // square -> { index } (of the rack)
    this.placedOrder = []; // squares in the order tiles were placed, for Backspace
    this.selected = null; // { kind: "rack", index } or { kind: "board", square }
    this.faces = {}; // rack index -> chosen face of a 6/9 tile ("6" or "9")
    this.exchangeMode = false;
    this.marked = new Set(); // rack indexes marked for an exchange
  }

  // Draws the board into `element` (each square a button that takes the cursor and a
  // tile); `place(squares)` says where the cursor starts.
  buildBoard(element, place = () => this.cursor) {
    this.squares = buildBoard(element);
    const cursor = place(this.squares);
    this.cursor = cursor;
    for (const [name, sq] of this.squares) {
      sq.setAttribute("role", "button");
      sq.tabIndex = name === cursor ? 0 : -1;
      sq.addEventListener("click", () => { this.setCursor(name, false); this.clickSquare(name); });
    }
  }

  filled(name) { return Boolean(this.board()[name] || this.pending.has(name)); }
  usedIndexes() { return usedIndexes(this.pending); }
  placedFace(index) { return placedFace(this.rack()[index], this.faces[index]); }
  play() { return playTiles(this.pending, this.rack(), this.faces); }

  // The rack index picked, on the rack or as a placed tile (null: none).
  selectedIndex() {
    const sel = this.selected;
    const index = sel?.kind === "rack" ? sel.index : sel?.kind === "board" ? this.pending.get(sel.square)?.index : null;
    return index ?? null;
  }

  // ----- the cursor --------------------------------------------------------------
  setCursor(name, focus = true) {
    this.squares.get(this.cursor)?.setAttribute("tabindex", "-1");
    this.cursor = name;
    const sq = this.squares.get(name);
    sq.tabIndex = 0;
    if (focus) sq.focus();
    this.renderCursor();
  }

  moveCursor(dr, dc) {
    let [row, col] = rowCol(this.cursor);
    // Skip the title patch, which is not part of the board.
    do { row += dr; col += dc; } while (squareAt(row, col) && !this.squares.has(squareAt(row, col)));
    const next = squareAt(row, col);
    if (next) this.setCursor(next);
  }

  // The next free square from `name` on in the typing direction (itself if free).
  freeFrom(name) { return freeFrom(name, this.squares, (s) => this.filled(s), this.across); }

  turnDirection() { this.across = !this.across; this.changed(false); }

  // The cursor's outline and arrow, and the note under the board.
  renderCursor() {
    const shown = this.cursorShown();
    for (const [name, sq] of this.squares) {
      const here = name === this.cursor && shown;
      sq.classList.toggle("cursor", here);
      if (here) sq.dataset.dir = this.across ? "→" : "↓"; else delete sq.dataset.dir;
    }
    $("cursor-note").textContent = shown
      ? `Cursor ${this.cursor}; typing goes ${this.across ? "across" : "down"} (Space turns). Keys: ?` : "";
  }

  // ----- laying tiles ------------------------------------------------------------
  typeRank(rank, key) {
    if (!this.canType()) return;
    const rack = this.rack();
    if (this.exchangeMode) {
      const index = markedIndex(rack, this.marked, rank);
      if (index >= 0) { this.marked.add(index); this.changed(false); }
      return;
    }
    const index = typedIndex(rack, this.usedIndexes(), rank); // typing 9 places a 6/9 turned
    if (index < 0) { this.say(`No ${rank === "T" ? "10" : key.toUpperCase()} left in your rack.`); return; }
    const square = this.freeFrom(this.cursor);
    if (!square) { this.say("No free square that way: move the cursor."); return; }
    if (isSixNine(rack[index])) this.faces[index] = rank === "9" ? "9" : "6";
    this.placeAt(square, index);
    const [row, col] = rowCol(square);
    const across = this.across;
    this.setCursor(this.freeFrom(squareAt(row + (across ? 0 : 1), col + (across ? 1 : 0)) || square) || square);
    this.changed(true);
  }

  placeAt(square, index) {
    this.placedOrder = layTile(this.pending, this.placedOrder, square, index);
    this.selected = null;
    this.placed();
  }

  // Typing a rank takes the first tile of that rank; C swaps in one of the other colour.
  swapColour() {
    const last = this.placedOrder.filter((s) => this.pending.has(s)).pop();
    if (!last) return;
    const { index } = this.pending.get(last);
    const other = otherColour(this.rack(), this.usedIndexes(), index);
    if (other < 0) { this.say("No other colour of that rank in your rack."); return; }
    if (isSixNine(this.rack()[index])) this.faces[other] = this.faces[index] || "6";
    this.pending.set(last, { index: other });
    this.changed(true);
  }

  takeBackLast() {
    if (this.exchangeMode) {
      const last = [...this.marked].pop();
      if (last !== undefined) { this.marked.delete(last); this.changed(false); }
      return;
    }
    this.placedOrder = this.placedOrder.filter((s) => this.pending.has(s));
    const last = this.placedOrder.pop();
    if (!last) return;
    this.pending.delete(last);
    this.selected = null;
    this.setCursor(last);
    this.changed(true);
  }

  clickSquare(name) {
    if (!this.canPlace() || this.board()[name] || this.exchangeMode) return;
    const { pending, selected } = this;
    if (pending.has(name)) {
      if (selected?.kind === "board" && selected.square === name) {
        pending.delete(name); this.selected = null; // a second click takes it back
      } else {
        this.selected = { kind: "board", square: name };
      }
    } else if (selected?.kind === "rack" && !this.usedIndexes().has(selected.index)) {
      this.placeAt(name, selected.index);
    } else if (selected?.kind === "board") {
      const from = selected.square;
      pending.set(name, pending.get(from)); // move a placed tile
      pending.delete(from);
      this.placeAt(name, pending.get(name).index);
    } else {
      return;
    }
    this.changed(true);
  }

  clickRack(index) {
    if (!this.canPlace()) return;
    if (this.exchangeMode) {
      if (this.marked.has(index)) this.marked.delete(index); else this.marked.add(index);
    } else {
      const sel = this.selected;
      this.selected = sel?.kind === "rack" && sel.index === index ? null : { kind: "rack", index };
    }
    this.changed(false);
  }

  // A rack tile dropped on a square (by drag): placed there, as by a click.
  dropOn(index, square) {
    if (!square || this.board()[square]) return;
    this.selected = { kind: "rack", index };
    this.clickSquare(square);
  }

  turnSixNine() {
    const index = this.selectedIndex();
    if (index === null || !isSixNine(this.rack()[index])) return;
    this.faces[index] = (this.faces[index] || "6") === "6" ? "9" : "6";
    this.changed(true);
  }

  // F: turns the 6/9 tile placed last (or the one picked).
  flipLast() {
    const last = this.placedOrder[this.placedOrder.length - 1];
    if (last && this.pending.has(last)) this.selected = { kind: "board", square: last };
    this.turnSixNine();
  }

  recall() { this.pending.clear(); this.placedOrder = []; this.selected = null; }

  // ----- the keyboard and the help -----------------------------------------------
  // The keys of common/keys.js: the cursor, typing and turning tiles here; the page's
  // own actions (`actions`: active, play, enterSquare, recallAll, exchange, pass, hint)
  // for the rest. `area` gets the "keys" class (the cursor shown) while keys are used.
  bindKeys(area, actions) {
    document.addEventListener("keydown", () => { if (actions.active()) area.classList.add("keys"); });
    document.addEventListener("pointerdown", (e) => { if (e.pointerType === "touch") area.classList.remove("keys"); });
    bindKeys({
      move: (dr, dc) => this.moveCursor(dr, dc),
      rank: (rank, key) => this.typeRank(rank, key),
      turnDirection: () => this.turnDirection(),
      back: () => this.takeBackLast(),
      flip: () => this.flipLast(),
      otherColour: () => this.swapColour(),
      help: () => this.toggleHelp(),
      ...actions,
    });
  }

  // The keys' help box: opened and closed (focus to its Close button, then back to the board).
  toggleHelp(show = $("help").hidden) {
    $("help").hidden = !show;
    $("help-open").setAttribute("aria-expanded", String(show));
    if (show) $("help-close").focus(); else this.squares.get(this.cursor)?.focus();
  }
}
