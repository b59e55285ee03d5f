// The start page: a lobby to start a game, a join panel for invite links, and the game
// itself; with the account panel, the first visit's suggestion, the live lobby, a game's
// chat and the games waiting for your move, each a module of its own.

import "../common/account.js";
import "../common/welcome.js";
import "../common/seeks.js";
import "../common/chat.js";
import "../common/yourturn.js";
import { request, saved } from "../common/api.js";
import { renderMyGames } from "../common/mygames.js";
import { startDemo } from "../common/demo.js";
import * as kings from "../kings/game.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const gameId = params.get("game");

// What the server offers, from /api/levels.
const offer = {
  levels: ["greedy"],
  games: {}, // per game: title, levels, default level
  levelNames: {}, // per game and level: { title, line } (kingscrib/level_names.py)
  gentleLevel: {}, // per game: the level a newcomer's lobby preselects
};
const chosenGame = () => document.querySelector("#game-choice input:checked")?.value || "kings";

// ----- lobby ---------------------------------------------------------------------
// The player's own name, kept in this browser for the next game and the next invite.
const NAME_KEY = "kingscrib:name";
const rememberName = (name) => { if (name) localStorage.setItem(NAME_KEY, name); };
const rememberedName = () => localStorage.getItem(NAME_KEY) || "";

async function showLobby() {
  $("lobby").hidden = false;
  startDemo();
  renderMyGames($("my-games"), $("my-games-list"));
  try {
    const meta = await request("GET", "/api/levels");
    offer.levels = meta.levels;
    offer.games = meta.games || {};
    offer.levelNames = meta.names || {};
    offer.gentleLevel = meta.gentle || {};
  } catch { /* keep default */ }
  const levelsOf = (game) => offer.games[game]?.levels || offer.levels;
  const defaultLevel = (game) => offer.games[game]?.default_level || "greedy";
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
      <small class="level-line"></small>
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
      row.querySelector(".level-line").hidden = kindSel.value !== "computer";
      nameBox.hidden = kindSel.value === "computer";
    };
    kindSel.addEventListener("change", sync);
    levelSel.addEventListener("change", () => describeLevel(levelSel));
    sync();
    rows.append(row);
  };
  // The chosen level's one line, beside its list.
  const describeLevel = (select) => {
    const names = offer.levelNames[chosenGame()] || {};
    select.parentElement.querySelector(".level-line").textContent = names[select.value]?.line || "";
  };
  const fillLevels = (select) => {
    const game = chosenGame();
    // Friendly titles, weakest first and each once (/api/levels), their one line beside
    // the list and as the tooltip; a newcomer meets the gentle level.
    const names = offer.levelNames[game] || {};
    select.replaceChildren(...levelsOf(game).map((l) => {
      const option = new Option(names[l]?.title || l, l);
      option.title = names[l]?.line || "";
      return option;
    }));
    select.value = offer.gentleLevel[game] || defaultLevel(game);
    describeLevel(select);
  };
  const syncGame = () => {
    const cribbage = chosenGame() === "cribbage";
    $("rule-options").hidden = cribbage;
    $("cribbage-options").hidden = !cribbage;
    $("clock-rule").hidden = !$("clock-choice").value; // said once a clock is chosen
    $("clock-rule").textContent = $("clock-choice").value.startsWith("d")
      ? "A correspondence game: each move has its own days; whoever lets them run out loses. Your turn lists the games waiting for you."
      : cribbage
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
    const cribbageBox = (name) => document.querySelector(`#cribbage-options [name=${name}]`).checked;
    const rules = game === "cribbage" ? { muggins: cribbageBox("muggins"), skunk: cribbageBox("skunk") } : {
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
  $("join-hints").textContent = view.game === "cribbage" ? ""
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
  const cribbage = view.game === "cribbage";
  const title = cribbage ? "Cribbage" : "Kings Cribbage";
  $("join-title").textContent = `Join a game of ${title}`;
  const host = view.seats.find((s) => s.kind === "human" && s.joined);
  const who = (s) => (s.joined ? s.name : "an open seat");
  const rules = cribbage
    ? [view.rules.muggins && "muggins (you count your own hand; points you miss go to the next player)",
      view.rules.skunk && "skunks count double or triple"]
    : [...Object.entries(KINGS_RULES).filter(([key]) => view.rules[key]).map(([, text]) => text),
      view.rules.exchange === "when-stuck" && "exchange or pass only when no play is possible"];
  const days = Math.round((view.clock?.seconds ?? 0) / 86400);
  const clock = view.clock?.per_move
    ? `${days} day${days === 1 ? "" : "s"} per move (correspondence); whoever runs out of time loses`
    : view.clock
    ? `${Math.round(view.clock.seconds / 60)} minutes each${cribbage ? "; whoever runs out of time loses"
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

// ----- start ---------------------------------------------------------------------
// Each game has its own page module; the spectator's view says which game this is.
const GAMES = { kings: async () => kings, cribbage: () => import("../cribbage/table.js") };

async function openGame() {
  let kind = "kings";
  try { kind = (await request("GET", `/api/games/${gameId}`)).game || "kings"; } catch { /* the page shows the error */ }
  const page = await (GAMES[kind] || GAMES.kings)();
  page.start(gameId, params.get("watch") ? null : saved.token(gameId));
}

if (params.get("replay")) {
  import("../kings/replay.js").then((m) => m.startReplay(params.get("replay"),
    params.has("turn") ? Number(params.get("turn")) : undefined));
} else if (!gameId) showLobby();
else if (params.get("invite") && !saved.token(gameId)) showJoin(params.get("invite"));
else openGame();
