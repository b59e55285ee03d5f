// The tutorial page: lessons from /api/learn/<game>, each answer checked by the server's
// engine (/api/learn/<game>/<lesson>/<step>), progress kept in this browser and, when
// logged in, with the account.

import { buildBoard, isLight, isSixNine, rankText } from "../kings/board.js";
import { cardElement, pointsOf, pretty, spoken } from "../cribbage/cards.js";
import { filled } from "../common/layout.js";

const STORE = "kingscrib:learn";
const GAMES = ["kings", "cribbage"];
const TITLES = { kings: "Kings Cribbage", cribbage: "Cribbage" };
const game = new URLSearchParams(location.search).get("game") === "cribbage" ? "cribbage" : "kings";
const $ = (id) => document.getElementById(id);

let lessons = [];
let at = { lesson: 0, step: 0 };
let solved = false;
let me = { name: null };
let progress = readProgress();
let kings = null; // the board and rack being laid: { placed, rack, selected, squares }
let chosen = []; // the cards picked for a discard

function readProgress() {
  const out = { kings: [], cribbage: [] };
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || "{}");
    for (const g of GAMES) if (Array.isArray(saved[g])) out[g] = saved[g].filter((id) => typeof id === "string");
  } catch { /* a damaged entry: start afresh, the account (if any) still has its own */ }
  return out;
}

function keepProgress() {
  localStorage.setItem(STORE, JSON.stringify(progress));
}

async function call(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  if (me.csrf) headers["X-CSRF-Token"] = me.csrf;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(data.error || `error ${response.status}`);
  return data;
}

// Logged in: the account and this browser share what each has finished.
async function joinAccount() {
  try { me = await call("GET", "/api/account"); } catch { me = { name: null }; }
  if (!me.name) {
    $("progress-note").textContent = "Your progress is kept in this browser. Log in on the start page to keep it with an account.";
    return;
  }
  try {
    const answer = await call("POST", "/api/learn-progress", { progress });
    progress = answer.progress;
    keepProgress();
    $("progress-note").textContent = `Your progress is kept with your account, ${me.name}.`;
  } catch (error) {
    $("progress-note").textContent = `Your progress is kept in this browser (the account's could not be read: ${error.message}).`;
  }
  drawList();
}

async function finished(lesson) {
  if (!progress[game].includes(lesson.id)) progress[game] = [...progress[game], lesson.id].sort();
  keepProgress();
  if (me.name) {
    try { progress = (await call("POST", "/api/learn-progress", { progress })).progress; keepProgress(); }
    catch (error) { $("progress-note").textContent = `Kept in this browser; the account could not take it: ${error.message}`; }
  }
  drawList();
}

function drawList() {
  const list = $("lesson-list");
  list.replaceChildren();
  lessons.forEach((lesson, i) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    const done = progress[game].includes(lesson.id);
    button.textContent = `${i + 1}. ${lesson.title}`;
    button.classList.toggle("done", done);
    button.setAttribute("aria-label", `${i + 1}. ${lesson.title}${done ? " (finished)" : ""}`);
    if (i === at.lesson) button.setAttribute("aria-current", "step");
    button.onclick = () => { open(i, 0); $("lesson-title").focus(); };
    item.append(button);
    list.append(item);
  });
}

function open(lessonIndex, stepIndex) {
  at = { lesson: lessonIndex, step: stepIndex };
  solved = false;
  chosen = [];
  const lesson = lessons[lessonIndex];
  const step = lesson.steps[stepIndex];
  $("lesson-title").textContent = `${lessonIndex + 1}. ${lesson.title}`;
  $("lesson-teach").replaceChildren(...lesson.teach.split("\n").map((text) => {
    const p = document.createElement("p");
    p.textContent = text;
    return p;
  }));
  $("step-title").textContent = `Step ${stepIndex + 1} of ${lesson.steps.length}`;
  $("step-task").textContent = step.task;
  $("verdict").replaceChildren();
  $("next").hidden = true;
  history.replaceState(null, "", `/learn?game=${game}#${lesson.id}`);
  if (step.answer === "move") drawKings(step);
  else drawCards(step);
  drawList();
}

// ----- Kings: lay tiles from the rack on the board, or type the move ---------------------
function drawKings(step) {
  const setup = step.setup;
  kings = { placed: {}, rack: setup.rack.slice(), selected: null, squares: null };
  const board = document.createElement("div");
  board.className = "board";
  board.setAttribute("role", "group");
  board.setAttribute("aria-label", "the lesson's board: pick a rack tile, then a square");
  kings.squares = buildBoard(board);
  for (const [square, el] of kings.squares) el.onclick = () => placeOn(square);
  const rack = document.createElement("div");
  rack.className = "rack";
  rack.id = "learn-rack";
  rack.setAttribute("role", "group");
  rack.setAttribute("aria-label", "your rack");
  const bag = document.createElement("p");
  bag.className = "note";
  bag.textContent = setup.bag ? `The bag holds ${setup.bag} tiles.` : "The bag is empty.";
  $("step-setup").replaceChildren(board, rack, bag);
  const controls = [
    button("Play these tiles", "play", () => send({ tiles: kings.placed }), "primary"),
    button("Take back", "take-back", takeBack),
    button("Turn 6/9", "turn69", turnSixNine),
    button("Exchange", "exchange", () => send(`exchange ${exchanged().join(" ")}`)),
    button("Pass", "pass", () => send("pass")),
  ];
  if (step.answer !== "move") controls.length = 0;
  const form = typedForm("Or type the move", "e.g. H7 across 6 9 K", "text");
  $("step-controls").replaceChildren(...controls, form, ...helpButtons(step));
  drawKingsState(setup);
}

