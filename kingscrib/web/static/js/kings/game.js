// A Kings Cribbage game on the start page: the board, the rack, the scores and the
// history, live from the game's websocket; a seated player lays tiles with the mouse, a
// finger or the keyboard (kings/laying.js), a spectator watches.

import { GameSocket } from "../common/api.js";
import { renderClocks, renderResign, resultText } from "../common/clocks.js";
import { draggable, targetAt } from "../common/drag.js";
import { renderInvites as renderInviteBox } from "../common/invites.js";
import { arrive, glide, snapshot } from "../common/motion.js";
import { renderNextGame } from "../common/nextgame.js";
import { markRated, renderRatingChanges } from "../common/ratingchange.js";
import { bindSoundToggle, notifyTurn, playSound } from "../common/notify.js";
import { filled as drawnIn } from "../common/layout.js";
import { isSixNine, tileElement } from "./board.js";
import { Laying } from "./laying.js";
import { overclaimText, placementsText, spellBreakdown, tileName, turnSpoken, turnText } from "./spoken.js";

const $ = (id) => document.getElementById(id);

// Everything this page knows of the game, in one place.
const game = {
  state: null, // the game as the server shows it to this seat
  socket: null,
  token: null, // this page's seat token (null: a spectator)
  previewSeq: 0, // the latest preview asked for (older replies are dropped)
  previewLegal: false, // the server said the placed tiles make a legal play
  busy: false, // a turn is on its way to the server
  heard: null, // history length already announced
  boardSeen: null, // squares whose tiles were already drawn
};

const seated = () => game.state !== null && game.state.you !== null; // not a spectator
const laying = new Laying({
  board: () => game.state.board,
  rack: () => game.state.rack || [],
  canPlace: seated,
  canType: () => seated() && !game.state.over,
  changed: (laid) => { render(); if (laid) refreshPreview(); },
  say: (text) => showMessage(text, "info"),
});

export function start(gameId, token) {
  $("game").hidden = false;
  if (!new URLSearchParams(location.search).get("watch")) bindSoundToggle($("sound"));
  laying.buildBoard($("board"));
  game.token = token;
  game.socket = new GameSocket(gameId, token, {
    onState: receiveState,
    onStatus: (online) => {
      $("connection").className = `connection ${online ? "online" : "offline"}`;
      $("connection").title = online ? "connected" : "connection lost: reconnecting";
      document.body.classList.toggle("offline", !online);
      if (game.state) render();
    },
    onError: showMessage,
  });
  $("commit").onclick = commit;
  $("recall").onclick = () => { laying.recall(); render(); };
  $("turn69").onclick = () => laying.turnSixNine();
  $("exchange").onclick = exchange;
  $("pass").onclick = () => act({ action: "pass" });
  $("hint").onclick = hint;
  $("joker").onclick = () => act({ action: "joker" });
  $("help-open").onclick = () => laying.toggleHelp();
  $("help-close").onclick = () => laying.toggleHelp(false);
  // The cursor's outline, arrow and note are for a seated player who uses the keyboard.
  laying.bindKeys($("game"), {
    active: () => !$("game").hidden && seated(),
    play: () => {
      if (!$("help").hidden) return;
      if (laying.exchangeMode) exchange(); else if (!$("commit").disabled) commit();
    },
    enterSquare: () => {
      if (laying.selected || laying.exchangeMode) laying.clickSquare(laying.cursor);
      else if (!$("commit").disabled) commit();
    },
    recallAll: () => {
      if (!$("help").hidden) { laying.toggleHelp(false); return; }
      if (laying.exchangeMode) { laying.exchangeMode = false; laying.marked.clear(); showMessage(""); }
      laying.recall(); render(); refreshPreview();
    },
    exchange: () => { if (!$("exchange").disabled) exchange(); },
    pass: () => { if (!$("pass").disabled) act({ action: "pass" }); },
    hint: () => { if (!$("hint").disabled) hint(); },
  });
}

