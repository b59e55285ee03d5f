// What to do when a game is over: a rematch with the same players, or a new game.
// A player's click starts the rematch (or joins the one another player started, in one
// click); the end box watches for a rematch started elsewhere and offers it.

import { request, saved } from "./api.js";

const watching = new Set(); // games whose rematch is being watched
const known = new Map(); // game id -> its rematch ({ game_id }) once started

export function renderNextGame(box, gameId, you) {
  let area = box.querySelector(".next-game");
  if (!area) {
    area = document.createElement("div");
    area.className = "next-game";
    box.append(area);
  }
  draw(area, gameId, you, known.get(gameId) || null);
  if (watching.has(gameId)) return;
  watching.add(gameId);
  const look = async () => {
    try {
      const { rematch } = await request("GET", `/api/games/${gameId}/rematch`);
      if (rematch) {
        clearInterval(timer);
        known.set(gameId, rematch);
        const current = box.querySelector(".next-game");
        if (current) draw(current, gameId, you, rematch);
      }
    } catch { /* try again at the next tick */ }
  };
  const timer = setInterval(look, 3000);
  look();
}

function draw(area, gameId, you, rematch) {
  area.replaceChildren();
  const mine = rematch && saved.token(rematch.game_id);
  if (rematch && (mine || you === null)) {
    const link = document.createElement("a");
    link.id = "rematch-link";
    link.className = "button primary";
    link.href = `/?game=${rematch.game_id}${mine ? "" : "&watch=1"}`;
    link.textContent = mine ? "Go to the rematch" : "Watch the rematch";
    area.append(link);
  } else if (you !== null) {
    const button = document.createElement("button");
    button.id = "rematch";
    button.className = "primary";
    button.textContent = rematch ? "Join the rematch" : "Rematch";
    if (rematch) area.append(offerText());
    button.onclick = async () => {
      button.disabled = true;
      try {
        const joined = await request("POST", `/api/games/${gameId}/rematch`, undefined, saved.token(gameId));
        saved.setToken(joined.game_id, joined.token);
        saved.setInvite(joined.game_id, joined.invite);
        location.href = `/?game=${joined.game_id}`;
      } catch (error) {
        button.disabled = false;
        const p = document.createElement("p");
        p.className = "message";
        p.setAttribute("role", "alert");
        p.textContent = error.message;
        area.append(p);
      }
    };
    area.append(button);
  }
  const fresh = document.createElement("a");
  fresh.id = "new-game-link";
  fresh.className = "button";
  fresh.href = "/";
  fresh.textContent = "New game";
  area.append(fresh);
}

function offerText() {
  const p = document.createElement("p");
  p.id = "rematch-offer";
  p.textContent = "A rematch has been started: the same players, and the next one round the table begins.";
  return p;
}
