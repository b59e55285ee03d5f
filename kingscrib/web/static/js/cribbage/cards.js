// Playing cards as elements: rank and suit symbol, red or black, or a face-down back.

export const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const RANKS = "A23456789TJQK";

export const rankOf = (card) => RANKS.indexOf(card[0]) + 1;
export const rankText = (card) => (card[0] === "T" ? "10" : card[0]);
export const pretty = (card) => `${rankText(card)}${SUITS[card[1]]}`;
export const pointsOf = (card) => Math.min(10, rankOf(card));
export const byRank = (a, b) => rankOf(a) - rankOf(b) || "CDHS".indexOf(a[1]) - "CDHS".indexOf(b[1]);

const SUIT_WORDS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANK_WORDS = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };
// What a screen reader says: "7 of hearts", "queen of spades".
export const spoken = (card) => `${RANK_WORDS[card[0]] || card[0]} of ${SUIT_WORDS[card[1]]}`;

export function cardElement(card, { small = false } = {}) {
  const el = document.createElement("div");
  const red = card[1] === "D" || card[1] === "H";
  el.className = `card ${red ? "red" : "black"}${small ? " small" : ""}`;
  el.dataset.card = card;
  el.title = pretty(card);
  el.innerHTML = `<span class="corner">${rankText(card)}<br>${SUITS[card[1]]}</span>`
    + `<span class="pip">${SUITS[card[1]]}</span>`;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", spoken(card));
  for (const child of el.children) child.setAttribute("aria-hidden", "true");
  return el;
}

export function backElement({ small = false } = {}) {
  const el = document.createElement("div");
  el.className = `card back${small ? " small" : ""}`;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", "a face-down card");
  return el;
}
