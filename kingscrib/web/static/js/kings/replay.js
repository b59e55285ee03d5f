// Stepping through a Kings game turn by turn: a stored game (its id) or a game record
// opened from a file (checked by the server, which sends back each turn's breakdown).
// The chosen turn's tiles are outlined; the link names the turn, so it can be shared.

import { watchAnalysis } from "../common/analysis.js";
import { request } from "../common/api.js";
import { buildBoard, tileElement } from "./board.js";
import { spellBreakdown, tileName, turnSpoken, turnText } from "./spoken.js";

const $ = (id) => document.getElementById(id);
let game = null; // { seats, history, end, id }
let at = 0; // turns shown: 0 = the empty board, history.length = the end
let squares = new Map();
let analysis = null; // the engine's review, one row per turn, once done
let cribbage = null; // js/cribbage/replay.js once a Cribbage game is shown

const cribbageReplay = async () => (cribbage ??= await import("../cribbage/replay.js"));

export async function startReplay(source, turn) {
  $("replay").hidden = false;
  squares = buildBoard($("r-board"));
  bindButtons();
  $("r-file").onchange = () => openFile($("r-file").files[0]);
  document.addEventListener("keydown", (event) => {
    if (!game || cribbage?.isActive() || event.target.tagName === "INPUT") return;
    const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: game.history.length };
    if (event.key in moves) { event.preventDefault(); show(moves[event.key]); }
  });
  if (source === "file") { $("replay-title").textContent = "Replay a game record"; return; }
  try {
    const state = await request("GET", `/api/games/${source}`);
    $("r-game").hidden = false;
    $("r-game").href = `/?game=${source}`;
    if (state.game === "cribbage") {
      $("replay-title").textContent = "Replay of a Cribbage game";
      await (await cribbageReplay()).startStored(source, turn);
      return;
    }
    load({ ...state, id: source }, turn);
    if (state.over) watchAnalysis(source, { unit: "turn", done: showAnalysis });
    $("r-game").hidden = false;
    $("r-game").href = `/?game=${source}`;
  } catch (error) { $("r-message").textContent = error.message; }
}

async function openFile(file) {
  if (!file) return;
  $("r-message").textContent = "";
  let record;
  try { record = JSON.parse(await file.text()); } catch {
    $("r-message").textContent = `${file.name} is not JSON: a game record is the JSON file the game page downloads.`;
    return;
  }
  try {
    const replay = await request("POST", "/api/games/replay", record);
    if (replay.game === "cribbage") {
      game = null;
      (await cribbageReplay()).startRecord(replay);
      $("replay-title").textContent = `Replay of ${file.name}`;
      return;
    }
    cribbage?.stop();
    load({ ...replay, id: null }, replay.history.length);
    $("replay-title").textContent = `Replay of ${file.name}`;
  } catch (error) { $("r-message").textContent = error.message; }
}

function bindButtons() {
  $("r-first").onclick = () => show(0);
  $("r-prev").onclick = () => show(at - 1);
  $("r-next").onclick = () => show(at + 1);
  $("r-last").onclick = () => show(game.history.length);
}

function load(data, turn) {
  game = data;
  bindButtons();
  const list = $("r-list");
  list.replaceChildren();
  game.history.forEach((t, i) => {
    const li = document.createElement("li");
    li.value = t.n ?? i + 1;
    const button = document.createElement("button");
    button.textContent = turnText(t, name);
    button.onclick = () => show(i + 1);
    li.append(button);
    list.append(li);
  });
  show(Number.isInteger(turn) ? turn : game.history.length);
}

const name = (i) => game.seats[i]?.name ?? `Seat ${i + 1}`;

function show(n) {
  if (!game) return;
  at = Math.max(0, Math.min(game.history.length, n));
  const shown = game.history.slice(0, at);
  const board = {};
  for (const t of shown) if (t.action === "play") Object.assign(board, t.tiles);
  const current = shown[shown.length - 1];
  const outlined = new Set(current?.action === "play" ? Object.keys(current.tiles) : []);
  for (const [sq, el] of squares) {
    el.replaceChildren();
    const tile = board[sq];
    let label = `${sq}, empty`;
    if (tile) {
      const t = tileElement(tile);
      t.setAttribute("aria-hidden", "true");
      if (outlined.has(sq)) t.classList.add("last");
      el.append(t);
      label = `${sq}, ${tileName(tile)}${outlined.has(sq) ? ", this turn" : ""}`;
    }
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", label);
  }
  const row = analysis && at > 0 ? analysis[at - 1] : null;
  renderBest(row);
  if (row?.best_tiles && row.best !== row.played) {
    // Ghosts of the best option's tiles on squares still empty after the turn.
    for (const [sq, tile] of Object.entries(row.best_tiles)) {
      const el = squares.get(sq);
      if (!el || board[sq]) continue;
      const ghost = tileElement(tile);
      ghost.classList.add("best", "ghost");
      ghost.setAttribute("aria-hidden", "true");
      el.replaceChildren(ghost);
      el.setAttribute("aria-label", `${sq}, engine's best: ${tileName(tile)}`);
    }
  }
  $("r-at").textContent = at === 0 ? "Start" : `Turn ${at} of ${game.history.length}`;
  $("r-at").dataset.at = at;
  const box = $("r-turn");
  box.replaceChildren();
  if (current) {
    const p = document.createElement("p");
    p.className = "r-play";
    p.textContent = turnText(current, name);
    p.title = turnSpoken(current, name);
    box.append(p);
    if (current.describe) {
      const d = document.createElement("p");
      d.className = "detail";
      d.textContent = spellBreakdown(current.describe);
      box.append(d);
    }
  }
  renderScores(shown);
  for (const [i, li] of [...$("r-list").children].entries()) li.classList.toggle("at", i + 1 === at);
  $("r-first").disabled = $("r-prev").disabled = at === 0;
  $("r-next").disabled = $("r-last").disabled = at === game.history.length;
  if (game.id) {
    const link = `/?replay=${game.id}&turn=${at}`;
    $("r-share").href = link;
    $("r-share").hidden = false;
    history.replaceState(null, "", link);
  } else {
    $("r-share").hidden = true;
  }
}

