// The start page: a lobby to start a game, a join panel for invite links, and the game
// itself; with the account panel, the first visit's suggestion, the live lobby, a game's
// chat and the games waiting for your move, each a module of its own.

import "../common/account.js";
import "../common/welcome.js";
import "../common/seeks.js";
import "../common/chat.js";
import "../common/yourturn.js";
import { GameSocket, request, saved } from "../common/api.js";
import { renderInvites as renderInviteBox } from "../common/invites.js";
import { buildBoard, isSixNine, tileElement } from "../kings/board.js";
import { draggable, targetAt } from "../common/drag.js";
import { bindKeys } from "../common/keys.js";
import { renderMyGames } from "../common/mygames.js";
import { renderNextGame } from "../common/nextgame.js";
import { renderClocks, renderResign, resultText } from "../common/clocks.js";
import { arrive, glide, snapshot } from "../common/motion.js";
import { bindSoundToggle, notifyTurn, playSound } from "../common/notify.js";
import { overclaimText, placementsText, spellBreakdown, tileName, turnSpoken, turnText } from "../kings/spoken.js";
import {
  freeFrom as freeSquareFrom, layTile, markedIndex, otherColour, placedFace as placedTile,
  playTiles as laidPlay, rowCol, squareAt, typedIndex, usedIndexes as laidIndexes,
} from "../kings/turn_tiles.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const gameId = params.get("game");

let levels = ["greedy"];
let games = {}; // per game: title, levels, default level (from /api/levels)
let levelNames = {}; // per game and level: { title, line } (kingscrib/level_names.py)
let gentleLevel = {}; // per game: the level a newcomer's lobby preselects
const chosenGame = () => document.querySelector("#game-choice input:checked")?.value || "kings";
let state = null; // the game as the server shows it to this seat
let socket = null;
let token = null; // this page's seat token (null: a spectator)
let squares = new Map();
let pending = new Map(); // square -> { index, face }
let selected = null; // { kind: "rack", index } or { kind: "board", square }
let faces = {}; // rack index -> chosen face for a 6/9 tile ("6" or "9")
let exchangeMode = false;
let marked = new Set();
let previewSeq = 0;
let previewLegal = false; // the server said the placed tiles make a legal play
let busy = false;
let cursor = "G7"; // the keyboard cursor on the board
let across = true; // typing moves the cursor across (else down)
let placedOrder = []; // squares in the order tiles were placed, for Backspace
let heard = null; // history length already announced

// ----- lobby ---------------------------------------------------------------------
// The player's own name, kept in this browser for the next game and the next invite.
const NAME_KEY = "kingscrib:name";
const rememberName = (name) => { if (name) localStorage.setItem(NAME_KEY, name); };
const rememberedName = () => localStorage.getItem(NAME_KEY) || "";

