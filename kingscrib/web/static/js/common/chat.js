// The chat of a game: the players' room for a seat, the spectators' room for anyone else.
// Every text goes in with textContent (never innerHTML): a message is shown as typed.
// Muting hides a sender for this reader only: an account's mutes are kept on the server,
// a guest's in this browser. Its own websocket, apart from the game's.

const params = new URLSearchParams(location.search);
const gameId = params.get("game");
const MAX = 300;
const GUEST_MUTES = "kingscrib:chat-muted";

let account = null; // { name, csrf } when logged in
let muted = new Set();
let you = null;
let socket = null;
let delay = 500;

const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
};

// A guest seat's key names a seat of one game; an account's names the account.
const muteKey = (sender) => (sender.startsWith("g") ? `${gameId}/${sender}` : sender);

async function loadMutes() {
  try {
    const me = await fetch("/api/account").then((r) => r.json());
    account = me.name ? me : null;
  } catch { account = null; }
  muted = new Set(JSON.parse(localStorage.getItem(GUEST_MUTES) || "[]"));
  if (account) {
    const found = await fetch("/api/account/chat-mutes").then((r) => r.json()).catch(() => ({ muted: [] }));
    for (const key of found.muted || []) muted.add(key);
  }
}

async function setMuted(sender, on) {
  const key = muteKey(sender);
  if (on) muted.add(key); else muted.delete(key);
  if (account && sender.startsWith("a")) { // an account muted by an account: on the server
    await fetch("/api/account/chat-mutes", {
      method: "PUT", headers: { "Content-Type": "application/json", "X-CSRF-Token": account.csrf },
      body: JSON.stringify({ sender, muted: on }),
    });
  } else { // a guest's seat (one game's), or any mute of a guest: in this browser
    const kept = new Set(JSON.parse(localStorage.getItem(GUEST_MUTES) || "[]"));
    if (on) kept.add(key); else kept.delete(key);
    localStorage.setItem(GUEST_MUTES, JSON.stringify([...kept]));
  }
}

function build(side) {
  const box = el("section", { className: "chat", id: "chat" });
  box.setAttribute("aria-labelledby", "chat-title");
  const title = el("h2", { id: "chat-title", textContent: "Chat" });
  const log = el("ol", { className: "chat-log", id: "chat-log" });
  log.setAttribute("aria-live", "polite");
  const input = el("input", { id: "chat-text", maxLength: MAX, autocomplete: "off" });
  input.setAttribute("aria-label", "your message");
  const form = el("form", { className: "chat-form", id: "chat-form", hidden: true }, input,
    el("button", { type: "submit", textContent: "Send" }));
  const note = el("p", { className: "note", id: "chat-note" });
  const message = el("p", { className: "message", id: "chat-message" });
  message.setAttribute("role", "alert");
  const unmute = el("button", { type: "button", id: "chat-unmute", className: "link", hidden: true });
  unmute.onclick = async () => {
    for (const key of [...muted]) await setMuted(key.includes("/") ? key.split("/")[1] : key, false);
    redraw();
  };
  box.append(title, log, form, note, unmute, message);
  side.append(box);
  form.onsubmit = (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text || !socket || socket.readyState !== WebSocket.OPEN) return;
    // The text stays in the box until the server takes it (a refused one, e.g. for
    // sending too fast, can be sent again); an old refusal goes with this new try.
    sending = { text, ref: Date.now() };
    message.textContent = "";
    socket.send(JSON.stringify({ type: "say", text, ref: sending.ref }));
  };
  return box;
}

let messages = [];
let sending = null; // the text last sent, until the server answers { text, ref }

