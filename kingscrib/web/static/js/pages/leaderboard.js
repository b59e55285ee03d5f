// The leaderboard (/leaderboard): the best rated players of each game (provisional
// ratings marked) and the computer levels' fixed ratings, from GET /api/ratings/<game>.

import { element, table as sharedTable } from "../common/tables.js";
import { filled } from "../common/layout.js";

const $ = (id) => document.getElementById(id);
const table = (caption, columns, rows) => sharedTable(caption, columns, rows, { hiddenCaption: false });

function board(data) {
  const box = element("section", undefined, "rating-board");
  const id = `rating-board-${data.game}`;
  box.setAttribute("aria-labelledby", id);
  const title = element("h2", data.title);
  title.id = id;
  box.append(title);
  if (data.players.length) {
    box.append(table(`${data.title}: rated players, best first`,
      [["#", true], ["Player", false], ["Rating", true], ["Games", true]],
      data.players.map((p) => {
        const link = element("a", p.name);
        link.href = `/players/${encodeURIComponent(p.name)}`;
        const rating = `${p.rating}${p.provisional ? "?" : ""} ±${p.deviation}`;
        return [String(p.rank), link, rating, String(p.games)];
      })));
  } else {
    box.append(element("p", "No rated games yet.", "note"));
  }
  box.append(table(`${data.title}: computer levels (fixed ratings)`,
    [["Level", false], ["Rating", true], ["How it plays", false]],
    data.levels.map((l) => [l.title, `${l.rating} ±${l.deviation}`, l.line])));
  return box;
}

async function start() {
  try {
    const boards = [];
    for (const game of ["kings", "cribbage"]) {
      const response = await fetch(`/api/ratings/${game}`);
      const data = await response.json();
      if (!response.ok) throw new Error(data.error || `error ${response.status}`);
      boards.push(board(data));
    }
    $("boards").replaceChildren(...boards);
  } catch (error) {
    $("board-error").textContent = error.message;
    $("board-error").hidden = false;
  }
  filled();
}

start();