async function showLobby() {
  $("lobby").hidden = false;
  renderMyGames($("my-games"), $("my-games-list"));
  try {
    const meta = await request("GET", "/api/levels");
    levels = meta.levels;
    games = meta.games || {};
    levelNames = meta.names || {};
    gentleLevel = meta.gentle || {};
  } catch { /* keep default */ }
  const levelsOf = (game) => games[game]?.levels || levels;
  const defaultLevel = (game) => games[game]?.default_level || "greedy";
  const rows = $("seat-rows");
  const addRow = (kind) => {
    const n = rows.children.length;
    if (n >= 4) return;
    const row = document.createElement("div");
    row.className = "seat-row";
    row.innerHTML = `<span>Seat ${n + 1}</span>
      <select class="kind" aria-label="seat ${n + 1} kind">
        <option value="human">Person</option><option value="computer">Computer</option></select>
      <select class="level" aria-label="seat ${n + 1} level"></select>
      <input class="name" placeholder="Name" maxlength="24" aria-label="seat ${n + 1} name">`;
    const kindSel = row.querySelector(".kind");
    const levelSel = row.querySelector(".level");
    kindSel.value = kind;
    if (n === 0) row.querySelector(".name").value = rememberedName(); // your seat
    fillLevels(levelSel);
    const nameBox = row.querySelector(".name");
    // A computer seat is named after its level by the server: it has no name box.
    const sync = () => {
      levelSel.hidden = kindSel.value !== "computer";
      nameBox.hidden = kindSel.value === "computer";
    };
    kindSel.addEventListener("change", sync);
    sync();
    rows.append(row);
  };
  const fillLevels = (select) => {
    const game = chosenGame();
    // Friendly titles (their one line as the tooltip); a newcomer meets the gentle level.
    const names = levelNames[game] || {};
    select.replaceChildren(...levelsOf(game).map((l) => {
      const option = new Option(names[l]?.title || l, l);
      option.title = names[l]?.line || "";
      return option;
    }));
    select.value = gentleLevel[game] || defaultLevel(game);
  };
  const syncGame = () => {
    const classic = chosenGame() === "classic";
    $("rule-options").hidden = classic;
    $("classic-options").hidden = !classic;
    $("clock-rule").hidden = !$("clock-choice").value; // said once a clock is chosen
    $("clock-rule").textContent = $("clock-choice").value.startsWith("d")
      ? "A correspondence game: each move has its own days; whoever lets them run out loses. Your turn lists the games waiting for you."
      : classic
      ? "Whoever runs out of time loses the game (with four players, their team)."
      : "Then up to 10 minutes of overtime, 10 points off per started minute; after that the game is lost.";
    for (const select of rows.querySelectorAll(".level")) fillLevels(select);
  };
  for (const radio of document.querySelectorAll("#game-choice input")) {
    radio.addEventListener("change", syncGame);
  }
  $("clock-choice").addEventListener("change", syncGame);
  addRow("human");
  addRow("computer");
  syncGame(); // a choice made while the levels were loading
  $("new-game").dataset.ready = "1";
  $("add-seat").onclick = () => addRow("computer");
  $("remove-seat").onclick = () => { if (rows.children.length > 2) rows.lastElementChild.remove(); };
  $("new-game").onsubmit = async (event) => {
    event.preventDefault();
    const seats = [...rows.children].map((row) => {
      const kind = row.querySelector(".kind").value;
      const name = row.querySelector(".name").value.trim() || undefined;
      return kind === "computer"
        ? { kind, level: row.querySelector(".level").value }
        : { kind, name };
    });
    rememberName(seats.find((s) => s.kind === "human")?.name);
    const chosen = $("clock-choice").value; // seconds per game, or "d<days>" per move
    const clock = chosen && !chosen.startsWith("d") ? Number(chosen) : undefined;
    const days = chosen.startsWith("d") ? Number(chosen.slice(1)) : undefined;
    const box = (name) => document.querySelector(`#rule-options [name=${name}]`).checked;
    const game = chosenGame();
    const classicBox = (name) => document.querySelector(`#classic-options [name=${name}]`).checked;
    const rules = game === "classic" ? { muggins: classicBox("muggins"), skunk: classicBox("skunk") } : {
      reduced_first_bonus: box("reduced_first_bonus"),
      exchange: box("when_stuck") ? "when-stuck" : "anytime",
      joker: box("joker"), servant: box("servant"), solitaire: box("solitaire"),
    };
    try {
      $("start").disabled = true;
      const hints = document.querySelector("#rule-options [name=hints]")?.checked ?? false;
      const rated = $("rated")?.checked ?? false;
      const created = await request("POST", "/api/games", { game, seats, rules, hints, rated, clock_seconds: clock, clock_days_per_move: days });
      if (created.token) saved.setToken(created.game_id, created.token);
      saved.setInvite(created.game_id, created.invite);
      location.href = `/?game=${created.game_id}`;
    } catch (error) {
      alert(error.message);
      $("start").disabled = false;
    }
  };
}

// ----- joining -------------------------------------------------------------------
async function showJoin(invite) {
  $("join").hidden = false;
  let view;
  try { view = await request("GET", `/api/games/${gameId}`); } catch (error) {
    $("join-text").textContent = error.message; return;
  }
  const open = view.seats.filter((s) => !s.joined);
  renderJoinDetails(view);
  $("join-name").value = rememberedName();
  $("join-text").textContent = open.length
    ? "Pick your seat. Your seat's secret stays in this browser, so you can come back to it."
    : "Every seat is taken; you can watch the game.";
  $("join-hints").textContent = view.game === "classic" ? ""
    : view.hints_allowed
    ? "Hints are allowed in this game: every player may ask the computer for a play."
    : "Hints are off in this game between people.";
  const box = $("join-seats");
  for (const seat of open) {
    const button = document.createElement("button");
    button.className = "primary";
    button.dataset.seat = seat.seat;
    button.textContent = `Take seat ${seat.seat + 1} (${seat.name})`;
    button.onclick = async () => {
      try {
        const joined = await request("POST", `/api/games/${gameId}/join`,
          { invite, seat: seat.seat, name: $("join-name").value.trim() || undefined });
        rememberName($("join-name").value.trim());
        saved.setToken(gameId, joined.token);
        location.replace(`/?game=${gameId}`);
      } catch (error) { $("join-text").textContent = error.message; }
    };
    box.append(button);
  }
  $("join-watch").onclick = () => location.replace(`/?game=${gameId}&watch=1`);
}