// The empty square under a dragged tile is lit.
function markDrop(sq) {
  for (const el of $("board").querySelectorAll(".sq.drop")) if (el !== sq) el.classList.remove("drop");
  if (sq && !game.state?.board[sq.dataset.square]) sq.classList.add("drop");
}

function receiveState(next) {
  // Resigned or out of time ("result"): the game is over whatever the rules' own state says.
  if (next.result) { next.over = true; next.turn = null; }
  const moved = !game.state || next.version !== game.state.version;
  // A claim is this play's own: once the state records the play, the next one starts
  // empty (the full value), however the play was sent and whichever reply comes first.
  const before = game.state ? game.state.history.length : next.history.length;
  if (next.history.slice(before).some((t) => t.seat === next.you && t.action === "play")) $("claim").value = "";
  game.state = next;
  if (moved) {
    // Pending tiles stay only while their squares are still free and the rack is the same.
    for (const [square, p] of laying.pending) {
      if (game.state.board[square] || !game.state.rack || p.index >= game.state.rack.length) laying.pending.delete(square);
    }
    if (game.state.turn !== game.state.you) { laying.exchangeMode = false; laying.marked.clear(); }
    $("hint-box").hidden = true;
    announce();
  }
  render();
  if (moved) refreshPreview();
}

// Tell screen readers (a live region) what the others did, the scores and whose turn it is.
function announce() {
  const seatName = (i) => game.state.seats[i]?.name ?? `Seat ${i + 1}`;
  if (game.heard === null) { game.heard = game.state.history.length; return; }
  // Your own over-claim, corrected now that the claim is made (docs/rules.md).
  const mine = game.state.history.slice(game.heard).filter((t) => t.seat === game.state.you && t.overclaim);
  for (const t of mine) showMessage(overclaimText(t, seatName, game.state.you), "info");
  const fresh = game.state.history.slice(game.heard).filter((t) => t.seat !== game.state.you);
  game.heard = game.state.history.length;
  if (fresh.length) playSound(fresh.some((t) => t.score > 0) ? "score" : "lay");
  if (game.state.over) playSound("end");
  if (!fresh.length && !game.state.over) return;
  const words = fresh.map((t) => turnSpoken(t, seatName));
  words.push(`Scores: ${game.state.seats.map((s) => `${seatName(s.seat)} ${s.score}`).join(", ")}.`);
  if (game.state.over) words.push(game.state.result ? `The game is over. ${resultText(game.state, seatName)}` : "The game is over.");
  else words.push(game.state.turn === game.state.you ? "Your turn." : `${seatName(game.state.turn)} to play.`);
  $("announce").textContent = words.join(" ");
}

const myTurn = () => game.state && !game.state.over && game.state.you !== null && game.state.turn === game.state.you;
const rackTile = (index) => game.state.rack[index];

async function refreshPreview() {
  const box = $("preview");
  const seq = ++game.previewSeq;
  game.previewLegal = false;
  if (!laying.pending.size || game.state.you === null) {
    box.textContent = ""; box.className = "preview"; box.dataset.score = ""; render(); return;
  }
  if ($("message").className === "message") showMessage(""); // an old error no longer applies
  render();
  try {
    const reply = await game.socket.call("preview", { tiles: laying.play() });
    if (seq !== game.previewSeq) return;
    const p = reply.preview;
    game.previewLegal = p.legal;
    box.className = p.legal ? "preview" : "preview bad";
    box.dataset.score = p.legal && p.score !== undefined ? p.score : "";
    // Under the Joker rule the claim is the player's own count: never filled in for them.
    box.textContent = !p.legal ? p.error
      : p.score === undefined ? `Legal: ${spellBreakdown(p.describe)}` : `Scores ${p.score}: ${spellBreakdown(p.describe)}`;
  } catch (error) {
    if (seq === game.previewSeq) { box.className = "preview bad"; box.textContent = error.message; }
  }
  render();
}

async function act(body) {
  if (game.busy) return;
  game.busy = true;
  showMessage("");
  try {
    await game.socket.call("action", body);
    laying.recall();
    laying.faces = {};
  } catch (error) {
    showMessage(error.message);
  } finally {
    game.busy = false;
    render();
  }
}

