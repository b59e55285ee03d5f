// Stepping through a Cribbage game: each step is one action (a discard, a card
// laid, a go, a claim) with the table as everyone saw it just after it, drawn by the
// table module as a spectator's view. The server sends the steps (GET
// /api/games/{id}/replay, or POST /api/games/replay for a record file); the link names
// the step, so it can be shared.

import { watchAnalysis } from "../common/analysis.js";
import { request } from "../common/api.js";
import { pretty } from "./cards.js";
import { showStill } from "./table.js";

const $ = (id) => document.getElementById(id);
let data = null; // { id, seats, start, steps, deals, cut, rules, lines, end }
let at = 0; // steps shown: 0 = the cut for deal, steps.length = the last action
let active = false;
let analysis = null; // the engine's judgement, one row per decision, keyed by step

const name = (seat) => data.seats[seat]?.name ?? `Seat ${seat + 1}`;

// What a pegged score says: "fifteen for 2", "Ann's hand: fifteen two … is six".
function pegged(p) {
  if (p.kind === "peg") {
    const why = p.text.match(/\((.*)\)/)?.[1] ?? "";
    return `${name(p.seat)} pegs ${p.points}${why ? ` (${why})` : ""}`;
  }
  if (p.kind === "show") {
    const [what, ...count] = p.text.split(": ");
    if (count.join(": ").startsWith("claims")) return `${name(p.seat)}'s ${what} pegs ${p.points}`;
    return `${name(p.seat)}'s ${what}: ${count.join(": ")} (+${p.points})`;
  }
  if (p.kind === "heels") return `${name(p.seat)}: his heels for 2`;
  if (p.kind === "go") return `${name(p.seat)}: ${p.text} (+${p.points})`;
  return `${name(p.seat)}: ${p.text} (+${p.points})`;
}

// One step as a sentence: who did what, and what it pegged.
export function stepText(step) {
  let text = name(step.seat);
  if (step.action === "discard") {
    text += step.cards ? ` lays away ${step.cards.map(pretty).join(" ")}`
      : ` lays away ${step.laid_away === 1 ? "a card" : `${step.laid_away} cards`}`;
  } else if (step.action === "play") text += ` plays ${pretty(step.card)} — ${step.count}`;
  else if (step.action === "claim") text += ` claims ${step.points}`;
  else text += " says Go";
  const scored = step.pegged.filter((p) => p.kind !== "win").map(pegged);
  return scored.length ? `${text}. ${scored.join(". ")}.` : `${text}.`;
}

function bind() {
  $("r-first").onclick = () => show(0);
  $("r-prev").onclick = () => show(at - 1);
  $("r-next").onclick = () => show(at + 1);
  $("r-last").onclick = () => show(data.steps.length);
}

document.addEventListener("keydown", (event) => {
  if (!active || !data || event.target.tagName === "INPUT") return;
  const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: data.steps.length };
  if (event.key in moves) { event.preventDefault(); show(moves[event.key]); }
});

// The replay page laid out for the Cribbage table: the table where the Kings board goes.
function layout() {
  document.querySelector("#replay .replay-layout").classList.add("cribbage-replay");
  $("r-board").parentElement.hidden = true;
  $("r-scores").hidden = true;
  const table = $("cribbage");
  if (table.parentElement.id !== "replay") document.querySelector("#replay .replay-layout").prepend(table);
  $("c-hand-area").hidden = true;
  $("r-list").previousElementSibling.textContent = "Steps";
}

export const isActive = () => active;

export function stop() {
  active = false;
  data = null;
  document.querySelector("#replay .replay-layout").classList.remove("cribbage-replay");
  $("r-board").parentElement.hidden = false;
  $("r-scores").hidden = false;
  $("cribbage").hidden = true;
  $("r-list").previousElementSibling.textContent = "Turns";
}

// A stored game: the steps up to now (a live game as it is when the page opens).
export async function startStored(id, turn) {
  const replay = await request("GET", `/api/games/${id}/replay`);
  load({ ...replay, id }, turn);
  // Over by the rules, or by a resignation or a clock (the game's state has its result).
  const over = replay.end || (await request("GET", `/api/games/${id}`)).result;
  if (over) watchAnalysis(id, { unit: "decision", done: showAnalysis, active: () => active });
}