function drawKingsState(setup = lessons[at.lesson].steps[at.step].setup) {
  for (const [square, el] of kings.squares) {
    el.replaceChildren();
    const tile = setup.board[square] || kings.placed[square];
    if (tile) el.append(tileFace(tile, { pending: square in kings.placed }));
    el.classList.toggle("open", !tile && kings.selected !== null && !solved);
  }
  const rack = $("learn-rack");
  rack.replaceChildren(...kings.rack.map((tile, i) => {
    const el = document.createElement("button");
    el.type = "button";
    el.className = `tile ${isLight(tile) ? "light" : "dark"}`;
    el.textContent = rankText(tile);
    if (isSixNine(tile)) {
      el.classList.add("six-nine");
      const flip = document.createElement("span");
      flip.className = "flip";
      flip.textContent = "6/9";
      flip.setAttribute("aria-hidden", "true");
      el.append(flip);
    }
    el.setAttribute("aria-label", `${isLight(tile) ? "light" : "dark"} ${isSixNine(tile) ? "6/9 (as " + rankText(tile) + ")" : rankText(tile)}`);
    el.setAttribute("aria-pressed", String(kings.selected === i));
    el.onclick = () => { kings.selected = kings.selected === i ? null : i; drawKingsState(); };
    return el;
  }));
  if (!kings.rack.length) rack.textContent = "(all your tiles are on the board)";
}

function tileFace(tile, { pending = false } = {}) {
  const el = document.createElement("div");
  el.className = `tile ${isLight(tile) ? "light" : "dark"}${pending ? " pending" : ""}`;
  el.textContent = rankText(tile);
  el.title = `${rankText(tile)} ${isLight(tile) ? "light" : "dark"}`;
  return el;
}

function placeOn(square) {
  const setup = lessons[at.lesson].steps[at.step].setup;
  if (solved || kings.selected === null || setup.board[square] || kings.placed[square]) return;
  kings.placed[square] = kings.rack[kings.selected];
  kings.rack.splice(kings.selected, 1);
  kings.selected = null;
  drawKingsState();
}

function takeBack() {
  kings.rack.push(...Object.values(kings.placed));
  kings.placed = {};
  kings.selected = null;
  drawKingsState();
}

function turnSixNine() {
  const i = kings.selected;
  if (i === null || !isSixNine(kings.rack[i])) {
    say(false, "Pick a 6/9 tile on your rack first, then turn it.");
    return;
  }
  const tile = kings.rack[i];
  kings.rack[i] = (tile[0] === "6" ? "9" : "6") + tile.slice(1);
  drawKingsState();
}

function exchanged() {
  const rack = kings.rack.concat(Object.values(kings.placed)).map((t) => (t[0] === "9" ? "6" + t.slice(1) : t));
  return kings.selected === null ? rack : [kings.rack[kings.selected]];
}

// ----- Cribbage: count, discard or lay a card ---------------------------------------------
function drawCards(step) {
  const setup = step.setup;
  const parts = [];
  if (step.answer === "number") {
    parts.push(cardsRow(setup.crib ? "The crib" : "The hand", setup.hand));
    parts.push(cardsRow("Starter", [setup.starter]));
    $("step-setup").replaceChildren(...parts);
    const form = typedForm("Points", "", "number");
    $("step-controls").replaceChildren(form, ...helpButtons(step));
    return;
  }
  if (step.answer === "discard") {
    parts.push(cardsRow(setup.dealer ? "Your six cards (you deal)" : "Your six cards (your opponent deals)",
      setup.cards, (card, el) => {
        chosen = chosen.includes(card) ? chosen.filter((c) => c !== card) : [...chosen, card].slice(-2);
        for (const other of el.parentElement.querySelectorAll("button.card")) {
          other.setAttribute("aria-pressed", String(chosen.includes(other.dataset.card)));
        }
      }));
    $("step-setup").replaceChildren(...parts);
    const lay = button("Lay these two away", "discard", () => {
      if (chosen.length !== 2) say(false, "Pick two cards first.");
      else send(chosen);
    }, "primary");
    $("step-controls").replaceChildren(lay, ...helpButtons(step));
    return;
  }
  const count = setup.pile.reduce((sum, card) => sum + pointsOf(card), 0);
  parts.push(cardsRow(`Laid so far (count ${count})`, setup.pile));
  parts.push(cardsRow("Your hand: pick the card to lay", setup.hand, (card) => send(card)));
  $("step-setup").replaceChildren(...parts);
  $("step-controls").replaceChildren(button("Go", "go", () => send("go")), ...helpButtons(step));
}

