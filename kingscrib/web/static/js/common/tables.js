// Small DOM helpers shared by the leaderboard, the player pages and the tournament pages.

export function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  if (className) node.className = className;
  return node;
}

// A table of ``rows`` (each a list of nodes or strings) under ``columns`` ([title, is a
// number]); ``hiddenCaption``: the caption is for screen readers (a heading shows it).
export function table(caption, columns, rows, { hiddenCaption = true } = {}) {
  const t = element("table", undefined, "players-table");
  t.append(element("caption", caption, hiddenCaption ? "sr-only" : undefined));
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
  // A wide table scrolls sideways inside its box on a phone; the page does not.
  // (Focusable, so that it can be scrolled from the keyboard too.)
  const box = element("div", undefined, "table-scroll");
  box.tabIndex = 0;
  box.setAttribute("role", "region");
  box.setAttribute("aria-label", caption);
  box.append(t);
  return box;
}
