// The Cribbage table: the cut, the discard, the play, the show, the board.
// The server sends this seat's whole view on every change ({"type": "state"}).

import { GameSocket } from "../common/api.js";
import { renderInvites as renderInviteBox } from "../common/invites.js";
import { renderClocks, renderResign, resultText } from "../common/clocks.js";
import { renderNextGame } from "../common/nextgame.js";
import { markRated, renderRatingChanges } from "../common/ratingchange.js";
import { draggable, targetAt } from "../common/drag.js";
import { bindSoundToggle, notifyTurn, playSound } from "../common/notify.js";
import { backElement, byRank, cardElement, pretty, pointsOf } from "./cards.js";
import { SIDE_COLOURS, drawCribbageBoard } from "./cribboard.js";
import { glide, snapshot } from "../common/motion.js";
import { filled } from "../common/layout.js";

// What glides from one render to the next: a card (hand to table, table to show) and a peg.
const CARDS = [".card[data-card]", (el) => el.dataset.card];
const PEGS = [".cribboard .peg", (el) => `${el.parentElement.dataset.side}:${el.classList.contains("front") ? "front" : "back"}`];

const $ = (id) => document.getElementById(id);
let state = null;
let socket = null;
let chosen = new Set(); // cards picked to lay away
let busy = false;
let token = null; // this page's seat token (null: a spectator)
let still = false; // a replay's table: no seat, no connection, no invites or next game
let told = null; // over-claims of this seat already told, by deal:index (null: none seen yet)
let hinted = null; // { version, cards } of the hint asked for at this version

// The table as it was at one step of a replay (js/cribbage/replay.js): a spectator's view.
export function showStill(view) {
  still = true;
  state = { you: null, can: { discard: 0, play: [], go: false, claim: false }, version: 0, ...view };
  $("cribbage").hidden = false;
  $("c-replay-link").parentElement.hidden = true;
  render();
}

export function start(gameId, seatToken) {
  token = seatToken;
  document.title = "Cribbage";
  $("cribbage").hidden = false;
  $("c-replay-link").href = `/?replay=${gameId}`;
  // The board and the scores go to the side column, so the table and the hand have the
  // height of the window (a replay keeps them above its table).
  document.querySelector("#cribbage > .side").prepend(document.querySelector("#cribbage .c-scoreboard"));
  if (token) bindSoundToggle($("sound"));
  socket = new GameSocket(gameId, token, {
    onState: (next) => {
      if (!state || next.phase !== state.phase || next.deal !== state.deal) chosen.clear();
      // Resigned or out of time: the deal stops where it stood and nothing can be done.
      if (next.result) {
        next.over = true;
        next.waiting = [];
        if (next.can) next.can = { discard: 0, play: [], go: false, claim: false };
      }
      const before = state;
      state = next;
      tellOverclaims();
      render();
      soundFor(before, next);
    },
    onStatus: (online) => { $("connection").className = `connection ${online ? "online" : "offline"}`; },
    onError: showMessage,
  });
  $("c-discard").onclick = () => {
    if (chosen.size !== state.can.discard) return;
    act({ action: "discard", cards: [...chosen] });
  };
  $("c-go").onclick = () => act({ action: "go" });
  $("c-hint").onclick = askHint;
  $("c-claim-send").onclick = () => {
    const points = Number($("c-claim").value);
    if ($("c-claim").value === "" || Number.isNaN(points)) { showMessage("Enter the points you count"); return; }
    act({ action: "claim", points });
  };
}

// Where a dragged card may go: the play while laying cards, the crib while laying away.
function dropZone(x, y) {
  if (state?.can?.play.length) return targetAt(x, y, "#c-play");
  if (state?.can?.discard) return targetAt(x, y, ".c-crib-pile");
  return null;
}

function markZone(zone) {
  for (const el of document.querySelectorAll("#c-play, .c-crib-pile")) el.classList.toggle("drop", el === zone);
}

// A card let go on the crib joins the cards to lay away; once there are enough, they go.
function dropCard(card, x, y) {
  const zone = dropZone(x, y);
  if (!zone) return;
  if (zone.id === "c-play") { playCard(card); return; }
  chosen.add(card);
  if (chosen.size > state.can.discard) chosen = new Set([...chosen].slice(-state.can.discard));
  if (chosen.size === state.can.discard) act({ action: "discard", cards: [...chosen] });
  else render();
}

