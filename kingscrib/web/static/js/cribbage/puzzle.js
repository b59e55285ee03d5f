// A Cribbage puzzle: the hand, the crib and the play drawn as at the table
// (cribbage/cards.js): pick two cards and lay them away (click, Enter/Space, or drag them
// to the crib), or lay one card (click it, press it, or drag it to the play).

import { backElement, byRank, cardElement, pointsOf, pretty } from "./cards.js";
import { draggable, targetAt } from "../common/drag.js";

const $ = (id) => document.getElementById(id);
let puzzle = null;
let answer = null;
let open = false;
let chosen = new Set();
let best = new Set(); // the best answer's cards, lit after answering

const discarding = () => puzzle.kind === "best-discard";
const count = () => puzzle.position.pile.reduce((n, c) => n + pointsOf(c), 0);
const crib = () => (puzzle.position.dealer ? "your" : "their");

export function show(shown, onAnswer) {
  puzzle = shown;
  answer = onAnswer;
  open = true;
  chosen = new Set();
  best = new Set();
  $("p-cards").hidden = false;
  $("c-discard").onclick = () => { if (chosen.size === 2) send({ action: "discard", cards: [...chosen] }); };
  draw();
}

export function hide() { open = false; $("p-cards").hidden = true; }

export function showBest(move) {
  open = false;
  best = new Set(move.action === "discard" ? move.cards : [move.card]);
  draw();
}

function send(move) { if (open) answer(move); }

function clickCard(card) {
  if (!open) return;
  if (discarding()) {
    if (chosen.has(card)) chosen.delete(card);
    else if (chosen.size < 2) chosen.add(card);
    draw();
    return;
  }
  const total = count() + pointsOf(card);
  if (total > 31) { $("p-message").textContent = `${pretty(card)} would take the count to ${total}, past 31`; return; }
  send({ action: "play", card });
}

function dropZone(x, y) {
  return discarding() ? targetAt(x, y, ".c-crib-pile") : targetAt(x, y, "#c-play");
}

function markZone(zone) {
  for (const el of document.querySelectorAll("#c-play, .c-crib-pile")) el.classList.toggle("drop", el === zone);
}

function dropCard(card, x, y) {
  if (!dropZone(x, y)) return;
  if (!discarding()) { clickCard(card); return; }
  chosen.add(card);
  if (chosen.size > 2) chosen = new Set([...chosen].slice(-2));
  if (chosen.size === 2) send({ action: "discard", cards: [...chosen] });
  else draw();
}

function draw() {
  const pos = puzzle.position;
  $("p-starter-pile").hidden = discarding();
  $("c-play").hidden = discarding();
  if (!discarding()) $("c-starter").replaceChildren(cardElement(pos.starter));
  const cribEl = $("c-crib");
  cribEl.replaceChildren();
  const laidAway = discarding() ? (open ? [] : [...best]) : pos.discards;
  for (const card of laidAway) cribEl.append(cardElement(card, { small: true }));
  if (!laidAway.length) cribEl.append(backElement({ small: true }));
  $("c-crib-label").textContent = `${crib()[0].toUpperCase()}${crib().slice(1)} crib`;
  $("c-count").textContent = discarding() ? "" : `Count: ${count()}`;
  const series = $("c-series");
  series.replaceChildren();
  if (!discarding()) {
    const earlier = pos.played.slice(0, pos.played.length - pos.pile.length);
    for (const [, card] of earlier) {
      const c = cardElement(card, { small: true });
      c.classList.add("old");
      series.append(c);
    }
    for (const [who, card] of pos.played.slice(pos.played.length - pos.pile.length)) {
      const wrap = document.createElement("div");
      wrap.className = "laid";
      const label = document.createElement("span");
      label.textContent = who === "me" ? "You" : "Them";
      wrap.append(cardElement(card), label);
      series.append(wrap);
    }
  }
  $("p-opponent").textContent = discarding()
    ? `You ${pos.dealer ? "deal: the crib is yours" : "do not deal: the crib is theirs"}. Two players.`
    : `They hold ${pos.opponent_cards} card${pos.opponent_cards === 1 ? "" : "s"}; ${pos.dealer ? "the crib is yours" : "the crib is theirs"}.`;
  const hand = $("c-hand");
  hand.replaceChildren();
  for (const card of [...pos.hand].sort(byRank)) {
    const el = cardElement(card);
    const playable = !discarding() && count() + pointsOf(card) <= 31;
    if (chosen.has(card)) el.classList.add("chosen");
    if (playable && open) el.classList.add("playable");
    if (best.has(card)) { el.classList.add("lit"); el.setAttribute("aria-description", "the best answer"); }
    draggable(el, {
      enabled: () => open,
      over: (x, y) => markZone(dropZone(x, y)),
      drop: (x, y) => dropCard(card, x, y),
    });
    el.addEventListener("click", () => { clickCard(card); hand.querySelector(`[data-card="${card}"]`)?.focus(); });
    if (open) {
      el.setAttribute("role", "button");
      el.tabIndex = 0;
      if (discarding()) el.setAttribute("aria-pressed", String(chosen.has(card)));
      el.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); el.click(); }
      });
    }
    hand.append(el);
  }
  $("c-discard").hidden = !discarding() || !open;
  $("c-discard").disabled = chosen.size !== 2;
  $("c-discard").textContent = `Lay these cards away to ${crib()} crib`;
}