// What the invitee is asked to join: the game, who invites, who plays, the rules, the clock.
const KINGS_RULES = {
  reduced_first_bonus: "reduced first bonus", joker: "Joker (you claim your own points; others may call Joker!)",
  servant: "Servant", solitaire: "solitaire (Light and Dark bags)",
};
function renderJoinDetails(view) {
  const classic = view.game === "classic";
  const title = classic ? "Cribbage" : "Kings Cribbage";
  $("join-title").textContent = `Join a game of ${title}`;
  const host = view.seats.find((s) => s.kind === "human" && s.joined);
  const who = (s) => (s.joined ? s.name : "an open seat");
  const rules = classic
    ? [view.rules.muggins && "muggins (you count your own hand; points you miss go to the next player)",
      view.rules.skunk && "skunks count double or triple"]
    : [...Object.entries(KINGS_RULES).filter(([key]) => view.rules[key]).map(([, text]) => text),
      view.rules.exchange === "when-stuck" && "exchange or pass only when no play is possible"];
  const clock = view.clock?.per_move
    ? `${Math.round(view.clock.seconds / 86400)} days per move (correspondence); whoever runs out of time loses`
    : view.clock
    ? `${Math.round(view.clock.seconds / 60)} minutes each${classic ? "; whoever runs out of time loses"
      : `, then up to ${Math.round(view.clock.overtime / 60)} minutes of overtime at ${view.clock.penalty_per_minute} points off per started minute`}`
    : "none";
  const lines = [
    ["Invited by", host ? host.name : "—"],
    ["Players", view.seats.map(who).join(", ")],
    ["Rules", rules.filter(Boolean).join("; ") || "the standard rules"],
    ["Clock", clock],
    ["Rated", view.rated ? "yes: the ratings move when it ends (log in to take a seat)" : "no"],
  ];
  const list = $("join-details");
  list.replaceChildren();
  for (const [term, text] of lines) {
    const dt = document.createElement("dt");
    dt.textContent = term;
    const dd = document.createElement("dd");
    dd.textContent = text;
    list.append(dt, dd);
  }
}

// ----- the game ------------------------------------------------------------------
function showGame() {
  $("game").hidden = false;
  if (!params.get("watch")) bindSoundToggle($("sound"));
  squares = buildBoard($("board"));
  for (const [name, sq] of squares) {
    sq.setAttribute("role", "button");
    sq.tabIndex = name === cursor ? 0 : -1;
    sq.addEventListener("click", () => { setCursor(name, false); clickSquare(name); });
  }
  token = params.get("watch") ? null : saved.token(gameId);
  socket = new GameSocket(gameId, token, {
    onState: receiveState,
    onStatus: (online) => {
      $("connection").className = `connection ${online ? "online" : "offline"}`;
      $("connection").title = online ? "connected" : "connection lost: reconnecting";
      document.body.classList.toggle("offline", !online);
      if (state) render();
    },
    onError: showMessage,
  });
  $("commit").onclick = commit;
  $("recall").onclick = () => { recall(); render(); };
  $("turn69").onclick = turnSixNine;
  $("exchange").onclick = exchange;
  $("pass").onclick = () => act({ action: "pass" });
  $("hint").onclick = hint;
  $("joker").onclick = () => act({ action: "joker" });
  $("help-open").onclick = () => toggleHelp();
  $("help-close").onclick = () => toggleHelp(false);
  // The cursor's outline, arrow and note are for a seated player who uses the keyboard.
  document.addEventListener("keydown", () => { if (state && state.you !== null) $("game").classList.add("keys"); });
  document.addEventListener("pointerdown", (e) => { if (e.pointerType === "touch") $("game").classList.remove("keys"); });
  bindKeys({
    active: () => !$("game").hidden && state !== null && state.you !== null, // not a spectator
    move: (dr, dc) => moveCursor(dr, dc),
    rank: typeRank,
    turnDirection: () => { across = !across; render(); },
    back: takeBackLast,
    play: () => { if (!$("help").hidden) return; if (exchangeMode) exchange(); else if (!$("commit").disabled) commit(); },
    enterSquare: () => {
      if (selected || exchangeMode) clickSquare(cursor); else if (!$("commit").disabled) commit();
    },
    recallAll: () => {
      if (!$("help").hidden) { toggleHelp(false); return; }
      if (exchangeMode) { exchangeMode = false; marked.clear(); showMessage(""); }
      recall(); render(); refreshPreview();
    },
    flip: () => {
      const last = placedOrder[placedOrder.length - 1];
      if (last && pending.has(last)) selected = { kind: "board", square: last };
      turnSixNine();
    },
    otherColour: swapColour,
    exchange: () => { if (!$("exchange").disabled) exchange(); },
    pass: () => { if (!$("pass").disabled) act({ action: "pass" }); },
    hint: () => { if (!$("hint").disabled) hint(); },
    help: () => toggleHelp(),
  });
}