async function act(body) {
  if (busy) return;
  busy = true;
  showMessage("");
  try {
    await socket.call("action", body);
    chosen.clear();
  } catch (error) {
    showMessage(error.message);
  } finally {
    busy = false;
    render();
  }
}

function playCard(card) {
  if (!state.can.play.includes(card)) {
    const count = state.count + pointsOf(card);
    showMessage(count > 31 ? `${pretty(card)} would take the count to ${count}, past 31` : "Not your turn to play");
    return;
  }
  act({ action: "play", card });
}

function clickCard(card) {
  if (!state || state.you === null) return;
  if (state.can.discard) {
    if (chosen.has(card)) chosen.delete(card);
    else if (chosen.size < state.can.discard) chosen.add(card);
    render();
  } else if (state.phase === "play") {
    playCard(card);
  }
}

function showMessage(text) {
  $("c-message").textContent = text;
  filled($("cribbage")); // a message before the first state (no such game) is seen at once
}

// An over-claim, corrected once the claim is made: "You claimed 14; the hand is worth 12:
// 2 go to Bob" (the names as this seat reads them).
function overclaimText(entry) {
  const who = entry.seat === state.you ? "You" : nameOf(entry.seat);
  const to = entry.overclaim.seat === state.you ? "you" : nameOf(entry.overclaim.seat);
  const n = entry.overclaim.points;
  return `${who} claimed ${entry.claimed}; the ${entry.kind} is worth ${entry.score}: ${n} go${n === 1 ? "es" : ""} to ${to}`;
}

// Tell this seat of its own over-claim once, when it is made (not on loading the page).
function tellOverclaims() {
  const found = [];
  for (const [deal, show] of [[state.deal, state.show], [state.deal - 1, state.previous?.show]]) {
    (show || []).forEach((e, i) => {
      if (e.overclaim && e.seat === state.you && state.you !== null) found.push([`${deal}:${i}`, e]);
    });
  }
  const first = told === null;
  told ??= new Set();
  for (const [key, entry] of found) {
    if (told.has(key)) continue;
    told.add(key);
    if (!first) showMessage(overclaimText(entry));
  }
}

// The sound set (off unless the player turns it on): a card laid, points, the end.
function soundFor(before, next) {
  if (!before) return;
  if (next.over && !before.over) { playSound("end"); return; }
  const fresh = before.deal === next.deal ? next.calls.slice(before.calls.length) : [];
  if (fresh.some((c) => c.points > 0)) playSound("score");
  else if (fresh.some((c) => c.card)) playSound("lay");
}

// A hint is an aid the player asks for: the coach's advice (two players) or the expert's
// choice, for this seat's own discard or card; its cards are marked in the hand.
async function askHint() {
  const box = $("c-hint-box");
  const version = state.version;
  box.hidden = false;
  box.textContent = "Thinking…";
  try {
    const { hint } = await socket.call("hint");
    if (state.version !== version) return;
    hinted = { version, cards: hint.cards };
    box.replaceChildren();
    const head = document.createElement("p");
    const by = hint.by === "coach" ? "the coach" : hint.by === "expert" ? "the expert computer" : "the rules";
    head.innerHTML = "<b>Hint</b> (you asked; from " + by + "): ";
    head.append(hint.advice);
    box.append(head);
    for (const line of hint.lines) {
      const p = document.createElement("p");
      p.className = "detail";
      p.textContent = line;
      box.append(p);
    }
  } catch (error) { box.textContent = error.message; }
  render();
}

const nameOf = (seat) => state.seats[seat]?.name ?? `Seat ${seat + 1}`;
const sideOf = (seat) => seat % state.sides.length;
const possessive = (seat) => (seat === state.you ? "your" : `${nameOf(seat)}'s`);

function render() {
  if (!state) return;
  const table = $("cribbage");
  const cardsWere = snapshot(table, ...CARDS);
  const pegsWere = snapshot(table, ...PEGS);
  draw();
  filled(table); // drawn: shown from the first state on, so nothing moves under it
  glide(table, ...CARDS, cardsWere);
  glide(table, ...PEGS, pegsWere);
}

