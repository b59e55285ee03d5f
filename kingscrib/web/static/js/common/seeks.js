// The lobby on the start page: open seeks (accept with one click), Play now and its grid
// of game and clock, a seek or a challenge of one's own, live games and people online,
// all live (/api/lobby/live).

import { request, saved } from "./api.js";
import { drawLiveGames } from "./livegames.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const NAME_KEY = "kingscrib:name";
const TITLES = { kings: "Kings Cribbage", cribbage: "Cribbage" };

// This browser's visitor secret: its seeks are its own, and stay while it is connected.
function visitor() {
  let secret = localStorage.getItem("kingscrib:visitor");
  if (!secret) {
    const bytes = crypto.getRandomValues(new Uint8Array(24));
    secret = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem("kingscrib:visitor", secret);
  }
  return secret;
}
const ticketKey = (id) => `kingscrib:seek:${id}`;
let me = { name: null, csrf: null };
let seeks = new Map();
let quick = []; // how many wait for Play now, by game, players and clock

async function lobbyCall(method, path, body) {
  await whoAmI(); // logged in or out in the account panel since: the right name and token
  const headers = { "Content-Type": "application/json", "X-Lobby-Visitor": visitor() };
  if (me.csrf) headers["X-CSRF-Token"] = me.csrf;
  const response = await fetch(`/api/lobby${path}`, { method, headers, body: JSON.stringify(body || {}) });
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(data.error || `error ${response.status}`);
  return data;
}

function say(text, kind = "") {
  const box = $("meet-message");
  box.textContent = text;
  box.className = `message ${kind}`;
}

const typedName = () => {
  const name = $("meet-name").value.trim();
  if (name) localStorage.setItem(NAME_KEY, name);
  return name || undefined;
};

function enterGame(gameId, ticket) {
  saved.setToken(gameId, ticket);
  location.href = `/?game=${gameId}`;
}

// An answer of accept / Play now / a new seek: into the game, or wait with a ticket.
function took(answer) {
  if (answer.game_id) return enterGame(answer.game_id, answer.ticket);
  localStorage.setItem(ticketKey(answer.seek.id), answer.ticket);
  seeks.set(answer.seek.id, answer.seek);
  renderSeeks();
  say("Waiting for an opponent: the game starts as soon as the seats are taken.", "info");
}

function clockText(seek) {
  return seek.clock_seconds ? `${Math.round(seek.clock_seconds / 60)} min` : "no clock";
}

function rulesText(seek) {
  const on = Object.entries(seek.rules).filter(([k, v]) => v === true && k !== "players").map(([k]) => k.replace(/_/g, " "));
  if (seek.rules.exchange === "when-stuck") on.push("exchange when stuck");
  return on.join(", ");
}

// A list item's parts: a span of text, and a button that stays disabled while it works.
function span(className, text) {
  const element = document.createElement("span");
  element.className = className;
  element.textContent = text;
  return element;
}

function actionButton(label, onClick, className = "") {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  b.className = className;
  b.onclick = async () => {
    b.disabled = true;
    try { await onClick(); } catch (error) { say(error.message, "error"); b.disabled = false; }
  };
  return b;
}

function seekItem(seek) {
  const li = document.createElement("li");
  li.dataset.seek = seek.id;
  const mine = localStorage.getItem(ticketKey(seek.id));
  const forMe = seek.challenge && me.name && seek.challenge.toLowerCase() === me.name.toLowerCase() && !mine;
  if (seek.challenge) li.className = "challenge";
  const what = span("what", `${TITLES[seek.game] || seek.game} · ${seek.players} players · ${clockText(seek)} · ${seek.rated ? "rated" : "casual"}`);
  const who = span("who", seek.seats.map((s) => s.name + (s.account ? " ✓" : "")).join(", ")
    + (seek.players > seek.seats.length ? ` (+${seek.players - seek.seats.length} open)` : "")
    + (seek.challenge ? ` → challenges ${seek.challenge}` : ""));
  const range = seek.rating_min != null || seek.rating_max != null
    ? `rating ${seek.rating_min ?? "any"}–${seek.rating_max ?? "any"}` : "";
  const terms = span("terms", [rulesText(seek), range].filter(Boolean).join(" · "));
  const buttons = span("buttons", "");
  if (mine) {
    buttons.append(actionButton("Cancel", async () => {
      await lobbyCall("DELETE", `/seeks/${seek.id}`, { ticket: localStorage.getItem(ticketKey(seek.id)) });
      localStorage.removeItem(ticketKey(seek.id));
      seeks.delete(seek.id);
      renderSeeks();
      say("");
    }));
  } else {
    buttons.append(actionButton(forMe ? "Accept the challenge" : "Accept", async () =>
      took(await lobbyCall("POST", `/seeks/${seek.id}/accept`, { name: typedName() })), "primary accept"));
    if (forMe) {
      buttons.append(actionButton("Decline", async () => {
        await lobbyCall("DELETE", `/seeks/${seek.id}`, {});
        seeks.delete(seek.id);
        renderSeeks();
      }));
    }
  }
  li.append(what, who, terms, buttons);
  return li;
}