function toggleHelp(show = $("help").hidden) {
  $("help").hidden = !show;
  $("help-open").setAttribute("aria-expanded", String(show));
  if (show) $("help-close").focus(); else squares.get(cursor)?.focus();
}

// ----- the keyboard cursor -------------------------------------------------------

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
  // Skip the title patch, which is not part of the board.
  do { row += dr; col += dc; } while (squareAt(row, col) && !squares.has(squareAt(row, col)));
  const next = squareAt(row, col);
  if (next) setCursor(next);
}

const filled = (name) => Boolean(state.board[name] || pending.has(name));

// The next free square from `name` on in the typing direction (itself if free).
const freeFrom = (name) => freeSquareFrom(name, squares, filled, across);

function typeRank(rank, key) {
  if (!state || state.you === null || state.over) return;
  const used = usedIndexes();
  if (exchangeMode) {
    const index = markedIndex(state.rack || [], marked, rank);
    if (index >= 0) { marked.add(index); render(); }
    return;
  }
  const index = typedIndex(state.rack || [], used, rank); // typing 9 places a 6/9 turned
  if (index < 0) { showMessage(`No ${rank === "T" ? "10" : key.toUpperCase()} left in your rack.`, "info"); return; }
  const square = freeFrom(cursor);
  if (!square) { showMessage("No free square that way: move the cursor.", "info"); return; }
  if (isSixNine(state.rack[index])) faces[index] = rank === "9" ? "9" : "6";
  placeAt(square, index);
  const [row, col] = rowCol(square);
  const next = freeFrom(squareAt(row + (across ? 0 : 1), col + (across ? 1 : 0)) || square) || square;
  setCursor(next);
  render();
  refreshPreview();
}

// The empty square under a dragged tile is lit.
function markDrop(sq) {
  for (const el of $("board").querySelectorAll(".sq.drop")) if (el !== sq) el.classList.remove("drop");
  if (sq && !state?.board[sq.dataset.square]) sq.classList.add("drop");
}

function placeAt(square, index) {
  placedOrder = layTile(pending, placedOrder, square, index);
  selected = null;
}

// Typing a rank takes the first tile of that rank; C swaps in one of the other colour.
function swapColour() {
  const last = placedOrder.filter((s) => pending.has(s)).pop();
  if (!last) return;
  const { index } = pending.get(last);
  const tile = rackTile(index);
  const other = otherColour(state.rack, usedIndexes(), index);
  if (other < 0) { showMessage(`No other colour of that rank in your rack.`, "info"); return; }
  if (isSixNine(tile)) faces[other] = faces[index] || "6";
  pending.set(last, { index: other });
  render();
  refreshPreview();
}

function takeBackLast() {
  if (exchangeMode) {
    const last = [...marked].pop();
    if (last !== undefined) { marked.delete(last); render(); }
    return;
  }
  placedOrder = placedOrder.filter((s) => pending.has(s));
  const last = placedOrder.pop();
  if (!last) return;
  pending.delete(last);
  selected = null;
  setCursor(last);
  render();
  refreshPreview();
}

function renderCursor() {
  for (const [name, sq] of squares) {
    const here = name === cursor;
    sq.classList.toggle("cursor", here);
    if (here) sq.dataset.dir = across ? "→" : "↓"; else delete sq.dataset.dir;
  }
  $("cursor-note").textContent = `Cursor ${cursor}; typing goes ${across ? "across" : "down"} (Space turns). Keys: ?`;
}

function receiveState(next) {
  // Resigned or out of time ("result"): the game is over whatever the rules' own state says.
  if (next.result) { next.over = true; next.turn = null; }
  const moved = !state || next.version !== state.version;
  state = next;
  if (moved) {
    // Pending tiles stay only while their squares are still free and the rack is the same.
    for (const [square, p] of pending) {
      if (state.board[square] || !state.rack || p.index >= state.rack.length) pending.delete(square);
    }
    if (state.turn !== state.you) { exchangeMode = false; marked.clear(); }
    $("hint-box").hidden = true;
    announce();
  }
  render();
  if (moved) refreshPreview();
}