function draw() {
  const wasLooking = $("cribbage").dataset.looking; // what was last brought into view
  const wasOver = !$("c-end").hidden;
  $("cribbage").dataset.version = state.version;
  $("cribbage").dataset.phase = state.phase;
  renderSeats();
  renderTable();
  renderHand();
  renderBanner();
  renderCalls();
  renderShow();
  renderBoard();
  renderInvites();
  renderEnd();
  renderClocks($("c-clocks"), state, nameOf);
  renderResign($("c-resign-box"), state, token);
  // What has just become the thing to look at is brought into view, once: the hand
  // counted last while this seat counts its own, the table from the top when a deal's
  // play or discard begins, the end box.
  if (still) return;
  const looking = state.can?.claim ? `claim ${state.deal} ${state.show.length}` : `${state.phase} ${state.deal}`;
  $("cribbage").dataset.looking = looking;
  if (looking !== wasLooking) {
    if (state.can?.claim) revealAboveHand([...$("c-show").querySelectorAll(".show-hand:not(.waiting)")].pop());
    else if (state.phase !== "show" && wasLooking !== undefined) window.scrollTo({ top: 0 });
  }
  if (!$("c-end").hidden && !wasOver) $("c-end").scrollIntoView({ block: "nearest" });
}

// Scroll so that `el` shows whole above the hand, which is pinned to the window's bottom.
function revealAboveHand(el) {
  if (!el) return;
  const box = el.getBoundingClientRect();
  const hand = $("c-hand-area").getBoundingClientRect();
  const room = hand.top - 8;
  if (box.bottom > room) window.scrollBy(0, Math.min(box.bottom - room, box.top - 8));
}

function renderSeats() {
  const box = $("c-seats");
  box.replaceChildren();
  for (const seat of state.seats) {
    const div = document.createElement("div");
    div.className = "c-seat";
    div.dataset.seat = seat.seat;
    if (state.waiting.includes(seat.seat) && !state.over) div.classList.add("to-act");
    const dot = still ? "" : `<span class="dot${seat.kind === "computer" || seat.online ? " on" : ""}"></span>`;
    const team = '<span class="team"></span>'; // coloured below: the CSP forbids style attributes
    const badges = [];
    if (seat.seat === state.you) badges.push("you");
    if (seat.seat === state.dealer) badges.push("dealer · crib");
    // (a computer is named after its level: "Computer (Casual)" needs no badge saying it)
    const level = seat.level_title || seat.level;
    if (seat.kind === "computer" && level && !seat.name.includes(level)) badges.push(level);
    div.innerHTML = `<span class="side-score" title="score"></span>${team}${dot}<b></b> ${badges.map((b) => `<span class="badge">${b}</span>`).join("")}`;
    div.querySelector("b").textContent = seat.name;
    div.querySelector(".side-score").textContent = state.sides[sideOf(seat.seat)].score;
    div.querySelector(".team").style.background = SIDE_COLOURS[sideOf(seat.seat)];
    const backs = document.createElement("div");
    backs.className = "backs";
    if (state.held) { // a finished game's replay: every hand face up
      backs.classList.add("face-up");
      backs.setAttribute("role", "group");
      backs.setAttribute("aria-label", `${seat.name} holds`);
      for (const card of state.held[seat.seat]) backs.append(cardElement(card, { small: true }));
    } else if (seat.seat !== state.you) {
      for (let i = 0; i < state.cards_left[seat.seat]; i++) backs.append(backElement({ small: true }));
    }
    const status = document.createElement("div");
    status.className = "status";
    if (state.phase === "discard" && !state.over) status.textContent = state.discarded[seat.seat] ? "has laid away" : "choosing…";
    if (!seat.joined && !still) status.textContent = "waiting for someone to join";
    div.append(backs, status);
    box.append(div);
  }
}

