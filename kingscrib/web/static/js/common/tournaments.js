// Shared by the tournament pages: the logged-in account (its CSRF token for writes),
// JSON calls, small DOM helpers and how a tournament's settings read.

export const $ = (id) => document.getElementById(id);
export let me = { name: null };

export async function whoAmI() {
  me = await call("GET", "/api/account").catch(() => ({ name: null }));
  return me;
}

export async function call(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  if (me.csrf) headers["X-CSRF-Token"] = me.csrf;
  const response = await fetch(path, {
    method, headers, credentials: "same-origin", body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(data.error || `error ${response.status}`);
  return data;
}

export { element, table } from "./tables.js";

const FORMATS = { swiss: "Swiss", round_robin: "Round robin", arena: "Arena", match: "Team match" };
const GAMES = { kings: "Kings Cribbage", cribbage: "Cribbage" };

export function describe(t) {
  const parts = [GAMES[t.game] || t.game, FORMATS[t.format] || t.format];
  if (t.format === "swiss") parts.push(`${t.rounds} rounds`);
  if (t.format === "arena") parts.push(`${t.minutes} minutes`);
  parts.push(t.rated ? "rated" : "casual");
  parts.push(t.clock_seconds ? `${Math.round(t.clock_seconds / 60)} min clock` : "no clock");
  if (t.mirrored) parts.push("mirrored pairs");
  if (t.partners) parts.push("partnerships");
  if (t.min_rating != null || t.max_rating != null) parts.push(`ratings ${t.min_rating ?? "any"}–${t.max_rating ?? "any"}`);
  parts.push(`up to ${t.max_players} players`);
  return parts.join(" · ");
}

export function when(seconds) {
  return new Date(seconds * 1000).toLocaleString();
}
