// Words for tiles, squares and turns: what a screen reader says and what the history shows.

import { rankText, isLight, isSixNine } from "./board.js";

const RANK_WORDS = { A: "ace", J: "jack", Q: "queen", K: "king" };

// "dark 7", "light ace", "light 6/9 showing 9".
export function tileName(tile, { sixNine = false } = {}) {
  const rank = rankText(tile);
  const word = RANK_WORDS[rank] || rank;
  const colour = isLight(tile) ? "light" : "dark";
  return sixNine && isSixNine(tile) ? `${colour} 6/9 showing ${word}` : `${colour} ${word}`;
}

// People's notation (kingscrib/people.py writes the same on the server): a tile is its
// colour and rank in words, "light ace", "dark 10"; a tile on a square "dark 10 at G7".
export const placementText = (square, tile) => `${tileName(tile)} at ${square}`;
export const placementsText = (tiles) => Object.entries(tiles).map(([s, t]) => placementText(s, t)).join(", ");

// The engine writes a ten as T in its hands ("T555K = 20"); players read 10.
export function spellBreakdown(describe) {
  return describe.split("; ").map((part) => {
    const match = /^([A2-9TJQK]+) = (.*)$/.exec(part);
    if (!match) return part;
    return `${[...match[1]].map((r) => (r === "T" ? "10" : r)).join(" ")} = ${match[2]}`;
  }).join("; ");
}

// One line per turn, for the history and the live announcements.
export function turnText(turn, seatName) {
  let text = `${seatName(turn.seat)} `;
  if (turn.action === "play") {
    const tiles = placementsText(turn.tiles);
    const points = turn.score !== undefined ? turn.score : "?";
    text += `played ${tiles}: ${points}`;
    if (turn.overclaim) text += ` (claimed ${turn.claimed}: ${turn.overclaim.points} to ${seatName(turn.overclaim.player)})`;
    else if (turn.claimed !== undefined) text += ` (claimed ${turn.claimed})`;
  } else if (turn.action === "exchange") {
    text += `exchanged ${turn.count} tile${turn.count === 1 ? "" : "s"}`;
  } else {
    text += "passed";
  }
  return text;
}

// A claim above the play's value, as corrected once made (docs/rules.md): "You claimed
// 14; the play is worth 12: 2 go to Bob." ``you``: the seat reading it, if any.
export function overclaimText(turn, seatName, you = null) {
  const name = (seat) => (seat === you ? "you" : seatName(seat));
  const who = turn.seat === you ? "You" : seatName(turn.seat);
  const n = turn.overclaim.points;
  return `${who} claimed ${turn.claimed}; the play is worth ${turn.score}: ${n} go${n === 1 ? "es" : ""} to ${name(turn.overclaim.player)}.`;
}

// The same turn as a sentence to be heard: "Ann played G7 dark 7, H7 light 8 for 12 points."
export function turnSpoken(turn, seatName) {
  if (turn.action !== "play") return `${turnText(turn, seatName)}.`;
  const tiles = placementsText(turn.tiles);
  const points = turn.score !== undefined ? ` for ${turn.score} point${turn.score === 1 ? "" : "s"}` : "";
  const over = turn.overclaim ? ` ${overclaimText(turn, seatName)}` : "";
  return `${seatName(turn.seat)} played ${tiles}${points}.${over}`;
}