function renderTable() {
  // The cut for deal (first deal only), the deck and starter, the crib, the play.
  const cut = $("c-cut");
  cut.replaceChildren();
  if (state.deal === 1 && state.phase === "discard") {
    const p = document.createElement("p");
    p.textContent = `Cut for deal: ${state.cut.cards.map((c, i) => `${nameOf(i)} ${pretty(c)}`).join(", ")}`
      + ` — ${nameOf(state.cut.first_dealer)} cut lowest and deals.`;
    cut.append(p);
  }
  const starter = $("c-starter");
  starter.replaceChildren(state.starter ? cardElement(state.starter) : backElement());
  $("c-starter-label").textContent = state.starter ? "Starter" : "Deck";
  const crib = $("c-crib");
  crib.replaceChildren();
  if (state.crib_cards) for (const card of state.crib_cards) crib.append(cardElement(card, { small: true }));
  else for (let i = 0; i < state.crib_size; i++) crib.append(backElement({ small: true }));
  $("c-crib-label").textContent = `${possessive(state.dealer)[0].toUpperCase()}${possessive(state.dealer).slice(1)} crib`;
  $("c-count").textContent = state.phase === "play" ? `Count: ${state.count}` : "";
  // the latest score, announced where it happens
  const last = state.calls[state.calls.length - 1];
  $("c-last-call").textContent = last && state.phase === "play" && (last.points || last.text === "go")
    ? `${nameOf(last.seat)}: ${last.text === "go" ? "Go" : last.text}` : "";
  const series = $("c-series");
  series.replaceChildren();
  const inSeries = state.series.length;
  const earlier = state.phase === "play" ? state.played.slice(0, state.played.length - inSeries) : [];
  for (const p of earlier) {
    const c = cardElement(p.card, { small: true });
    c.classList.add("old");
    series.append(c);
  }
  for (const p of state.phase === "play" ? state.series : []) {
    const wrap = document.createElement("div");
    wrap.className = "laid";
    const who = document.createElement("span");
    who.textContent = nameOf(p.seat);
    wrap.append(cardElement(p.card), who);
    series.append(wrap);
  }
}

function renderHand() {
  const area = $("c-hand-area");
  area.hidden = state.you === null;
  if (state.you === null) return;
  const hand = $("c-hand");
  hand.replaceChildren();
  if (state.can.claim) {
    // counting a hand under muggins: show it with the starter beside the claim box
    for (const card of [...state.claiming.cards].sort(byRank)) {
      const el = cardElement(card);
      el.classList.add("counting");
      hand.append(el);
    }
    const starter = cardElement(state.starter);
    starter.classList.add("starter", "counting");
    hand.append(starter);
  }
  const cards = [...state.hand].sort(byRank);
  for (const card of cards) {
    const el = cardElement(card);
    if (chosen.has(card)) el.classList.add("chosen");
    if (state.can.play.includes(card)) el.classList.add("playable");
    if (hinted?.version === state.version && hinted.cards.includes(card)) {
      el.classList.add("hinted");
      el.setAttribute("aria-description", "the hint's card");
    }
    draggable(el, {
      enabled: () => !busy && (state.can.play.includes(card) || state.can.discard > 0),
      over: (x, y) => markZone(dropZone(x, y)),
      drop: (x, y) => dropCard(card, x, y),
    });
    el.addEventListener("click", () => { clickCard(card); hand.querySelector(`[data-card="${card}"]`)?.focus(); });
    // A card in the hand is a control: focusable, pressed with Enter or Space.
    el.setAttribute("role", "button");
    el.tabIndex = 0;
    el.setAttribute("aria-pressed", String(chosen.has(card)));
    el.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); el.click(); }
    });
    hand.append(el);
  }
  const need = state.can.discard;
  $("c-discard").hidden = !need;
  $("c-discard").disabled = busy || chosen.size !== need;
  $("c-discard").textContent = need
    ? `Lay ${need === 1 ? "this card" : "these cards"} away to ${possessive(state.dealer)} crib`
    : "";
  $("c-go").hidden = !state.can.go;
  // A hint for this seat's own choice (a discard, or which card to lay).
  const choosing = Boolean(need) || state.can.play.length > 1;
  $("c-hint").hidden = !(choosing && state.hints);
  $("c-hint").disabled = busy;
  if (hinted && hinted.version !== state.version) { hinted = null; $("c-hint-box").hidden = true; }
  $("c-claim-box").hidden = !state.can.claim;
  if (state.can.claim && document.activeElement !== $("c-claim")) $("c-claim").value = "";
}