function cardsRow(label, cards, onPick) {
  const row = document.createElement("div");
  row.className = "cards-row";
  row.setAttribute("role", "group");
  row.setAttribute("aria-label", label);
  const title = document.createElement("span");
  title.textContent = `${label}:`;
  row.append(title);
  for (const card of cards) {
    const face = cardElement(card);
    if (!onPick) { row.append(face); continue; }
    const el = document.createElement("button");
    el.type = "button";
    el.className = face.className;
    el.dataset.card = card;
    el.innerHTML = face.innerHTML;
    el.setAttribute("aria-label", spoken(card));
    el.setAttribute("aria-pressed", "false");
    el.title = pretty(card);
    el.onclick = () => onPick(card, el);
    row.append(el);
  }
  return row;
}

// ----- shared: the typed answer, hints, the verdict ---------------------------------------
function button(text, id, onClick, cls = "") {
  const el = document.createElement("button");
  el.type = "button";
  el.id = `learn-${id}`;
  el.textContent = text;
  if (cls) el.className = cls;
  el.onclick = onClick;
  return el;
}

function typedForm(label, placeholder, type) {
  const form = document.createElement("form");
  form.id = "typed";
  const name = document.createElement("label");
  name.textContent = `${label} `;
  const input = document.createElement("input");
  input.type = type;
  input.id = "typed-answer";
  input.autocomplete = "off";
  if (type === "number") { input.min = "0"; input.max = "99"; input.inputMode = "numeric"; }
  input.placeholder = placeholder;
  name.append(input);
  const submit = document.createElement("button");
  submit.type = "submit";
  submit.textContent = "Check";
  submit.className = type === "number" ? "primary" : "";
  form.append(name, submit);
  form.onsubmit = (event) => {
    event.preventDefault();
    if (input.value.trim()) send(input.value.trim());
  };
  return form;
}

function helpButtons(step) {
  return [
    button("Hint", "hint", () => say(null, `Hint: ${step.hint}`)),
    button("Show me", "show", () => say(null, `One answer: ${step.intended}`)),
  ];
}

function say(ok, message, breakdown = []) {
  const box = $("verdict");
  const line = document.createElement("p");
  if (ok !== null) {
    const mark = document.createElement("span");
    mark.className = ok ? "good" : "bad";
    mark.textContent = ok ? "✓ Right. " : "✗ Not yet. ";
    line.append(mark);
  }
  line.append(message);
  const parts = document.createElement("ul");
  for (const text of breakdown) {
    const item = document.createElement("li");
    item.textContent = text;
    parts.append(item);
  }
  box.replaceChildren(line, ...(breakdown.length ? [parts] : []));
}

async function send(answer) {
  if (solved) return;
  const lesson = lessons[at.lesson];
  let verdict;
  try {
    verdict = await call("POST", `/api/learn/${game}/${lesson.id}/${at.step}`, { answer });
  } catch (error) {
    say(false, error.message);
    return;
  }
  say(verdict.ok, verdict.message, verdict.breakdown);
  if (!verdict.ok) return;
  solved = true;
  if (kings && verdict.tiles) {
    kings.placed = verdict.tiles;
    kings.rack = kings.rack.filter(() => true);
    drawKingsState();
  }
  const last = at.step + 1 >= lesson.steps.length;
  if (last) await finished(lesson);
  const next = $("next");
  next.textContent = !last ? "Next step" : at.lesson + 1 < lessons.length ? "Next lesson" : "Back to the first lesson";
  next.hidden = false;
  next.focus();
}

$("next").onclick = () => {
  const lesson = lessons[at.lesson];
  if (at.step + 1 < lesson.steps.length) open(at.lesson, at.step + 1);
  else open((at.lesson + 1) % lessons.length, 0);
  $("lesson-title").focus();
};

async function start() {
  document.title = `Learn ${TITLES[game]} · Kings Cribbage`;
  $("learn-title").textContent = `Learn ${TITLES[game]}`;
  $(`learn-${game}`).setAttribute("aria-current", "page");
  $("rules-link").href = `/rules/${game}`;
  const data = await call("GET", `/api/learn/${game}`);
  $("learn-goal").textContent = data.goal;
  lessons = data.lessons;
  const wanted = lessons.findIndex((lesson) => `#${lesson.id}` === location.hash);
  const unfinished = lessons.findIndex((lesson) => !progress[game].includes(lesson.id));
  open(wanted >= 0 ? wanted : Math.max(0, unfinished), 0);
  filled();
  await joinAccount();
}

start();
