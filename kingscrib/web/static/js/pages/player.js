// A player's public page (/players/<name>): ratings with their history as an inline SVG
// chart, games played, won, drawn and lost per game, recent games with links to their
// replay and analysis, and the archive searched by opponent, game, result and dates.
// Everything comes from GET /api/players/<name> and /api/players/<name>/games.

import { filled } from "../common/layout.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const name = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const api = `/api/players/${encodeURIComponent(name)}`;
let page = 1;

async function get(path) {
  const response = await fetch(path, { credentials: "same-origin" });
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(data.error || `error ${response.status}`);
  return data;
}

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function svg(tag, attributes, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

function day(seconds) {
  return new Date(seconds * 1000).toISOString().slice(0, 10);
}

// The rating after each rated game, from the first (a newcomer's 1500 before it).
function chart(title, history) {
  const width = 320, height = 140, left = 40, right = 8, top = 10, bottom = 22;
  const points = [{ rating: 1500 }, ...history];
  const values = points.map((p) => p.rating);
  const low = Math.floor((Math.min(...values) - 20) / 50) * 50;
  const high = Math.ceil((Math.max(...values) + 20) / 50) * 50;
  const x = (i) => left + (i * (width - left - right)) / Math.max(1, points.length - 1);
  const y = (r) => top + ((high - r) * (height - top - bottom)) / (high - low);
  const label = `${title}: rating after each rated game, from ${values[0]} to ${values[values.length - 1]}`;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "rating-chart", role: "img", "aria-label": label });
  root.append(svg("title", {}, label));
  for (const r of [low, high]) {
    root.append(svg("line", { x1: left, x2: width - right, y1: y(r), y2: y(r), class: "axis" }));
    root.append(svg("text", { x: 2, y: y(r) + 4 }, r));
  }
  root.append(svg("text", { x: left, y: height - 6 }, "games →"));
  root.append(svg("polyline", { class: "line", points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" ") }));
  points.forEach((p, i) => root.append(svg("circle", { class: "dot", cx: x(i), cy: y(p.rating), r: 2.5 })));
  return root;
}

function ratingCard(game) {
  const card = element("section", undefined, "rating-card");
  card.append(element("h3", game.title));
  const shown = game.rating === null ? "unrated" : `${game.rating}${game.provisional ? "?" : ""}`;
  const big = element("p", shown, "rating-big");
  if (game.rating !== null) big.append(element("span", ` ±${game.deviation}`));
  card.append(big);
  card.append(element("p", `${game.played} played: ${game.won} won, ${game.drawn} drawn, ${game.lost} lost`
    + (game.rated_games ? ` (${game.rated_games} rated)` : "")));
  if (game.history.length) card.append(chart(game.title, game.history));
  return card;
}

const ORDINALS = ["1st", "2nd", "3rd", "4th"];

// "lost by resignation", "2nd of 4" (a place between first and last of three or four
// sides moves a rating up as well as down), "won on time"; else won, drawn or lost.
function resultText(g) {
  if (g.ended_by === "resigned") return `${g.result} by resignation`;
  if (g.ended_by === "time") return `${g.result} on time`;
  if (g.sides > 2 && g.result !== "drawn") return `${ORDINALS[g.place] || `${g.place + 1}th`} of ${g.sides}`;
  return g.result;
}

// Each side's players, partners together ("Ann and Cat v Bob and Dan"); another account's
// name links to its profile.
function playersCell(g) {
  const cell = element("td");
  const sides = [...new Set(g.players.map((p) => p.side))];
  sides.forEach((side, n) => {
    if (n) cell.append(sides.length > 2 || g.players.length === sides.length ? ", " : " v ");
    g.players.forEach((p, i) => {
      if (p.side !== side) return;
      if (g.players.filter((q, j) => q.side === side && j < i).length) cell.append(" and ");
      const text = p.computer ? `${p.name} (computer)` : p.name;
      const who = p.account && i !== g.seat ? element("a", text) : element("span", text, p.computer ? "computer" : undefined);
      if (who.tagName === "A") who.href = `/players/${encodeURIComponent(p.name)}`;
      if (i === g.seat) who.append(" (this player)");
      cell.append(who);
    });
  });
  return cell;
}

function gamesTable(games, caption) {
  if (!games.length) return element("p", "No games.", "note");
  const table = element("table", undefined, "players-table games-table");
  table.append(element("caption", caption));
  const head = element("tr");
  for (const h of ["Date", "Game", "Players", "Result", "Rating", "Links"]) {
    const th = element("th", h);
    th.scope = "col";
    head.append(th);
  }
  const thead = element("thead");
  thead.append(head);
  table.append(thead);
  const body = element("tbody");
  for (const g of games) {
    const row = element("tr");
    row.append(element("td", day(g.at)));
    row.append(element("td", g.title + (g.rated ? " (rated)" : "")));
    row.append(playersCell(g));
    const score = g.score === null ? "" : `, ${g.score} points`;
    row.append(element("td", `${resultText(g)}${score}`, `result-${g.result}`));
    const change = g.change === null ? "" : `${g.rating} (${g.change >= 0 ? "+" : ""}${g.change})`;
    row.append(element("td", change));
    const links = element("td");
    const replay = element("a", "Replay");
    replay.href = `/?replay=${encodeURIComponent(g.game_id)}`;
    const analysis = element("a", "Analysis");
    analysis.href = `/?replay=${encodeURIComponent(g.game_id)}#r-analysis`;
    links.append(replay, " · ", analysis);
    row.append(links);
    body.append(row);
  }
  table.append(body);
  return table;
}

async function search(event) {
  event?.preventDefault();
  const query = new URLSearchParams();
  for (const field of ["opponent", "game", "result", "since", "until"]) {
    const value = $(`search-${field}`).value.trim();
    if (value) query.set(field, value);
  }
  query.set("page", String(page));
  try {
    const found = await get(`${api}/games?${query}`);
    $("archive-status").textContent = `${found.total} game${found.total === 1 ? "" : "s"} found.`;
    $("archive-games").replaceChildren(gamesTable(found.games, "Games found, newest first"));
    $("archive-newer").hidden = page <= 1;
    $("archive-older").hidden = page * found.page_size >= found.total;
  } catch (error) {
    $("archive-status").textContent = error.message;
    $("archive-games").replaceChildren();
  }
}

async function start() {
  document.title = `${name} · Kings Cribbage`;
  $("player-name").textContent = name;
  let profile;
  try { profile = await get(api); } catch (error) {
    $("player-error").textContent = error.message;
    $("player-error").hidden = false;
    // Nobody to show: the message alone, no empty ratings, games or archive.
    for (const section of document.querySelectorAll("main section")) section.hidden = true;
    filled();
    return;
  }
  $("player-name").textContent = profile.name;
  document.title = `${profile.name} · Kings Cribbage`;
  $("rating-cards").replaceChildren(...Object.values(profile.games).map(ratingCard));
  $("recent-games").replaceChildren(gamesTable(profile.recent, "The latest games, newest first"));
  filled();
  $("archive-form").addEventListener("submit", (event) => { page = 1; search(event); });
  $("archive-newer").addEventListener("click", () => { page -= 1; search(); });
  $("archive-older").addEventListener("click", () => { page += 1; search(); });
  search();
}

start();