function renderBanner() {
  const banner = $("c-banner");
  let text;
  let mine = false;
  if (state.over) text = state.result ? `Game over. ${resultText(state, nameOf)}` : "Game over";
  else if (state.you !== null && state.can.discard) {
    mine = true;
    const n = state.can.discard;
    text = `Choose ${n === 1 ? "a card" : `${n} cards`} to lay away to ${possessive(state.dealer)} crib`;
  } else if (state.you !== null && state.can.go) {
    mine = true;
    text = `No card fits under 31 (count ${state.count}): say Go`;
  } else if (state.you !== null && state.can.play.length) {
    mine = true;
    text = "Your turn: play a card (click or drag it)";
  } else if (state.you !== null && state.can.claim) {
    mine = true;
    text = `Count your ${state.claiming.kind} and claim your points, once (muggins: points missed, or claimed too many, go to the next player)`;
  } else if (state.phase === "discard") {
    const waiting = state.waiting.map(nameOf).join(", ");
    text = `Laying away to ${possessive(state.dealer)} crib: waiting for ${waiting}`;
  } else if (state.turn !== null) {
    const what = state.phase === "show" ? "count" : state.must_go ? "say Go" : "play";
    text = `${nameOf(state.turn)} to ${what}`;
  } else text = "";
  banner.className = `turn-banner${mine ? " mine" : ""}`;
  banner.textContent = text;
  markRated($("c-turn-line"), Boolean(state.rated) && !state.over && !still);
  if (!still) notifyTurn(mine, "Cribbage");
}

function renderCalls() {
  const list = $("c-calls");
  list.replaceChildren();
  const calls = [...state.calls];
  if (state.starter) {
    const starter = { seat: state.dealer, points: 0, text: `turns up the starter: ${pretty(state.starter)}` };
    const heels = calls.length && calls[0].text.startsWith("his heels") ? 1 : 0;
    calls.splice(heels, 0, starter);
  }
  for (const call of calls.reverse()) {
    const li = document.createElement("li");
    let text = `${nameOf(call.seat)}`;
    if (call.card) text += ` plays ${pretty(call.card)} — ${call.count}`;
    else if (call.text === "go") text += " says Go";
    else if (call.text.startsWith("turns")) text += ` ${call.text}`;
    else text += `: ${call.text}`;
    if (call.card && call.text) text += `: ${call.text}`;
    li.textContent = text;
    if (call.points) li.classList.add("scored");
    list.append(li);
  }
}

function showBlock(entry, starter, title) {
  const div = document.createElement("div");
  div.className = "show-hand";
  div.dataset.seat = entry.seat;
  div.dataset.kind = entry.kind;
  const h = document.createElement("h3");
  h.textContent = title;
  const cards = document.createElement("div");
  cards.className = "cards";
  for (const c of [...entry.cards].sort(byRank)) cards.append(cardElement(c, { small: true }));
  const s = cardElement(starter, { small: true });
  s.classList.add("starter");
  cards.append(s);
  const said = document.createElement("p");
  said.className = "said";
  said.textContent = `“${entry.said}” — ${entry.score}`;
  const combos = document.createElement("div");
  combos.className = "combos";
  for (const combo of entry.combinations) {
    const chip = document.createElement("span");
    chip.className = `combo ${combo.kind}`;
    chip.textContent = `${combo.kind} ${combo.cards.map(pretty).join(" ")} · ${combo.points}`;
    const light = (on) => {
      for (const el of cards.children) el.classList.toggle("lit", on && combo.cards.includes(el.dataset.card));
    };
    chip.addEventListener("mouseenter", () => light(true));
    chip.addEventListener("mouseleave", () => light(false));
    combos.append(chip);
  }
  div.append(h, cards, said, combos);
  if (entry.claimed !== undefined) {
    const p = document.createElement("p");
    p.textContent = `claimed ${entry.claimed}`;
    div.append(p);
  }
  if (entry.overclaim) {
    const p = document.createElement("p");
    p.className = "muggins";
    p.textContent = overclaimText(entry);
    div.append(p);
  }
  if (entry.muggins) {
    const p = document.createElement("p");
    p.className = "muggins";
    // Written from the seat and the points: the server's sentence names the seat as the
    // record had it, and a replay's page may call it otherwise ("you").
    const { seat, points } = entry.muggins;
    p.textContent = `Muggins! ${nameOf(seat)} takes ${points} missed point${points === 1 ? "" : "s"}`;
    div.append(p);
  }
  return div;
}

