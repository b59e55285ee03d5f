// The cribbage board, drawn in SVG: one track of 121 holes per player or team, two pegs
// each (front and back), the skunk lines, the game hole. The street runs out along the
// top half (holes 1-60) and back along the bottom half (61-120) to the game hole (121);
// on a narrow screen it folds into four rows of 30 (out, back, out, back), so the holes
// are twice as big. The double skunk line is drawn after hole 60 and the skunk line
// after hole 90: a side whose front peg has not passed a line at the end is skunked
// (under 61 / under 91).

const NS = "http://www.w3.org/2000/svg";
export const SIDE_COLOURS = ["#c0392b", "#2461b3", "#2e8b57"];
const STEP = 9; // between holes
const GROUP = 6; // extra gap after every five holes
const LANE = 13; // between tracks
const LEFT = 40; // room for the start and game holes

const laneX = (k) => LEFT + k * STEP + Math.floor(k / 5) * GROUP; // k = 0..59
const widthFor = (rows) => laneX(120 / rows - 1) + 28;
const blockOf = (tracks) => tracks * LANE + 16; // the height of one row of the street

function el(name, attrs = {}, text) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

// The centre of hole h (0 = start, 1-120 the street, 121 = game) of a track, the street
// folded into `rows` rows (2 or 4), each row running the other way from the last.
export function holeAt(track, tracks, h, rows = 2) {
  const top = 22;
  const per = 120 / rows;
  const block = blockOf(tracks);
  if (h <= 0) return { x: LEFT - 20, y: top + track * LANE };
  if (h >= 121) return { x: LEFT - 24, y: top + (rows - 1) * block - 8 + (tracks * LANE) / 2 - LANE / 2 };
  const row = Math.floor((h - 1) / per);
  const k = (h - 1) % per;
  const out = row % 2 === 0; // outward rows run left to right; the outer track stays outside
  return { x: laneX(out ? k : per - 1 - k), y: top + row * block + (out ? track : tracks - 1 - track) * LANE };
}

// sides: [{front, back, name, score}], lines: {skunk, double_skunk}
export function drawCribbageBoard(sides, { rows = 2 } = {}) {
  const tracks = sides.length;
  const width = widthFor(rows);
  const height = 22 + rows * blockOf(tracks) + 14;
  const at = (t, h) => holeAt(t, tracks, h, rows);
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, class: `cribboard rows-${rows}`,
    role: "img", "aria-label": "cribbage board" });
  svg.append(el("rect", { x: 1, y: 1, width: width - 2, height: height - 2, rx: 12,
    class: "wood" }));
  // the skunk lines, across the row of the hole after them, just before that hole
  const lineBefore = (h, label, cls) => {
    const per = 120 / rows;
    const dir = Math.floor((h - 1) / per) % 2 === 0 ? 1 : -1;
    const x = at(0, h).x - dir * STEP * 0.7;
    const ys = [...Array(tracks).keys()].map((t) => at(t, h).y);
    const y0 = Math.min(...ys) - 7;
    const y1 = Math.max(...ys) + 7;
    svg.append(el("line", { x1: x, x2: x, y1: y0, y2: y1, class: `skunk-line ${cls}` }));
    const text = el("text", { x, y: y1 + 11, class: "line-label" }, label);
    if (x > width - 40) text.style.textAnchor = "end"; // at the board's edge
    else if (x < LEFT + 20) text.style.textAnchor = "start";
    svg.append(text);
  };
  lineBefore(61, "double skunk", "double");
  lineBefore(91, "skunk", "single");
  // mile markers every ten holes along the first row
  for (let h = 10; h <= 120 / rows; h += 10) {
    const p = at(0, h);
    svg.append(el("text", { x: p.x, y: 12, class: "mark" }, String(h)));
  }
  const game = at(0, 121);
  svg.append(el("circle", { cx: game.x, cy: game.y, r: 4.5, class: "hole game" }));
  svg.append(el("text", { x: game.x - 6, y: game.y - 8, class: "mark" }, "121"));
  sides.forEach((side, t) => {
    const colour = SIDE_COLOURS[t % SIDE_COLOURS.length];
    for (let h = 0; h <= 120; h++) {
      const p = at(t, h);
      svg.append(el("circle", { cx: p.x, cy: p.y, r: h === 0 ? 3 : 2.6,
        class: h === 0 ? "hole start" : "hole", "data-track": t, "data-hole": h }));
    }
    const pegs = el("g", { class: "pegs", "data-side": t });
    for (const [which, value] of [["back", side.back], ["front", side.front]]) {
      if (which === "back" && value === side.front) continue;
      const p = at(t, value);
      pegs.append(el("circle", { cx: p.x, cy: p.y, r: which === "front" ? 5 : 4,
        fill: colour, class: `peg ${which}`, "data-score": value,
        "data-side": t }));
    }
    svg.append(pegs);
  });
  return svg;
}