// Tell screen readers (a live region) what the others did, the scores and whose turn it is.
function announce() {
  const seatName = (i) => state.seats[i]?.name ?? `Seat ${i + 1}`;
  if (heard === null) { heard = state.history.length; return; }
  // Your own over-claim, corrected now that the claim is made (docs/rules.md).
  const mine = state.history.slice(heard).filter((t) => t.seat === state.you && t.overclaim);
  for (const t of mine) showMessage(overclaimText(t, seatName, state.you), "info");
  const fresh = state.history.slice(heard).filter((t) => t.seat !== state.you);
  heard = state.history.length;
  if (fresh.length) playSound(fresh.some((t) => t.score > 0) ? "score" : "lay");
  if (state.over) playSound("end");
  if (!fresh.length && !state.over) return;
  const words = fresh.map((t) => turnSpoken(t, seatName));
  words.push(`Scores: ${state.seats.map((s) => `${seatName(s.seat)} ${s.score}`).join(", ")}.`);
  if (state.over) words.push(state.result ? `The game is over. ${resultText(state, seatName)}` : "The game is over.");
  else words.push(state.turn === state.you ? "Your turn." : `${seatName(state.turn)} to play.`);
  $("announce").textContent = words.join(" ");
}

const myTurn = () => state && !state.over && state.you !== null && state.turn === state.you;
const rackTile = (index) => state.rack[index];
const placedFace = (index) => placedTile(rackTile(index), faces[index]);
const usedIndexes = () => laidIndexes(pending);

function clickSquare(name) {
  if (!state || state.you === null || state.board[name] || exchangeMode) return;
  if (pending.has(name)) {
    if (selected?.kind === "board" && selected.square === name) {
      pending.delete(name); selected = null; // a second click takes it back
    } else {
      selected = { kind: "board", square: name };
    }
  } else if (selected?.kind === "rack" && !usedIndexes().has(selected.index)) {
    placeAt(name, selected.index);
  } else if (selected?.kind === "board") {
    const from = selected.square;
    pending.set(name, pending.get(from)); // move a pending tile
    pending.delete(from);
    placeAt(name, pending.get(name).index);
  } else {
    return;
  }
  render();
  refreshPreview();
}

function clickRack(index) {
  if (exchangeMode) {
    if (marked.has(index)) marked.delete(index); else marked.add(index);
  } else {
    selected = selected?.kind === "rack" && selected.index === index ? null : { kind: "rack", index };
  }
  render();
}

function turnSixNine() {
  let index = null;
  if (selected?.kind === "rack") index = selected.index;
  if (selected?.kind === "board") index = pending.get(selected.square)?.index;
  if (index === null || index === undefined || !isSixNine(rackTile(index))) return;
  faces[index] = (faces[index] || "6") === "6" ? "9" : "6";
  render();
  refreshPreview();
}

function recall() { pending.clear(); placedOrder = []; selected = null; }

const playTiles = () => laidPlay(pending, state.rack, faces);

async function refreshPreview() {
  const box = $("preview");
  const seq = ++previewSeq;
  previewLegal = false;
  if (!pending.size || state.you === null) {
    box.textContent = ""; box.className = "preview"; box.dataset.score = ""; render(); return;
  }
  if ($("message").className === "message") showMessage(""); // an old error no longer applies
  render();
  try {
    const reply = await socket.call("preview", { tiles: playTiles() });
    if (seq !== previewSeq) return;
    const p = reply.preview;
    previewLegal = p.legal;
    box.className = p.legal ? "preview" : "preview bad";
    box.dataset.score = p.legal && p.score !== undefined ? p.score : "";
    // Under the Joker rule the claim is the player's own count: never filled in for them.
    box.textContent = !p.legal ? p.error
      : p.score === undefined ? `Legal: ${spellBreakdown(p.describe)}` : `Scores ${p.score}: ${spellBreakdown(p.describe)}`;
  } catch (error) {
    if (seq === previewSeq) { box.className = "preview bad"; box.textContent = error.message; }
  }
  render();
}

async function act(body) {
  if (busy) return;
  busy = true;
  showMessage("");
  try {
    await socket.call("action", body);
    recall();
    faces = {};
  } catch (error) {
    showMessage(error.message);
  } finally {
    busy = false;
    render();
  }
}

function commit() {
  if (!pending.size) return;
  const body = { action: "play", tiles: playTiles() };
  if (state.rules.joker && $("claim").value !== "") body.claim = Number($("claim").value);
  act(body);
}

function exchange() {
  if (!exchangeMode) {
    recall();
    exchangeMode = true;
    marked.clear();
    showMessage("Pick the tiles to exchange (click them or type their ranks), then press Exchange again.", "info");
    render();
    return;
  }
  if (!marked.size) { exchangeMode = false; showMessage(""); render(); return; }
  const tiles = [...marked].map(rackTile);
  exchangeMode = false;
  marked.clear();
  act({ action: "exchange", tiles });
}