function renderShow() {
  const box = $("c-show");
  box.replaceChildren();
  // This deal's show while it runs; otherwise the last deal's, until the next play begins.
  let deal = null;
  let heading = "";
  if (state.show.length || state.claiming) { deal = state; heading = "The show"; }
  else if (state.previous && state.phase === "discard") { deal = state.previous; heading = "The show of the last deal"; }
  if (!deal) { box.hidden = true; return; }
  box.hidden = false;
  const h = document.createElement("h2");
  h.textContent = heading;
  box.append(h);
  for (const entry of deal.show) {
    const title = entry.kind === "crib" ? `${possessive(entry.seat)} crib` : `${possessive(entry.seat)} hand`;
    box.append(showBlock(entry, deal.starter, title[0].toUpperCase() + title.slice(1)));
  }
  if (deal === state && state.claiming) {
    const p = document.createElement("div");
    p.className = "show-hand waiting";
    const title = `${possessive(state.claiming.seat)} ${state.claiming.kind}: counting…`;
    p.textContent = title[0].toUpperCase() + title.slice(1);
    const cards = document.createElement("div");
    cards.className = "cards";
    for (const c of [...state.claiming.cards].sort(byRank)) cards.append(cardElement(c, { small: true }));
    cards.append(cardElement(state.starter, { small: true }));
    p.append(cards);
    box.append(p);
  }
}

function renderBoard() {
  const box = $("c-board");
  // A narrow screen folds the street into four rows, so the holes stay big enough to see.
  const rows = window.matchMedia("(max-width: 600px)").matches ? 4 : 2;
  box.replaceChildren(drawCribbageBoard(state.sides, { rows }));
  const table = $("c-scores");
  table.innerHTML = "<tr><th></th><th class=num>Score</th><th class=num>Last</th></tr>";
  state.sides.forEach((side, i) => {
    const tr = document.createElement("tr");
    tr.dataset.side = i;
    const gained = side.front - side.back;
    tr.innerHTML = '<td><span class="team"></span></td>'
      + `<td class="num score">${side.score}</td><td class="num">${gained ? `+${gained}` : ""}</td>`;
    tr.querySelector(".team").style.background = SIDE_COLOURS[i];
    tr.firstChild.append(side.name + (side.seats.length > 1 ? " (team)" : ""));
    table.append(tr);
  });
}

function renderInvites() {
  $("c-invites").hidden = still;
  if (still) return;
  renderInviteBox($("c-invites"), state, false);
}

function renderEnd() {
  const box = $("c-end");
  if (state.result) {
    box.hidden = false;
    box.innerHTML = `<h2>Game over</h2><p id="c-end-text"></p>`
      + `<p><a id="record-link" href="/api/games/${state.id}/record" download>Download the game record</a></p>`;
    $("c-end-text").textContent = resultText(state, nameOf);
    if (!still) renderRatingChanges(box, state);
    renderNextGame(box, state.id, state.you);
    return;
  }
  if (!state.over || !state.end) { box.hidden = true; return; }
  box.hidden = false;
  const end = state.end;
  const winner = state.sides[end.winner];
  let text = `${winner.name} ${winner.seats.length > 1 || winner.name.includes("&") ? "win" : "wins"} ${[...end.scores].sort((a, b) => b - a).join(" – ")}.`;
  if (end.skunk) text += ` A ${end.skunk}!${end.counted ? ` (${end.game_points} games)` : ""}`;
  box.innerHTML = `<h2>Game over</h2><p id="c-end-text"></p>`
    + (state.id ? `<p><a id="record-link" href="/api/games/${state.id}/record" download>Download the game record</a></p>` : "");
  $("c-end-text").textContent = text;
  if (!still) { renderRatingChanges(box, state); renderNextGame(box, state.id, state.you); }
}