function commit() {
  if (!laying.pending.size) return;
  const body = { action: "play", tiles: laying.play() };
  if (game.state.rules.joker && $("claim").value !== "") body.claim = Number($("claim").value);
  act(body);
}

function exchange() {
  if (!laying.exchangeMode) {
    laying.recall();
    laying.exchangeMode = true;
    laying.marked.clear();
    showMessage("Pick the tiles to exchange (click them or type their ranks), then press Exchange again.", "info");
    render();
    return;
  }
  if (!laying.marked.size) { laying.exchangeMode = false; showMessage(""); render(); return; }
  const tiles = [...laying.marked].map(rackTile);
  laying.exchangeMode = false;
  laying.marked.clear();
  act({ action: "exchange", tiles });
}

async function hint() {
  const box = $("hint-box");
  box.hidden = false;
  box.textContent = "Thinking…";
  delete box.dataset.hint;
  try {
    const { hint } = await game.socket.call("hint");
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
  drawnIn($("game")); // a message before the first state (no such game) is seen at once
}

// ----- drawing -------------------------------------------------------------------
// A rack tile glides to the square it is placed on and back; a tile another player laid
// settles onto its square (js/motion.js).
const RACK_TILES = ["#rack .tile, #board .tile.pending", (el) => el.dataset.index];

function render() {
  if (!game.state) return;
  const area = $("game");
  const tilesWere = snapshot(area, ...RACK_TILES);
  draw();
  drawnIn(area); // shown from the first state on, so nothing moves under it
  glide(area, ...RACK_TILES, tilesWere);
  const filled = Object.keys(game.state.board);
  if (game.boardSeen) {
    for (const square of filled) {
      if (!game.boardSeen.has(square) && game.state.history.at(-1)?.seat !== game.state.you) {
        arrive(laying.squares.get(square).firstChild);
      }
    }
  }
  game.boardSeen = new Set(filled);
}

function draw() {
  const seatName = (i) => game.state.seats[i]?.name ?? `Seat ${i + 1}`;
  // Board.
  const last = new Set(game.state.last_play);
  for (const [name, sq] of laying.squares) {
    sq.replaceChildren();
    sq.classList.toggle("target", !game.state.board[name] && myTurn());
    const tile = game.state.board[name];
    let label = `${name}, empty`;
    if (tile) {
      const el = tileElement(tile);
      el.setAttribute("aria-hidden", "true");
      label = `${name}, ${tileName(tile)}`;
      if (last.has(name)) { el.classList.add("last"); label += ", last play"; }
      sq.append(el);
    } else if (laying.pending.has(name)) {
      const { index } = laying.pending.get(name);
      const sixNine = isSixNine(rackTile(index));
      const el = tileElement(laying.placedFace(index), { sixNine });
      el.setAttribute("aria-hidden", "true");
      el.classList.add("pending");
      el.dataset.index = index;
      label = `${name}, ${tileName(laying.placedFace(index), { sixNine })}, placed, not yet played`;
      if (laying.selected?.kind === "board" && laying.selected.square === name) el.classList.add("selected");
      sq.append(el);
    }
    sq.setAttribute("aria-label", label);
    sq.title = label;
  }
  laying.renderCursor();
  // Rack.
  const rack = $("rack");
  rack.replaceChildren();
  const used = laying.usedIndexes();
  (game.state.rack || []).forEach((tile, index) => {
    if (used.has(index)) return;
    const face = laying.placedFace(index);
    const el = tileElement(face, { sixNine: isSixNine(tile) });
    el.dataset.index = index;
    el.dataset.held = tile;
    el.setAttribute("role", "button");
    el.tabIndex = 0;
    const chosen = laying.exchangeMode ? laying.marked.has(index) : laying.selected?.kind === "rack" && laying.selected.index === index;
    el.setAttribute("aria-pressed", String(Boolean(chosen)));
    el.setAttribute("aria-label", `${tileName(face, { sixNine: isSixNine(tile) })}${laying.exchangeMode ? ", to exchange" : ""}`);
    for (const child of el.children) child.setAttribute("aria-hidden", "true");
    if (laying.selected?.kind === "rack" && laying.selected.index === index) el.classList.add("selected");
    if (laying.marked.has(index)) el.classList.add("marked");
    el.addEventListener("click", () => { laying.clickRack(index); rack.querySelector(`[data-index="${index}"]`)?.focus(); });
    el.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); el.click(); }
    });
    draggable(el, {
      enabled: () => !laying.exchangeMode && game.state.you !== null,
      over: (x, y) => markDrop(targetAt(x, y, ".sq")),
      drop: (x, y) => laying.dropOn(index, targetAt(x, y, ".sq")?.dataset.square),
    });
    rack.append(el);
  });
  $("rack-area").hidden = game.state.you === null || game.state.over;
  // Controls: none once the game is over.
  $("kings-controls").hidden = game.state.over;
  $("rack").hidden = game.state.over;
  $("cursor-note").hidden = game.state.you === null || game.state.over;
  const mine = myTurn();
  $("commit").disabled = !mine || !laying.pending.size || game.busy || !game.previewLegal;
  $("recall").disabled = !laying.pending.size;
  const sel = laying.selectedIndex();
  $("turn69").disabled = sel === null || !isSixNine(rackTile(sel));
  $("exchange").disabled = !mine || !game.state.can_exchange;
  $("exchange").classList.toggle("on", laying.exchangeMode);
  $("exchange").textContent = laying.exchangeMode ? `Exchange ${laying.marked.size} tile${laying.marked.size === 1 ? "" : "s"}` : "Exchange…";
  $("pass").disabled = !mine;
  $("hint").disabled = game.state.over || game.state.you === null || !mine || !game.state.hints;
  $("hint").title = game.state.hints ? "" : "Hints are off in a game between people";
  $("claim-box").hidden = !game.state.rules.joker;
  const lastTurn = game.state.history[game.state.history.length - 1];
  $("joker").hidden = !(game.state.rules.joker && game.state.joker_open && game.state.you !== null
    && lastTurn && lastTurn.seat !== game.state.you);
  // Banner.
  const banner = $("turn-banner");
  banner.className = `turn-banner${mine ? " mine" : ""}`;
  notifyTurn(mine, "Kings Cribbage");
  banner.textContent = game.state.over ? (game.state.result ? `Game over. ${resultText(game.state, seatName)}` : "Game over")
    : mine && game.state.can_play === false // the server found no legal play in the rack
      ? `Your turn: no play fits your rack: ${game.state.can_exchange ? "exchange tiles or pass" : "pass"}`
    : mine ? "Your turn: place tiles, then Play"
    : `${seatName(game.state.turn)} to play${game.state.seats[game.state.turn].joined ? "" : " (waiting for them to join)"}`;
  markRated($("turn-line"), game.state.rated && !game.state.over);
  renderScores(seatName);
  renderHistory(seatName);
  renderInvites();
  renderEnd(seatName);
  renderClocks($("clocks"), game.state, seatName);
  renderResign($("resign-box"), game.state, game.token);
}

