// "Your games": every game this browser holds a seat in (its seat tokens live in local
// storage), active ones first with whose turn it is, then finished ones, each a link.
// A game listed under "Your turn" on the same page is left out here: it shows once.

import { cancelButton, request } from "./api.js";

const TOKEN = /^kingscrib:token:(.+)$/;
const TITLES = { kings: "Kings Cribbage", cribbage: "Cribbage" };

export function heldGames() {
  const ids = [];
  for (let i = 0; i < localStorage.length; i++) {
    const match = TOKEN.exec(localStorage.key(i));
    if (match) ids.push(match[1]);
  }
  return ids;
}

function status(state) {
  const name = (i) => state.seats[i]?.name ?? `Seat ${i + 1}`;
  if (state.over && state.result) { // resigned or out of time: the result names the winners
    const who = state.result.winners.map(name).join(" & ");
    return { text: state.result.winners.includes(state.you) ? "Finished: you won" : `Finished: ${who} won`, rank: 3 };
  }
  if (state.over) {
    const end = state.end || {};
    const winners = end.winners ?? (end.winner !== undefined ? [end.winner] : []);
    const teams = state.seats.length === 4 && state.game === "cribbage";
    const who = winners.map((w) => (teams ? `${name(w)} & ${name(w + 2)}` : name(w))).join(", ");
    return { text: winners.includes(state.you) ? "Finished: you won" : `Finished: ${who || "—"} won`, rank: 3 };
  }
  const waiting = state.seats.filter((s) => !s.joined).map((s) => name(s.seat));
  if (waiting.length) return { text: `Waiting for ${waiting.join(", ")} to join`, rank: 1 };
  const mine = state.turn === state.you || (state.waiting || []).includes(state.you);
  if (mine) return { text: "Your turn", rank: 0 };
  return { text: state.turn !== null && state.turn !== undefined ? `${name(state.turn)} to play` : "Others to play", rank: 2 };
}

export async function renderMyGames(section, list) {
  const ids = heldGames();
  if (!ids.length) { section.hidden = true; return; }
  const rows = await Promise.all(ids.map(async (id) => {
    try {
      const token = localStorage.getItem(`kingscrib:token:${id}`);
      const state = await request("GET", `/api/games/${id}`, undefined, token);
      return { id, state, ...status(state) };
    } catch { return null; } // a game this server no longer has
  }));
  const games = rows.filter(Boolean).sort((a, b) => a.rank - b.rank);
  if (!games.length) { section.hidden = true; return; }
  list.replaceChildren();
  for (const g of games) {
    const li = document.createElement("li");
    li.dataset.game = g.id;
    if (g.rank === 0) li.className = "mine";
    const link = document.createElement("a");
    link.href = `/?game=${g.id}`;
    link.textContent = `${TITLES[g.state.game || "kings"] || g.state.game}: ${g.state.seats.map((s) => s.name).join(" v ")}`;
    const text = document.createElement("span");
    text.className = "status";
    text.textContent = g.text;
    li.append(link, " — ", text);
    if (g.rank === 1) {
      const token = localStorage.getItem(`kingscrib:token:${g.id}`);
      li.append(" ", cancelButton(g.id, token, () => li.remove()));
    }
    list.append(li);
  }
  leaveOutWaiting(section, list);
}

// The games of the page's "Your turn" list (none where the page has no such list).
function waitingIds() {
  const waiting = document.getElementById("your-turn-list");
  return new Set([...(waiting?.querySelectorAll("li[data-game]") || [])].map((li) => li.dataset.game));
}

// Hide this list's rows of games that wait for your move above (shown again once moved),
// and the whole section when every row is hidden.
function leaveOutWaiting(section, list) {
  const waiting = waitingIds();
  const rows = [...list.children];
  for (const li of rows) li.hidden = waiting.has(li.dataset.game);
  section.hidden = rows.every((li) => li.hidden);
}

// "Your turn" is refreshed on its own: follow it.
const waitingList = document.getElementById("your-turn-list");
const myGames = document.getElementById("my-games");
if (waitingList && myGames) {
  new MutationObserver(() => {
    const list = document.getElementById("my-games-list");
    if (list.children.length) leaveOutWaiting(myGames, list);
  }).observe(waitingList, { childList: true });
}
