// The leaderboard (/leaderboard): the best rated players of each game (provisional
// ratings marked) and the computer levels' fixed ratings, from GET /api/ratings/<game>.

const $ = (id) => document.getElementById(id);

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function table(caption, columns, rows) {
  const t = element("table", undefined, "players-table");
  t.append(element("caption", caption));
  const head = element("tr");
  for (const [title, number] of columns) {
    const th = element("th", title, number ? "number" : undefined);
    th.scope = "col";
    head.append(th);
  }
  const thead = element("thead");
  thead.append(head);
  t.append(thead);
  const body = element("tbody");
  for (const cells of rows) {
    const row = element("tr");
    cells.forEach((cell, i) => {
      const td = element("td", undefined, columns[i][1] ? "number" : undefined);
      td.append(cell);
      row.append(td);
    });
    body.append(row);
  }
  t.append(body);
  return t;
}

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
    for (const game of ["kings", "classic"]) {
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
}

start();