function renderScores(seatName) {
  const table = $("scores");
  table.innerHTML = "<tr><th>Player</th><th class=num>Score</th><th class=num>Tiles</th></tr>";
  for (const seat of game.state.seats) {
    const row = document.createElement("tr");
    row.dataset.seat = seat.seat;
    if (game.state.turn === seat.seat) row.className = "to-move";
    const who = document.createElement("td");
    const dot = document.createElement("span");
    const here = seat.kind === "computer" || seat.online;
    const offline = document.body.classList.contains("offline");
    dot.className = `dot${here ? " on" : ""}`;
    dot.title = offline && seat.seat !== game.state.you ? "not known while you are offline"
      : seat.kind === "computer" ? "computer" : here ? "online" : "not connected";
    dot.setAttribute("role", "img");
    dot.setAttribute("aria-label", dot.title);
    who.append(dot, seatName(seat.seat));
    const level = seat.level_title || seat.level; // the title people read (level_names)
    if (seat.kind === "computer" && !seatName(seat.seat).includes(level)) who.append(` · ${level}`);
    if (seat.seat === game.state.you) who.append(badge("you"));
    if (game.state.servant === seat.seat) who.append(badge("Servant"));
    const score = document.createElement("td");
    score.className = "num score";
    score.textContent = seat.score;
    const tiles = document.createElement("td");
    tiles.className = "num";
    tiles.textContent = seat.rack_size;
    row.append(who, score, tiles);
    table.append(row);
  }
  $("bag").textContent = `Tiles left in the bag: ${game.state.bag}`;
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
  for (const turn of game.state.history) {
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
  const nobodyPlayed = !game.state.history.some((t) => game.state.seats[t.seat]?.kind === "human");
  renderInviteBox($("invites"), game.state, nobodyPlayed);
  $("replay-link").href = `/?replay=${game.state.id}`;
}

function renderEnd(seatName) {
  const box = $("end");
  if (box.hidden && game.state.over) requestAnimationFrame(() => box.scrollIntoView({ block: "nearest" }));
  if (game.state.result) { renderResult(box, seatName); return; }
  if (!game.state.over || !game.state.end) { box.hidden = true; return; }
  box.hidden = false;
  const end = game.state.end;
  // The player who went out made the last turn: their rack emptied with it.
  const last = game.state.history[game.state.history.length - 1];
  const wentOut = last ? `${escapeHtml(seatName(last.seat))} went out` : "a player went out";
  const reasons = { out: wentOut, blocked: "nobody could play", scoreless: "three rounds without a score" };
  const order = game.state.seats.map((s) => s.seat).sort((a, b) => end.scores[b] - end.scores[a]);
  const penalty = (n) => (n ? `−${n}` : "0");
  const rows = order.map((s) => `<tr><td>${escapeHtml(seatName(s))}${end.winners.includes(s) ? ' <span class="badge winner">winner</span>' : ""}</td>`
    + `<td class=num>${game.state.seats[s].score}</td><td class=num>${penalty(end.penalties[s])}</td>`
    + `<td class=num><b>${end.scores[s]}</b></td></tr>`).join("");
  box.innerHTML = `<h2>Final standings</h2><p>The game ended: ${reasons[end.reason] || end.reason}.</p>`
    + `<table class="scores" id="standings"><tr><th>Player</th><th class=num>Score</th><th class=num>Penalty</th><th class=num>Final</th></tr>${rows}</table>`
    + `<p><a id="record-link" href="/api/games/${game.state.id}/record" download>Download the game record</a></p>`;
  renderRatingChanges(box, game.state);
  renderNextGame(box, game.state.id, game.state.you);
}

// A game ended by a resignation, on time, or with overtime penalties: the result's order.
function renderResult(box, seatName) {
  const r = game.state.result;
  box.hidden = false;
  const fined = r.time_penalties.some(Boolean); // an overtime column only when it took points
  const rows = r.order.map((s) => `<tr><td>${escapeHtml(seatName(s))}${r.winners.includes(s) ? ' <span class="badge winner">winner</span>' : ""}`
    + `${r.losers.includes(s) ? ` <span class="badge">${r.reason === "resigned" ? "resigned" : r.reason === "time" ? "out of time" : "lost"}</span>` : ""}</td>`
    + (fined ? `<td class=num>${r.time_penalties[s] ? `−${r.time_penalties[s]}` : "0"}</td>` : "")
    + `<td class=num><b>${r.scores[s]}</b></td></tr>`).join("");
  box.innerHTML = '<h2>Final standings</h2><p id="result-text"></p>'
    + `<table class="scores" id="standings"><tr><th>Player</th>${fined ? "<th class=num>Overtime</th>" : ""}<th class=num>Score</th></tr>${rows}</table>`
    + `<p><a id="record-link" href="/api/games/${game.state.id}/record" download>Download the game record</a></p>`;
  $("result-text").textContent = resultText(game.state, seatName);
  renderRatingChanges(box, game.state);
  renderNextGame(box, game.state.id, game.state.you);
}

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}