function line(m) {
  const li = el("li", { className: "chat-line" });
  li.dataset.id = m.id;
  li.dataset.sender = m.sender;
  const at = new Date(m.at * 1000);
  li.append(el("time", { textContent: at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) }), " ",
    el("b", { className: "chat-name", textContent: m.name }), " ",
    el("span", { className: "chat-words", textContent: m.text }));
  if (m.sender !== you) {
    const mute = el("button", { type: "button", className: "chat-mute link", textContent: "Mute" });
    mute.setAttribute("aria-label", `mute ${m.name}`);
    mute.onclick = async () => { await setMuted(m.sender, true); redraw(); };
    const report = el("button", { type: "button", className: "chat-report link", textContent: "Report" });
    report.setAttribute("aria-label", `report this message of ${m.name}`);
    report.onclick = () => reportMessage(m, report);
    li.append(" ", mute, " ", report);
  }
  return li;
}

async function reportMessage(m, button) {
  const headers = { "Content-Type": "application/json" };
  if (account) headers["X-CSRF-Token"] = account.csrf;
  else if (token()) headers.Authorization = `Bearer ${token()}`;
  const r = await fetch(`/api/chat/${m.id}/report`, { method: "POST", headers });
  const data = await r.json().catch(() => ({}));
  button.disabled = true;
  button.textContent = r.ok ? "Reported" : data.error || "not reported";
}

function redraw() {
  const log = document.getElementById("chat-log");
  if (!log) return;
  const shown = messages.filter((m) => !muted.has(muteKey(m.sender)));
  log.replaceChildren(...shown.map(line));
  log.scrollTop = log.scrollHeight;
  const unmute = document.getElementById("chat-unmute");
  unmute.hidden = muted.size === 0;
  unmute.textContent = `Unmute everyone (${muted.size} muted)`;
}

const token = () => (params.get("watch") ? null : localStorage.getItem(`kingscrib:token:${gameId}`));

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/api/games/${gameId}/chat/ws`);
  socket.onopen = () => { delay = 500; socket.send(JSON.stringify({ type: "hello", token: token() || undefined })); };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => { setTimeout(connect, delay); delay = Math.min(delay * 2, 8000); };
}

function receive(data) {
  const say = (text) => { document.getElementById("chat-message").textContent = text; };
  if (data.type === "chat_welcome") {
    you = data.you;
    messages = data.messages;
    document.getElementById("chat-title").textContent = data.room === "players" ? "Chat with the players" : "Spectators' chat";
    document.getElementById("chat-form").hidden = !data.can_write;
    const note = document.getElementById("chat-note");
    // A game of computers only (players false) has no players to keep apart from.
    note.textContent = !data.can_write ? "Log in on the start page to write here; guests may read."
      : data.room === "players" ? "Only the players read this chat."
        : data.players ? "Only spectators read this chat; the players do not see it."
          : "Every seat is a computer's: this chat is the spectators'.";
    redraw();
  } else if (data.type === "chat") {
    messages.push(data.message);
    if (messages.length > 200) messages.shift();
    redraw(); // another's message leaves a refusal of yours on screen
  } else if (data.type === "ok") {
    // Taken: the box empties, unless something else has been typed since.
    const input = document.getElementById("chat-text");
    if (sending && data.ref === sending.ref && input.value.trim() === sending.text) input.value = "";
    sending = null;
  } else if (data.type === "chat_hidden") {
    messages = messages.filter((m) => m.id !== data.id);
    redraw();
  } else if (data.type === "error") {
    sending = null;
    say(data.error);
  }
}

async function start(side) {
  build(side);
  await loadMutes();
  connect();
}

// The chat joins the game's side panel once the game (either kind) is on screen.
if (gameId && !params.get("replay")) {
  const sections = ["game", "cribbage"].map((id) => document.getElementById(id));
  let started = false;
  const look = () => {
    const shown = sections.find((s) => s && !s.hidden);
    if (started || !shown) return;
    started = true;
    start(shown.querySelector("aside.side") || shown);
  };
  const watcher = new MutationObserver(look);
  for (const s of sections) if (s) watcher.observe(s, { attributes: true, attributeFilter: ["hidden"] });
  look();
}