// Play now's waiting players (not this browser's own): one click pairs with them.
function quickItems() {
  const own = [...seeks.values()].filter((s) => s.quick && localStorage.getItem(ticketKey(s.id)));
  return quick.map((q) => {
    const mine = own.filter((s) => s.game === q.game && s.players === q.players
      && (s.clock_seconds ?? null) === (q.clock_seconds ?? null)).length;
    return { ...q, waiting: q.waiting - mine };
  }).filter((q) => q.waiting > 0).map((q) => {
    const li = document.createElement("li");
    li.className = "quick";
    const buttons = span("buttons", "");
    buttons.append(actionButton("Play now", async () => took(await lobbyCall("POST", "/play-now", {
      name: typedName(), game: q.game, players: q.players, clock_seconds: q.clock_seconds ?? undefined,
    })), "primary accept"));
    li.append(span("what", `${TITLES[q.game] || q.game} · ${q.players} players · ${clockText(q)} · casual`),
      span("who", `${q.waiting} waiting for Play now`), buttons);
    return li;
  });
}

// The quick-pairing grid: each game and clock, with how many others wait for it (two
// players, casual); one click is Play now for that game and clock.
const sameClock = (a, b) => (a ?? null) === (b ?? null);
function renderGrid() {
  const own = [...seeks.values()].filter((s) => s.quick && localStorage.getItem(ticketKey(s.id)));
  for (const button of document.querySelectorAll("#quick-grid .pair")) {
    const game = button.dataset.game;
    const clock = button.dataset.clock ? Number(button.dataset.clock) : null;
    const fits = (s) => s.game === game && s.players === 2 && sameClock(s.clock_seconds, clock);
    const mine = own.filter(fits).length;
    const others = quick.filter(fits).reduce((n, q) => n + q.waiting, 0) - mine;
    const note = button.querySelector(".pair-wait");
    note.dataset.waiting = String(Math.max(others, 0));
    note.textContent = mine ? "you are waiting" : others > 0 ? `${others} waiting` : "\u00a0";
    button.classList.toggle("waiting", others > 0);
    button.classList.toggle("mine", mine > 0);
  }
}

function playNowBody(game, clock) {
  return { name: typedName(), game, clock_seconds: clock || undefined };
}

function renderSeeks() {
  renderGrid();
  const list = $("seeks");
  const waiting = quickItems();
  list.replaceChildren(...waiting, ...[...seeks.values()].map(seekItem));
  if (!seeks.size && !waiting.length) {
    const li = document.createElement("li");
    li.className = "none";
    li.textContent = "Nobody is waiting: post a seek or press Play now.";
    list.append(li);
  }
  list.dataset.count = seeks.size;
}

function renderWatch(games) {
  drawLiveGames($("watch"), games);
}

function onMessage(message) {
  if (message.type === "lobby") {
    seeks = new Map(message.seeks.map((s) => [s.id, s]));
    quick = message.quick || [];
    renderSeeks();
    renderWatch(message.games);
    $("online").textContent = `${message.online} online`;
  } else if (message.type === "seek") {
    seeks.set(message.seek.id, message.seek);
    renderSeeks();
  } else if (message.type === "gone") {
    if (localStorage.getItem(ticketKey(message.id))) {
      localStorage.removeItem(ticketKey(message.id));
      if (message.reason === "declined") say("Your challenge was declined.", "info");
    }
    seeks.delete(message.id);
    renderSeeks();
  } else if (message.type === "started") {
    const ticket = localStorage.getItem(ticketKey(message.id));
    seeks.delete(message.id);
    renderSeeks();
    if (ticket) {
      localStorage.removeItem(ticketKey(message.id));
      enterGame(message.game_id, ticket);
    }
  } else if (message.type === "quick") {
    quick = message.quick;
    renderSeeks();
  } else if (message.type === "games") {
    renderWatch(message.games);
  } else if (message.type === "online") {
    $("online").textContent = `${message.count} online`;
  }
}

