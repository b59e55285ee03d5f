// Talking to the server: REST calls and the game's websocket (with reconnects).

export async function request(method, path, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(data.error || `error ${response.status}`);
  return data;
}

const KEY = (id, what) => `kingscrib:${what}:${id}`;
export const saved = {
  token: (id) => localStorage.getItem(KEY(id, "token")),
  setToken: (id, token) => localStorage.setItem(KEY(id, "token"), token),
  invite: (id) => localStorage.getItem(KEY(id, "invite")),
  setInvite: (id, code) => localStorage.setItem(KEY(id, "invite"), code),
  forget: (id) => { localStorage.removeItem(KEY(id, "token")); localStorage.removeItem(KEY(id, "invite")); },
};

// Cancel a game nobody came to (a seated person, before any person played), two steps:
// the button asks once more before it deletes the game.
export function cancelButton(gameId, token, onDone) {
  const button = document.createElement("button");
  button.className = "cancel-game";
  button.textContent = "Cancel this game…";
  button.onclick = async () => {
    if (!button.dataset.sure) {
      button.dataset.sure = "1";
      button.textContent = "Yes, cancel it for everyone";
      button.classList.add("warn");
      return;
    }
    try {
      await request("DELETE", `/api/games/${gameId}`, undefined, token);
      saved.forget(gameId);
      onDone();
    } catch (error) { button.textContent = error.message; button.disabled = true; }
  };
  return button;
}

// A live connection to one game. onState(state), onStatus(online), onError(message).
export class GameSocket {
  constructor(gameId, token, handlers) {
    this.gameId = gameId;
    this.token = token;
    this.handlers = handlers;
    this.pending = new Map();
    this.ref = 0;
    this.delay = 500;
    this.closed = false;
    this.connect();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/api/games/${this.gameId}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      this.state = null; // the whole state follows the hello
      ws.send(JSON.stringify({ type: "hello", token: this.token || undefined }));
      this.handlers.onStatus(true);
    };
    ws.onmessage = (event) => this.receive(JSON.parse(event.data));
    ws.onclose = () => {
      this.handlers.onStatus(false);
      for (const { reject } of this.pending.values()) reject(new Error("connection lost"));
      this.pending.clear();
      if (!this.closed) {
        setTimeout(() => this.connect(), this.delay);
        this.delay = Math.min(this.delay * 2, 8000);
      }
    };
  }

  receive(message) {
    if (message.type === "state") { this.state = message.state; this.handlers.onState(this.state); return; }
    if (message.type === "update") { this.update(message.update); return; }
    const waiting = message.ref !== undefined ? this.pending.get(message.ref) : undefined;
    if (waiting) {
      this.pending.delete(message.ref);
      if (message.type === "error") waiting.reject(new Error(message.error));
      else waiting.resolve(message);
      return;
    }
    if (message.type === "error") this.handlers.onError(message.error);
  }

  // An update holds only what changed since the previous one: the fields it names, the
  // turns from history_from on, and the squares those turns filled. A gap (an update
  // built on a version this page never saw) asks for the whole state again.
  update(u) {
    const old = this.state;
    const { base, history_from: from, history: turns, board, ...fields } = u;
    if (!old || base > old.version || from > old.history.length) {
      if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type: "sync" }));
      return;
    }
    this.state = {
      ...old, ...fields,
      history: old.history.slice(0, from).concat(turns),
      board: { ...old.board, ...board },
    };
    this.handlers.onState(this.state);
  }

  call(type, body = {}) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      return Promise.reject(new Error("not connected: reconnecting…"));
    }
    const ref = ++this.ref;
    return new Promise((resolve, reject) => {
      this.pending.set(ref, { resolve, reject });
      this.ws.send(JSON.stringify({ type, ref, ...body }));
    });
  }
}
