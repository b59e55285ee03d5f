// Small DOM helpers shared by the leaderboard, the player pages and the tournament pages.

export function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  if (className) node.className = className;
  return node;
}

// A table of ``rows`` (each a list of nodes or strings) under ``columns`` ([title, is a
// number]); ``hiddenCaption``: the caption is for screen readers (a heading shows it);
// ``stack``: on a phone each row becomes a card of lines, each named by its column
// (a list read row by row); otherwise the table scrolls sideways in its box.
export function table(caption, columns, rows, { hiddenCaption = true, stack = false } = {}) {
  const t = element("table", undefined, stack ? "players-table stack-table" : "players-table");
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
      if (stack && columns[i][0]) td.dataset.label = columns[i][0];
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
  // The line that says there is more to the side, shown only while there is.
  const hint = element("p", "Scroll sideways for more →", "scroll-hint");
  hint.hidden = true;
  const wrap = element("div", undefined, "table-wrap");
  wrap.append(hint, box);
  const measure = () => {
    hint.hidden = box.scrollWidth <= box.clientWidth + 1;
    box.classList.toggle("overflows", !hint.hidden); // a shadow on the right edge too
  };
  new ResizeObserver(measure).observe(box);
  return wrap;
}