// The header's live status follows the lobby's connection while no table is open (a
// table's own connection sets it then).
function lobbyLive(online) {
  if (document.querySelector("#game:not([hidden]), #cribbage:not([hidden])")) return;
  $("connection").className = `connection ${online ? "online" : "offline"}`;
}

function connect(delay = 500) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/api/lobby/live`);
  ws.onopen = () => { delay = 500; lobbyLive(true); ws.send(JSON.stringify({ type: "hello", visitor: visitor() })); };
  ws.onmessage = (event) => {
    const data = JSON.parse(event.data);  // one message, or several waiting sent at once
    for (const message of Array.isArray(data) ? data : [data]) onMessage(message);
  };
  ws.onclose = () => {
    lobbyLive(false);
    setTimeout(() => connect(Math.min(delay * 2, 10000)), delay);
  };
}

function seekBody() {
  const game = $("quick-game").value;
  const box = (id, name) => document.querySelector(`#${id} [name=${name}]`).checked;
  const rules = game === "cribbage"
    ? { muggins: box("seek-cribbage-rules", "muggins"), skunk: box("seek-cribbage-rules", "skunk") }
    : { reduced_first_bonus: box("seek-kings-rules", "reduced_first_bonus"),
        exchange: box("seek-kings-rules", "when_stuck") ? "when-stuck" : "anytime",
        joker: box("seek-kings-rules", "joker"), servant: box("seek-kings-rules", "servant") };
  const number = (id) => ($(id).value === "" ? undefined : Number($(id).value));
  return {
    name: typedName(), game, players: Number($("seek-players").value), rules,
    clock_seconds: number("quick-clock"), rated: $("seek-rated").checked,
    rating_min: number("seek-min"), rating_max: number("seek-max"),
    challenge: $("seek-challenge").value.trim() || undefined,
  };
}

async function whoAmI() {
  try { me = await request("GET", "/api/account"); } catch { me = { name: null, csrf: null }; }
  $("meet-name").disabled = Boolean(me.name);
  if (me.name) $("meet-name").value = me.name;
}

async function start() {
  $("meet-name").value = localStorage.getItem(NAME_KEY) || "";
  await whoAmI();
  const syncGame = () => {
    const cribbage = $("quick-game").value === "cribbage";
    $("seek-kings-rules").hidden = cribbage;
    $("seek-cribbage-rules").hidden = !cribbage;
  };
  $("quick-game").addEventListener("change", syncGame);
  syncGame();
  $("show-seek").onclick = () => {
    const open = $("seek-form").hidden;
    $("seek-form").hidden = !open;
    $("show-seek").setAttribute("aria-expanded", String(open));
  };
  $("seek-form").onsubmit = async (event) => {
    event.preventDefault();
    try { took(await lobbyCall("POST", "/seeks", seekBody())); $("seek-form").hidden = true; } catch (error) { say(error.message, "error"); }
  };
  $("play-now").onclick = async () => {
    try {
      took(await lobbyCall("POST", "/play-now", playNowBody($("quick-game").value, Number($("quick-clock").value))));
    } catch (error) { say(error.message, "error"); }
  };
  for (const button of document.querySelectorAll("#quick-grid .pair")) {
    button.onclick = async () => {
      button.disabled = true;
      try {
        took(await lobbyCall("POST", "/play-now", playNowBody(button.dataset.game, Number(button.dataset.clock))));
      } catch (error) { say(error.message, "error"); }
      button.disabled = false;
    };
  }
  // One click: you against the computer at its default level, the game chosen above.
  $("play-computer").onclick = async () => {
    try {
      const meta = await request("GET", "/api/levels");
      const game = $("quick-game").value;
      // the gentle level the form also preselects (kingscrib/level_names.py): a newcomer's
      // first opponent should not be the strongest
      const level = meta.gentle?.[game] || meta.games?.[game]?.default_level || "greedy";
      const created = await request("POST", "/api/games", {
        game, seats: [{ kind: "human", name: typedName() }, { kind: "computer", level }],
      });
      saved.setInvite(created.game_id, created.invite);
      enterGame(created.game_id, created.token);
    } catch (error) { say(error.message, "error"); }
  };
  connect();
  $("meet").dataset.ready = "1";
}

if (!params.get("game") && !params.get("replay")) start();