// A record opened from a file, already checked by the server.
export function startRecord(replay) {
  load({ ...replay, id: null }, replay.steps.length);
}

function load(replay, turn) {
  data = replay;
  active = true;
  analysis = null;
  layout();
  bind();
  const list = $("r-list");
  list.replaceChildren();
  data.steps.forEach((step, i) => {
    const li = document.createElement("li");
    const button = document.createElement("button");
    button.textContent = stepText(step);
    button.onclick = () => show(i + 1);
    li.append(button);
    list.append(li);
  });
  show(Number.isInteger(turn) ? turn : data.steps.length);
}

function viewAt(n) {
  const own = n === 0 ? data.start : data.steps[n - 1].state;
  const seats = data.seats.map((s) => ({ ...s, kind: "person", joined: true }));
  return { ...own, rules: data.rules, cut: data.cut, lines: data.lines, seats, id: data.id,
    previous: own.deal > 1 ? data.deals[own.deal - 2] ?? null : null };
}

export function show(n) {
  if (!data) return;
  at = Math.max(0, Math.min(data.steps.length, n));
  showStill(viewAt(at));
  const total = data.steps.length;
  $("r-at").textContent = at === 0 ? "Start" : `Step ${at} of ${total}`;
  $("r-at").dataset.at = at;
  const box = $("r-turn");
  box.replaceChildren();
  const step = data.steps[at - 1];
  const p = document.createElement("p");
  p.className = "r-play";
  p.textContent = step ? stepText(step)
    : `Cut for deal: ${data.cut.cards.map((c, i) => `${name(i)} ${pretty(c)}`).join(", ")}; ${name(data.cut.first_dealer)} deals first.`;
  box.append(p);
  renderJudgement(at);
  for (const [i, li] of [...$("r-list").children].entries()) li.classList.toggle("at", i + 1 === at);
  $("r-first").disabled = $("r-prev").disabled = at === 0;
  $("r-next").disabled = $("r-last").disabled = at === total;
  if (data.id) {
    const link = `/?replay=${data.id}&turn=${at}`;
    $("r-share").href = link;
    $("r-share").hidden = false;
    history.replaceState(null, "", link);
  } else $("r-share").hidden = true;
}

// ----- analysis: the coach's judgement of each discard and card (../analysis.js) -----
function showAnalysis(turns) {
  analysis = new Map(turns.map((row) => [row.turn, row]));
  const slips = turns.filter((row) => row.slip).length;
  $("r-progress-text").textContent = `The coach judged ${turns.length} decisions`
    + ` (discards, and cards where the hand gave a choice): ${slips} fell short of its best,`
    + " marked ✗ in the list.";
  for (const [i, li] of [...$("r-list").children].entries()) {
    const row = analysis.get(i + 1);
    li.classList.toggle("slip", Boolean(row?.slip));
    if (row?.slip) li.querySelector("button").setAttribute("aria-label", `${li.textContent} Worse than the coach's best.`);
  }
  show(at);
}

const percent = (p) => `${(100 * p).toFixed(1)}%`;
const cardsIn = (text) => text.replace(/\b[A2-9TJQK][CDHS]\b/g, pretty); // "lay 7C" -> "lay 7♣"

function renderJudgement(n) {
  const box = $("r-best");
  box.replaceChildren();
  const row = analysis?.get(n);
  if (!row) {
    if (analysis && n > 0) box.textContent = "No choice to judge at this step.";
    return;
  }
  const line = (text, cls) => {
    const p = document.createElement("p");
    p.textContent = text;
    if (cls) p.className = cls;
    box.append(p);
  };
  const what = row.decision === "discard" ? "hand, crib and pegging" : "pegging from here";
  line(`${row.player}: ${cardsIn(row.made)} — chance to win ${percent(row.win_made)}, ${what} ${row.points_made.toFixed(1)} points`);
  line(`Coach's best: ${cardsIn(row.best)} — chance to win ${percent(row.win_best)}, ${row.points_best.toFixed(1)} points`, "best-line");
  if (row.made === row.best) line("Matches the coach's best.");
  else if (row.slip) line(`✗ Given up: ${percent(Math.max(0, row.win_lost))} chance to win, ${Math.max(0, row.points_lost).toFixed(1)} points`, "lost");
  else line(`As good as the coach's best by its measure (${row.ranked_by === "win" ? "the chance to win" : "expected points"}).`);
}