async function hint() {
  const box = $("hint-box");
  box.hidden = false;
  box.textContent = "Thinking…";
  delete box.dataset.hint;
  try {
    const { hint } = await socket.call("hint");
    box.dataset.hint = JSON.stringify(hint);
    // Under the Joker rule the hint names plays but not their points: the claim is yours.
    const say = (o) => (!o.play ? `${o.advice}`
      : o.score === undefined ? placementsText(o.tiles)
        : `${placementsText(o.tiles)}: ${o.score} points (${spellBreakdown(o.describe)})`);
    const options = hint.options?.length ? hint.options : [hint];
    box.replaceChildren();
    const head = document.createElement("p");
    head.textContent = !hint.options?.length ? `Hint: ${hint.advice}.`
      : hint.uncounted ? `Hint, best first (${hint.uncounted}):`
        : "Hint, best first by equity (points now and the tiles you keep):";
    box.append(head);
    if (hint.options?.length) {
      const list = document.createElement("ol");
      for (const o of options) {
        const li = document.createElement("li");
        li.textContent = o.equity !== undefined ? `${say(o)} — equity ${o.equity}` : say(o);
        list.append(li);
      }
      box.append(list);
    }
  } catch (error) { box.textContent = error.message; }
}

// An error (red, announced at once) or an instruction ("info").
function showMessage(text, kind = "error") {
  const box = $("message");
  box.textContent = text;
  box.className = kind === "info" ? "message info" : "message";
  box.setAttribute("role", kind === "info" ? "status" : "alert");
}

// ----- drawing -------------------------------------------------------------------
// A rack tile glides to the square it is placed on and back; a tile another player laid
// settles onto its square (js/motion.js).
const RACK_TILES = ["#rack .tile, #board .tile.pending", (el) => el.dataset.index];
let boardSeen = null; // squares whose tiles were already drawn

function render() {
  if (!state) return;
  const area = $("game");
  const tilesWere = snapshot(area, ...RACK_TILES);
  draw();
  glide(area, ...RACK_TILES, tilesWere);
  const filled = Object.keys(state.board);
  if (boardSeen) {
    for (const square of filled) {
      if (!boardSeen.has(square) && state.history.at(-1)?.seat !== state.you) arrive(squares.get(square).firstChild);
    }
  }
  boardSeen = new Set(filled);
}

