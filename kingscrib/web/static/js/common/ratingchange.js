// A rated game says so: a "Rated" mark by the turn's words while it is played, and in
// its end box each player's rating before and after, with the change
// (GET /api/games/{id}/ratings, asked again while the server is still settling it).

import { request } from "./api.js";

const settled = new Map(); // game id -> the reply, once rated or unrated
const boxes = new Map(); // game id -> the end box drawn last (redrawn on every state)
const asking = new Set(); // games whose ratings are being asked for
const TRIES = 30; // a second apart: then the page stops asking (the housekeeping settles it later)

// A rated game's "Rated" mark, shown in the turn's line (``shown``) before the turn's
// words: beside their live region, not in it, so a screen reader does not say "Rated"
// with every turn.
export function markRated(line, shown) {
  const mark = line.querySelector(".rated-mark");
  if (!shown) { mark?.remove(); return; }
  if (mark) return;
  const made = document.createElement("span");
  made.className = "badge rated-mark";
  made.title = "A rated game: the ratings move when it ends";
  made.textContent = "Rated";
  line.prepend(made);
}

// Under a rated game's final result: each player's rating change.
export function renderRatingChanges(box, state) {
  if (!state.rated || !state.over || !state.id) return;
  boxes.set(state.id, box);
  draw(state.id);
  if (!settled.has(state.id) && !asking.has(state.id)) ask(state.id);
}

async function ask(gameId) {
  asking.add(gameId);
  for (let i = 0; i < TRIES; i++) {
    try {
      const reply = await request("GET", `/api/games/${gameId}/ratings`);
      if (reply.status !== "pending") { settled.set(gameId, reply); break; }
    } catch { /* asked again below */ }
    await new Promise((done) => setTimeout(done, 1000));
  }
  asking.delete(gameId);
  draw(gameId);
}

const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0");

function draw(gameId) {
  const box = boxes.get(gameId);
  if (!box) return;
  let area = box.querySelector(".rating-changes");
  if (!area) {
    area = document.createElement("div");
    area.className = "rating-changes";
    area.setAttribute("aria-live", "polite");
    const next = box.querySelector(".next-game");
    if (next) next.before(area); else box.append(area);
  }
  const reply = settled.get(gameId);
  const heading = document.createElement("h3");
  heading.textContent = "Ratings";
  if (!reply) {
    const p = document.createElement("p");
    p.textContent = asking.has(gameId) ? "Updating the ratings…" : "The ratings are not updated yet: see the players' profiles.";
    area.replaceChildren(heading, p);
    return;
  }
  if (reply.status !== "rated") {
    const p = document.createElement("p");
    p.textContent = "Not rated after all: the game ended before every player had moved, or was set aside for the moderators.";
    area.replaceChildren(heading, p);
    return;
  }
  const list = document.createElement("ul");
  list.className = "rating-list";
  for (const s of reply.seats) {
    const li = document.createElement("li");
    li.dataset.seat = String(s.seat);
    li.dataset.change = String(s.change);
    const name = document.createElement("span");
    name.className = "rating-name";
    name.textContent = s.computer ? `${s.name} (computer)` : s.name;
    const figures = document.createElement("span");
    figures.className = "rating-figures";
    if (s.computer) figures.textContent = `${s.rating} (fixed)`;
    else {
      const change = document.createElement("b");
      change.className = s.change > 0 ? "rating-up" : s.change < 0 ? "rating-down" : "rating-same";
      change.textContent = signed(s.change);
      figures.append(`${s.previous} → ${s.rating} `, change);
    }
    li.append(name, " ", figures);
    list.append(li);
  }
  area.replaceChildren(heading, list);
}
