// A tournament's page (/tournaments/<id>): its players, pairings by round with a link to
// every game, results, standings with their tie-breaks and team standings, refreshed every
// few seconds; joining, withdrawing, the creator's computer entrants, and the caller's own
// games (their seat, taken by the account's session: its token is kept where the game
// page looks for it).

import { $, call, describe, element, table, when, whoAmI } from "../common/tournaments.js";
import { filled } from "../common/layout.js";

const id = Number(location.pathname.split("/").pop());
const EVERY = 3000; // ms between two looks
let levels = null;
let shownActions = "";

function show(error) {
  $("error").textContent = error;
  $("error").hidden = !error;
}

const score = (p) => (p === null ? "playing" : p === 1 ? "1–0" : p === 0 ? "0–1" : "½–½");
const points = (p) => (Number.isInteger(p) ? String(p) : p.toFixed(1));

function gameLink(gameId, text) {
  const link = element("a", text);
  link.href = `/?game=${encodeURIComponent(gameId)}&watch=1`;
  return link;
}

async function act(path, body) {
  try {
    await call("POST", path, body);
    show("");
  } catch (e) { show(e.message); }
  shownActions = "";
  refresh();
}

async function actions(view) {
  const t = view.tournament;
  const you = view.you;
  const key = JSON.stringify([t.state, you && you.entered, t.creator]);
  if (key === shownActions) return;
  shownActions = key;
  const box = $("actions");
  box.replaceChildren();
  if (!you) {
    box.append(element("p", "Log in on the start page to join.", "note"));
    return;
  }
  if (t.state === "upcoming" && !you.entered && t.format !== "match") {
    const mine = (await call("GET", "/api/teams")).teams.filter((team) => team.members.includes(you.name));
    const team = element("select");
    team.setAttribute("aria-label", "Play for a team");
    team.append(element("option", "No team"));
    team.options[0].value = "";
    for (const m of mine) { const o = element("option", `For ${m.name}`); o.value = m.id; team.append(o); }
    const button = element("button", "Join", "primary");
    button.type = "button";
    button.id = "join";
    button.onclick = () => act(`/api/tournaments/${id}/join`, team.value ? { team_id: Number(team.value) } : undefined);
    box.append(team, button);
  }
  if (t.state !== "finished" && you.entered) {
    const button = element("button", "Withdraw");
    button.type = "button";
    button.id = "withdraw";
    button.onclick = () => act(`/api/tournaments/${id}/withdraw`);
    box.append(button);
  }
  if (t.state === "upcoming" && t.creator) {
    levels = levels || (await call("GET", `/api/ratings/${t.game}`)).levels;
    const pick = element("select");
    pick.id = "computer-level";
    pick.setAttribute("aria-label", "Computer level");
    for (const l of levels) { const o = element("option", `${l.title} (${l.rating})`); o.value = l.level; pick.append(o); }
    const button = element("button", "Enter a computer");
    button.type = "button";
    button.id = "add-computer";
    button.onclick = () => act(`/api/tournaments/${id}/computers`, { level: pick.value });
    box.append(pick, button);
  }
}

function yours(view) {
  const playing = (view.you && view.you.playing) || [];
  $("yours").hidden = !playing.length;
  $("your-games").replaceChildren(...playing.map((g) => {
    const item = element("li");
    const link = element("a", `Play your game (seat ${g.seat + 1})`, "primary");
    link.href = `/?game=${encodeURIComponent(g.game_id)}`;
    // The game page finds the seat's token here, as for any game this browser sits in.
    // Tokens are kept hashed on the server: a browser without one takes the seat by the
    // account's session (a new token; one given to another browser before stops working).
    const key = `kingscrib:token:${g.game_id}`;
    link.onclick = async (event) => {
      if (localStorage.getItem(key)) return;
      event.preventDefault();
      try {
        const seat = await call("POST", `/api/games/${encodeURIComponent(g.game_id)}/seat`);
        localStorage.setItem(key, seat.token);
        location.href = link.href;
      } catch (error) {
        show(error.message);
      }
    };
    item.append(link);
    return item;
  }));
}

function render(view) {
  const t = view.tournament;
  document.title = `${t.name} · Tournament`;
  $("title").textContent = t.name;
  const state = t.state === "upcoming" ? `starts ${when(t.starts)}` : t.state === "running" ? "running" : (t.note || "finished");
  $("facts").textContent = `${describe(t)} · ${state}`;
  $("standings").replaceChildren(view.standings.length ? table("Standings",
    [["#", true], ["Player", false], ["Points", true], ["Buchholz", true], ["S-B", true], ["Spread", true], ["W-D-L", false]],
    view.standings.map((s) => [String(s.place), s.name, points(s.points), points(s.buchholz),
      points(s.sonneborn_berger), String(s.spread), `${s.wins}-${s.draws}-${s.losses}${s.byes ? ` (+${s.byes} bye)` : ""}`]))
    : element("p", "No players yet.", "note"));
  $("team-box").hidden = !view.teams.length;
  // Equal points share a place and say so ("1 (tied)"): neither team is first.
  $("team-standings").replaceChildren(table(`Teams (best ${t.team_best} count)`, [["#", false], ["Team", false], ["Points", true], ["Counted", false]],
    view.teams.map((row) => [`${row.place}${row.tied ? " (tied)" : ""}`, row.team, points(row.points), row.counted.join(", ")])));
  $("rounds").replaceChildren(...(view.rounds.length ? view.rounds.slice().reverse().map((r) => {
    const box = element("section", undefined, "tourney-round");
    box.append(element("h3", t.format === "arena" ? `Pairing ${r.number}` : `Round ${r.number}`));
    box.append(table(`Round ${r.number}`, [["Game", false], ["Seat 1", false], ["Seat 2", false], ["Result", false]],
      r.games.map((g, i) => {
        const [first, second] = g.leg === 0 ? [g.a, g.b] : [g.b, g.a];
        const result = g.points_a === null ? score(null) : `${g.a} ${score(g.points_a)} ${g.b}${g.forfeit ? ` (${g.forfeit} did not show)` : ""}`;
        return [g.game_id ? gameLink(g.game_id, `Game ${i + 1}`) : element("span", "being made"), first, second, result];
      }), { stack: true }));
    if (r.bye) box.append(element("p", `Bye: ${r.bye}`, "note"));
    return box;
  }) : [element("p", "Not paired yet.", "note")]));
  $("players").replaceChildren(table("Players", [["Player", false], ["Rating", true], ["Team", false]],
    view.players.map((p) => [element("span", `${p.name}${p.members.length ? ` (${p.members.join(" & ")})` : ""}${p.withdrawn ? " (withdrawn)" : ""}`, p.withdrawn ? "withdrawn" : p.computer ? "computer" : undefined),
      p.rating === null ? "" : String(p.rating), p.team || ""]), { stack: true }));
  yours(view);
}

async function refresh() {
  try {
    const view = await call("GET", `/api/tournaments/${id}`);
    render(view);
    await actions(view);
  } catch (e) { show(e.message); }
}

await whoAmI();
await refresh();
filled();
setInterval(refresh, EVERY);