function draw() {
  const seatName = (i) => state.seats[i]?.name ?? `Seat ${i + 1}`;
  // Board.
  const last = new Set(state.last_play);
  for (const [name, sq] of squares) {
    sq.replaceChildren();
    sq.classList.toggle("target", !state.board[name] && myTurn());
    const tile = state.board[name];
    let label = `${name}, empty`;
    if (tile) {
      const el = tileElement(tile);
      el.setAttribute("aria-hidden", "true");
      label = `${name}, ${tileName(tile)}`;
      if (last.has(name)) { el.classList.add("last"); label += ", last play"; }
      sq.append(el);
    } else if (pending.has(name)) {
      const { index } = pending.get(name);
      const sixNine = isSixNine(rackTile(index));
      const el = tileElement(placedFace(index), { sixNine });
      el.setAttribute("aria-hidden", "true");
      el.classList.add("pending");
      el.dataset.index = index;
      label = `${name}, ${tileName(placedFace(index), { sixNine })}, placed, not yet played`;
      if (selected?.kind === "board" && selected.square === name) el.classList.add("selected");
      sq.append(el);
    }
    sq.setAttribute("aria-label", label);
    sq.title = label;
  }
  renderCursor();
  // Rack.
  const rack = $("rack");
  rack.replaceChildren();
  const used = usedIndexes();
  (state.rack || []).forEach((tile, index) => {
    if (used.has(index)) return;
    const face = isSixNine(tile) ? `${faces[index] || "6"}${tile.slice(-1)}` : tile;
    const el = tileElement(face, { sixNine: isSixNine(tile) });
    el.dataset.index = index;
    el.dataset.held = tile;
    el.setAttribute("role", "button");
    el.tabIndex = 0;
    const chosen = exchangeMode ? marked.has(index) : selected?.kind === "rack" && selected.index === index;
    el.setAttribute("aria-pressed", String(Boolean(chosen)));
    el.setAttribute("aria-label", `${tileName(face, { sixNine: isSixNine(tile) })}${exchangeMode ? ", to exchange" : ""}`);
    for (const child of el.children) child.setAttribute("aria-hidden", "true");
    if (selected?.kind === "rack" && selected.index === index) el.classList.add("selected");
    if (marked.has(index)) el.classList.add("marked");
    el.addEventListener("click", () => { clickRack(index); rack.querySelector(`[data-index="${index}"]`)?.focus(); });
    el.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); el.click(); }
    });
    draggable(el, {
      enabled: () => !exchangeMode && state.you !== null,
      over: (x, y) => markDrop(targetAt(x, y, ".sq")),
      drop: (x, y) => {
        const sq = targetAt(x, y, ".sq");
        if (!sq || state.board[sq.dataset.square]) return;
        selected = { kind: "rack", index };
        clickSquare(sq.dataset.square);
      },
    });
    rack.append(el);
  });
  $("rack-area").hidden = state.you === null || state.over;
  // Controls: none once the game is over.
  $("kings-controls").hidden = state.over;
  $("rack").hidden = state.over;
  $("cursor-note").hidden = state.you === null || state.over;
  const mine = myTurn();
  $("commit").disabled = !mine || !pending.size || busy || !previewLegal;
  $("recall").disabled = !pending.size;
  const sel = selected?.kind === "rack" ? selected.index
    : selected?.kind === "board" ? pending.get(selected.square)?.index : null;
  $("turn69").disabled = sel === null || sel === undefined || !isSixNine(rackTile(sel));
  $("exchange").disabled = !mine || !state.can_exchange;
  $("exchange").classList.toggle("on", exchangeMode);
  $("exchange").textContent = exchangeMode ? `Exchange ${marked.size} tile${marked.size === 1 ? "" : "s"}` : "Exchange…";
  $("pass").disabled = !mine;
  $("hint").disabled = state.over || state.you === null || !mine || !state.hints;
  $("hint").title = state.hints ? "" : "Hints are off in a game between people";
  $("claim-box").hidden = !state.rules.joker;
  const lastTurn = state.history[state.history.length - 1];
  $("joker").hidden = !(state.rules.joker && state.joker_open && state.you !== null
    && lastTurn && lastTurn.seat !== state.you);
  // Banner.
  const banner = $("turn-banner");
  banner.className = `turn-banner${mine ? " mine" : ""}`;
  notifyTurn(mine, "Kings Cribbage");
  banner.textContent = state.over ? (state.result ? `Game over. ${resultText(state, seatName)}` : "Game over")
    : mine ? "Your turn: place tiles, then Play"
    : `${seatName(state.turn)} to play${state.seats[state.turn].joined ? "" : " (waiting for them to join)"}`;
  renderScores(seatName);
  renderHistory(seatName);
  renderInvites();
  renderEnd(seatName);
  renderClocks($("clocks"), state, seatName);
  renderResign($("resign-box"), state, token);
}

function renderScores(seatName) {
  const table = $("scores");
  table.innerHTML = "<tr><th>Player</th><th class=num>Score</th><th class=num>Tiles</th></tr>";
  for (const seat of state.seats) {
    const row = document.createElement("tr");
    row.dataset.seat = seat.seat;
    if (state.turn === seat.seat) row.className = "to-move";
    const who = document.createElement("td");
    const dot = document.createElement("span");
    const here = seat.kind === "computer" || seat.online;
    const offline = document.body.classList.contains("offline");
    dot.className = `dot${here ? " on" : ""}`;
    dot.title = offline && seat.seat !== state.you ? "not known while you are offline"
      : seat.kind === "computer" ? "computer" : here ? "online" : "not connected";
    dot.setAttribute("role", "img");
    dot.setAttribute("aria-label", dot.title);
    who.append(dot, seatName(seat.seat));
    const level = seat.level_title || seat.level; // the title people read (level_names)
    if (seat.kind === "computer" && !seatName(seat.seat).includes(level)) who.append(` · ${level}`);
    if (seat.seat === state.you) who.append(badge("you"));
    if (state.servant === seat.seat) who.append(badge("Servant"));
    const score = document.createElement("td");
    score.className = "num score";
    score.textContent = seat.score;
    const tiles = document.createElement("td");
    tiles.className = "num";
    tiles.textContent = seat.rack_size;
    row.append(who, score, tiles);
    table.append(row);
  }
  $("bag").textContent = `Tiles left in the bag: ${state.bag}`;
}

function badge(text) {
  const b = document.createElement("span");
  b.className = "badge";
  b.textContent = text;
  return b;
}

