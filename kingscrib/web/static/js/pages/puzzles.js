// The puzzle page (/puzzles, /puzzles/kings, /puzzles/cribbage; ?id= opens one puzzle,
// ?daily=1 today's). The server sends the position only and judges the answer; a guest's
// rating is kept in this browser and sent with each answer, an account's on the server.

import { request } from "../common/api.js";
import { filled } from "../common/layout.js";
import * as cards from "../cribbage/puzzle.js";
import * as kings from "../kings/puzzle.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const game = location.pathname.replace(/\/$/, "").endsWith("/cribbage") ? "cribbage" : "kings";
const KEY = `kingscrib:puzzles:${game}`;
const RECENT = `kingscrib:puzzles-recent:${game}`;
const MAX_RECENT = 50;
const START = { rating: 1500, rd: 350, vol: 0.06, streak: 0, best_streak: 0, tried: 0, solved: 0 };

let account = null; // { name, csrf } when logged in
let standing = { ...START };
let puzzle = null;
let busy = false;

function guestStanding() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY));
    return kept && typeof kept.rating === "number" ? { ...START, ...kept } : { ...START };
  } catch { return { ...START }; }
}

const recent = () => { try { return JSON.parse(localStorage.getItem(RECENT)) || []; } catch { return []; } };
function remember(id) {
  const ids = [id, ...recent().filter((x) => x !== id)].slice(0, MAX_RECENT);
  localStorage.setItem(RECENT, JSON.stringify(ids));
}

function renderStanding() {
  const s = standing;
  $("p-rating").textContent = `Puzzle rating: ${Math.round(s.rating)}`
    + (s.tried ? ` · streak ${s.streak} (best ${s.best_streak}) · solved ${s.solved} of ${s.tried}` : "");
  $("p-who").textContent = account
    ? `Logged in as ${account.name}: your rating is kept with your account.`
    : "Playing as a guest: your rating is kept in this browser only (log in on the start page to keep it with an account).";
}

async function load(path) {
  $("p-message").textContent = "";
  try {
    const { puzzle: shown } = await request("GET", path);
    show(shown);
  } catch (error) {
    $("p-puzzle").hidden = false;
    $("p-message").textContent = error.message;
  }
}

function nextPuzzle() {
  const query = new URLSearchParams({ game, rating: String(Math.round(standing.rating)) });
  const skip = recent().join(",");
  if (skip) query.set("skip", skip);
  load(`/api/puzzles/next?${query}`);
}

function show(shown) {
  if (shown.game !== game) { // another game's puzzle: its own page keeps that game's rating
    location.replace(`/puzzles/${shown.game}?id=${encodeURIComponent(shown.id)}`);
    return;
  }
  puzzle = shown;
  history.replaceState(null, "", `/puzzles/${shown.game}?id=${encodeURIComponent(shown.id)}${shown.daily ? "&daily=1" : ""}`);
  $("p-puzzle").hidden = false;
  $("p-result").hidden = true;
  $("p-title").textContent = `${shown.daily ? `Daily puzzle, ${shown.daily}: ` : ""}${shown.title} (rated ${shown.rating})`;
  $("p-prompt").textContent = shown.game === "kings"
    ? "Your move: place tiles and press Play, or Exchange, or Pass. Which option is worth the most, counting the tiles you keep and what you leave your opponent?"
    : shown.kind === "best-discard"
      ? "Six cards dealt: choose the two to lay away. Which keeps the most points, hand and crib together?"
      : "Your turn in the play: which card pegs best over the rest of the play?";
  kings.hide();
  cards.hide();
  (shown.game === "kings" ? kings : cards).show(shown, submit);
  $("announce").textContent = `${shown.title}. ${$("p-prompt").textContent}`;
}

async function submit(move) {
  if (busy || !puzzle) return;
  busy = true;
  $("p-message").textContent = "Checking…";
  const headers = { "Content-Type": "application/json" };
  if (account) headers["X-CSRF-Token"] = account.csrf;
  const body = { answer: move };
  if (!account) body.guest = standing;
  try {
    const response = await fetch(`/api/puzzles/${encodeURIComponent(puzzle.id)}/answer`,
      { method: "POST", headers, body: JSON.stringify(body) });
    const data = await response.json().catch(() => ({ error: response.statusText }));
    if (!response.ok) { $("p-message").textContent = data.error || `error ${response.status}`; return; }
    $("p-message").textContent = "";
    showResult(data);
  } catch (error) {
    $("p-message").textContent = error.message;
  } finally {
    busy = false;
  }
}

function showResult(data) {
  (puzzle.game === "kings" ? kings : cards).showBest(data.best);
  const before = data.before.rating;
  standing = data.standing;
  if (!account) localStorage.setItem(KEY, JSON.stringify(standing));
  remember(puzzle.id);
  const verdict = $("p-verdict");
  verdict.className = `p-verdict ${data.right ? "right" : "wrong"}`;
  verdict.textContent = data.right ? "Right! That is the best option." : `Not the best. The best is ${data.answer}.`;
  const lines = $("p-lines");
  lines.replaceChildren(...data.lines.map((text) => {
    const li = document.createElement("li");
    li.textContent = text;
    return li;
  }));
  const delta = Math.round(standing.rating) - Math.round(before);
  $("p-change").textContent = data.rated
    ? `Rating ${Math.round(before)} → ${Math.round(standing.rating)} (${delta >= 0 ? "+" : ""}${delta}); streak ${standing.streak}.`
    : "You answered this puzzle before: your rating stays as it was.";
  $("p-change").dataset.delta = String(data.rated ? delta : 0);
  $("p-result").hidden = false;
  renderStanding();
  verdict.focus();
}

async function start() {
  $(`p-game-${game}`).setAttribute("aria-current", "page");
  try {
    const me = await request("GET", "/api/account");
    if (me.name) account = { name: me.name, csrf: me.csrf };
  } catch { account = null; }
  if (account) {
    const { standing: kept } = await request("GET", `/api/puzzles/me?game=${game}`);
    standing = kept;
  } else {
    standing = guestStanding();
  }
  renderStanding();
  filled();
  $("p-next").onclick = nextPuzzle;
  $("p-again").onclick = nextPuzzle;
  $("p-daily").onclick = () => load(`/api/puzzles/daily?game=${game}`);
  if (params.get("daily")) load(`/api/puzzles/daily?game=${game}`);
  else if (params.get("id")) load(`/api/puzzles/${encodeURIComponent(params.get("id"))}`);
  else nextPuzzle();
}

start();
