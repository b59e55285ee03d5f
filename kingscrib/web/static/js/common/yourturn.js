// "Your turn": the games waiting for your move, across all your seats (an account's on
// the server, a guest's in this browser), on the start page and on /your-turn. The count
// also goes in the tab's title, so a tab left open says when someone has moved.

import { heldGames } from "./mygames.js";
import { formatTime } from "./clocks.js";

const EVERY = 60_000; // ms between two looks

export async function waitingGames() {
  const seats = heldGames().slice(0, 100).map((id) => ({
    game_id: id, token: localStorage.getItem(`kingscrib:token:${id}`),
  }));
  const r = await fetch("/api/your-turn", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ seats }),
  });
  if (!r.ok) throw new Error((await r.json().catch(() => ({}))).error || `error ${r.status}`);
  return (await r.json()).games;
}

function entry(g) {
  const li = document.createElement("li");
  li.dataset.game = g.game_id;
  const link = document.createElement("a");
  link.href = `/?game=${g.game_id}`;
  link.textContent = `${g.title}: ${g.players.join(" v ")}`;
  li.append(link);
  if (g.time_left !== null) {
    const left = document.createElement("span");
    left.className = "time-left";
    left.textContent = ` — ${formatTime(g.time_left)} left${g.per_move ? " for this move" : ""}`;
    li.append(left);
  }
  return li;
}

// ``quiet``: the section stays hidden while no game waits (the start page: a newcomer
// has no games, and the page's navigation links to /your-turn anyway).
export function showWaiting(section, list, count, games, quiet = false) {
  section.hidden = quiet && !games.length;
  list.replaceChildren(...games.map(entry));
  count.textContent = games.length ? String(games.length) : "";
  count.hidden = !games.length;
  const base = document.title.replace(/^\(\d+\) /, "");
  document.title = games.length ? `(${games.length}) ${base}` : base;
  if (!games.length) {
    const li = document.createElement("li");
    li.className = "none";
    li.textContent = "No game is waiting for you.";
    list.append(li);
  }
}

export function watchWaiting(section, list, count, active = () => true, quiet = false) {
  const look = async () => {
    if (!active()) return;
    try { showWaiting(section, list, count, await waitingGames(), quiet); } catch { /* next time */ }
  };
  look();
  setInterval(look, EVERY);
  return look;
}

// The start page: the section is shown while a game waits for your move.
const box = document.getElementById("your-turn");
if (box && document.getElementById("lobby")) {
  const lobby = document.getElementById("lobby");
  const look = watchWaiting(box, document.getElementById("your-turn-list"),
    document.getElementById("your-turn-count"), () => !lobby.hidden, true);
  new MutationObserver(look).observe(lobby, { attributes: true, attributeFilter: ["hidden"] });
}