function renderHistory(seatName) {
  const list = $("history");
  const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  list.replaceChildren();
  for (const turn of state.history) {
    const li = document.createElement("li");
    li.value = turn.n;
    li.append(turnText(turn, seatName));
    if (turn.describe) {
      const d = document.createElement("div");
      d.className = "detail";
      d.textContent = spellBreakdown(turn.describe);
      li.append(d);
    }
    if (turn.joker) {
      const d = document.createElement("div");
      d.className = "detail";
      d.textContent = turn.joker.points > 0
        ? `Joker! ${seatName(turn.joker.caller)} takes ${turn.joker.points} missed points`
        : `Joker! called by ${seatName(turn.joker.caller)} with nothing missed: ${turn.joker.points}`;
      li.append(d);
    }
    list.append(li);
  }
  if (atBottom) list.scrollTop = list.scrollHeight;
}

function renderInvites() {
  // A game nobody has played in yet may be cancelled (an invitee who never came).
  const nobodyPlayed = !state.history.some((t) => state.seats[t.seat]?.kind === "human");
  renderInviteBox($("invites"), state, nobodyPlayed);
  $("replay-link").href = `/?replay=${state.id}`;
}

function renderEnd(seatName) {
  const box = $("end");
  if (box.hidden && state.over) requestAnimationFrame(() => box.scrollIntoView({ block: "nearest" }));
  if (state.result) { renderResult(box, seatName); return; }
  if (!state.over || !state.end) { box.hidden = true; return; }
  box.hidden = false;
  const end = state.end;
  // The player who went out made the last turn: their rack emptied with it.
  const last = state.history[state.history.length - 1];
  const wentOut = last ? `${escapeHtml(seatName(last.seat))} went out` : "a player went out";
  const reasons = { out: wentOut, blocked: "nobody could play", scoreless: "three rounds without a score" };
  const order = state.seats.map((s) => s.seat).sort((a, b) => end.scores[b] - end.scores[a]);
  const penalty = (n) => (n ? `−${n}` : "0");
  const rows = order.map((s) => `<tr><td>${escapeHtml(seatName(s))}${end.winners.includes(s) ? ' <span class="badge winner">winner</span>' : ""}</td>`
    + `<td class=num>${state.seats[s].score}</td><td class=num>${penalty(end.penalties[s])}</td>`
    + `<td class=num><b>${end.scores[s]}</b></td></tr>`).join("");
  box.innerHTML = `<h2>Final standings</h2><p>The game ended: ${reasons[end.reason] || end.reason}.</p>`
    + `<table class="scores" id="standings"><tr><th>Player</th><th class=num>Score</th><th class=num>Penalty</th><th class=num>Final</th></tr>${rows}</table>`
    + `<p><a id="record-link" href="/api/games/${state.id}/record" download>Download the game record</a></p>`;
  renderNextGame(box, state.id, state.you);
}

// A game ended by a resignation, on time, or with overtime penalties: the result's order.
function renderResult(box, seatName) {
  const r = state.result;
  box.hidden = false;
  const fined = r.time_penalties.some(Boolean); // an overtime column only when it took points
  const rows = r.order.map((s) => `<tr><td>${escapeHtml(seatName(s))}${r.winners.includes(s) ? ' <span class="badge winner">winner</span>' : ""}`
    + `${r.losers.includes(s) ? ` <span class="badge">${r.reason === "resigned" ? "resigned" : r.reason === "time" ? "out of time" : "lost"}</span>` : ""}</td>`
    + (fined ? `<td class=num>${r.time_penalties[s] ? `−${r.time_penalties[s]}` : "0"}</td>` : "")
    + `<td class=num><b>${r.scores[s]}</b></td></tr>`).join("");
  box.innerHTML = '<h2>Final standings</h2><p id="result-text"></p>'
    + `<table class="scores" id="standings"><tr><th>Player</th>${fined ? "<th class=num>Overtime</th>" : ""}<th class=num>Score</th></tr>${rows}</table>`
    + `<p><a id="record-link" href="/api/games/${state.id}/record" download>Download the game record</a></p>`;
  $("result-text").textContent = resultText(state, seatName);
  renderNextGame(box, state.id, state.you);
}

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

// ----- start ---------------------------------------------------------------------
// Each game has its own page module; the spectator's view says which game this is.
const PAGES = { classic: () => import("../cribbage/table.js") };

async function openGame() {
  let kind = "kings";
  try { kind = (await request("GET", `/api/games/${gameId}`)).game || "kings"; } catch { /* the page shows the error */ }
  if (PAGES[kind]) {
    const page = await PAGES[kind]();
    page.start(gameId, params.get("watch") ? null : saved.token(gameId));
  } else {
    showGame();
  }
}

if (params.get("replay")) {
  import("../kings/replay.js").then((m) => m.startReplay(params.get("replay"),
    params.has("turn") ? Number(params.get("turn")) : undefined));
} else if (!gameId) showLobby();
else if (params.get("invite") && !saved.token(gameId)) showJoin(params.get("invite"));
else openGame();