// ----- analysis: the engine's best option by equity at each turn (./analysis.js) -----
function showAnalysis(turns) {
  analysis = turns;
  $("r-progress-text").textContent = "Engine analysis: the best option by equity at each turn;"
    + " mistakes are marked ✗ in the list.";
  for (const [i, li] of [...$("r-list").children].entries()) {
    const row = turns[i];
    li.classList.toggle("slip", Boolean(row?.mistake));
    if (row?.mistake) li.querySelector("button").setAttribute("aria-label", `${li.textContent} A mistake: worse than the engine's best.`);
  }
  renderSummary(turns);
  show(at);
}

// Per player: the points given up against the engine's best, the mistakes, and the
// accuracy (the share of turns as good as the engine's first choice by equity).
function renderSummary(turns) {
  const table = document.createElement("table");
  table.className = "scores r-summary";
  table.id = "r-summary";
  table.innerHTML = "<caption>The game in sum</caption><tr><th>Player</th><th class=num>Points<br>given up</th>"
    + "<th class=num>Mistakes</th><th class=num>Accuracy</th></tr>";
  game.seats.forEach((_, seat) => {
    const mine = turns.filter((row) => row.player === seat);
    const good = mine.filter((row) => (row.equity_lost ?? 0) <= 0).length;
    const tr = document.createElement("tr");
    tr.dataset.seat = seat;
    const cells = [name(seat), mine.reduce((sum, row) => sum + Math.max(0, row.points_lost || 0), 0),
      mine.filter((row) => row.mistake).length,
      mine.length ? `${Math.round((100 * good) / mine.length)}%` : "—"];
    for (const [i, value] of cells.entries()) {
      const td = document.createElement("td");
      if (i) td.className = "num";
      td.textContent = value;
      tr.append(td);
    }
    table.append(tr);
  });
  $("r-summary")?.remove();
  $("r-analysis").append(table);
}

function renderBest(row) {
  const box = $("r-best");
  box.replaceChildren();
  if (!row) return;
  const made = document.createElement("p");
  made.textContent = `Played: ${row.played_text ?? row.played} = ${row.score ?? 0}`;
  const best = document.createElement("p");
  best.className = "best-line";
  best.textContent = `Engine's best: ${row.best_text ?? row.best ?? "—"}${row.best_score !== undefined ? ` = ${row.best_score}` : ""}`;
  box.append(made, best);
  if (row.points_lost > 0 || row.equity_lost > 0) {
    const lost = document.createElement("p");
    lost.className = "lost";
    lost.textContent = `${row.mistake ? "✗ A mistake. " : ""}Given up: ${row.points_lost || 0} points, ${Math.max(0, row.equity_lost ?? 0)} equity`;
    box.append(lost);
  } else if (row.equity_lost < 0) {
    const won = document.createElement("p");
    won.textContent = `The play made weighs ${-row.equity_lost} equity more than the engine's first choice.`;
    box.append(won);
  } else {
    const ok = document.createElement("p");
    ok.textContent = "Matches the engine's best option.";
    box.append(ok);
  }
}

function renderScores(shown) {
  const scores = game.seats.map(() => 0);
  for (const t of shown) {
    // Under the Joker rule a play gives its claim, never more than its value; the next
    // player takes the excess of a claim above it.
    if (t.action === "play" && t.score !== undefined) {
      scores[t.seat] += t.claimed !== undefined ? Math.min(t.claimed, t.score) : t.score;
    }
    if (t.overclaim) scores[t.overclaim.player] += t.overclaim.points;
    if (t.joker) scores[t.joker.caller] += t.joker.points;
  }
  const final = at === game.history.length && game.end;
  const table = $("r-scores");
  table.innerHTML = `<tr><th>Player</th><th class=num>Score</th>${final ? "<th class=num>Final</th>" : ""}</tr>`;
  game.seats.forEach((s, i) => {
    const row = document.createElement("tr");
    row.dataset.seat = i;
    const who = document.createElement("td");
    who.textContent = name(i);
    const score = document.createElement("td");
    score.className = "num score";
    score.textContent = scores[i];
    row.append(who, score);
    if (final) {
      const f = document.createElement("td");
      f.className = "num final";
      f.textContent = game.end.scores[i];
      row.append(f);
    }
    table.append(row);
  });
}
