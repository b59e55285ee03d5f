// The cribbage board, drawn in SVG: one track of 121 holes per player or team, two pegs
// each (front and back), the skunk lines, the game hole. The street runs out along the
// top half (holes 1-60) and back along the bottom half (61-120) to the game hole (121).
// The double skunk line is drawn after hole 60 and the skunk line after hole 90: a side
// whose front peg has not passed a line at the end is skunked (under 61 / under 91).

const NS = "http://www.w3.org/2000/svg";
export const SIDE_COLOURS = ["#c0392b", "#2461b3", "#2e8b57"];
const STEP = 9; // between holes
const GROUP = 6; // extra gap after every five holes
const LANE = 13; // between tracks
const LEFT = 40; // room for the start and game holes

const laneX = (k) => LEFT + k * STEP + Math.floor(k / 5) * GROUP; // k = 0..59
const WIDTH = laneX(59) + 28;

function el(name, attrs = {}, text) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

// The centre of hole h (0 = start, 1-120 the street, 121 = game) of a track.
export function holeAt(track, tracks, h) {
  const top = 22;
  const half = tracks * LANE + 16;
  if (h <= 0) return { x: LEFT - 20, y: top + track * LANE };
  if (h >= 121) return { x: LEFT - 24, y: top + half - 8 + (tracks * LANE) / 2 - LANE / 2 };
  if (h <= 60) return { x: laneX(h - 1), y: top + track * LANE };
  const k = h - 61; // back along the bottom, right to left; the outer track stays outside
  return { x: laneX(59 - k), y: top + half + (tracks - 1 - track) * LANE };
}

// sides: [{front, back, name, score}], lines: {skunk, double_skunk}
export function drawCribbageBoard(sides) {
  const tracks = sides.length;
  const height = 22 + 2 * (tracks * LANE + 16) + 14;
  const svg = el("svg", { viewBox: `0 0 ${WIDTH} ${height}`, class: "cribboard",
    role: "img", "aria-label": "cribbage board" });
  svg.append(el("rect", { x: 1, y: 1, width: WIDTH - 2, height: height - 2, rx: 12,
    class: "wood" }));
  // the skunk lines, across the bottom half: after hole 60 (at the turn) and after 90
  const y0 = holeAt(tracks - 1, tracks, 61).y - 7;
  const y1 = holeAt(0, tracks, 61).y + 7;
  const lineAt = (x, label, cls) => {
    svg.append(el("line", { x1: x, x2: x, y1: y0, y2: y1, class: `skunk-line ${cls}` }));
    const text = el("text", { x, y: y1 + 11, class: "line-label" }, label);
    if (cls === "double") text.style.textAnchor = "end"; // at the board's edge
    svg.append(text);
  };
  lineAt(holeAt(0, tracks, 61).x + STEP * 0.8, "double skunk", "double");
  lineAt((holeAt(0, tracks, 90).x + holeAt(0, tracks, 91).x) / 2, "skunk", "single");
  // mile markers every ten holes
  for (const h of [10, 20, 30, 40, 50, 60]) {
    const p = holeAt(0, tracks, h);
    svg.append(el("text", { x: p.x, y: 12, class: "mark" }, String(h)));
  }
  const game = holeAt(0, tracks, 121);
  svg.append(el("circle", { cx: game.x, cy: game.y, r: 4.5, class: "hole game" }));
  svg.append(el("text", { x: game.x - 6, y: game.y - 8, class: "mark" }, "121"));
  sides.forEach((side, t) => {
    const colour = SIDE_COLOURS[t % SIDE_COLOURS.length];
    for (let h = 0; h <= 120; h++) {
      const p = holeAt(t, tracks, h);
      svg.append(el("circle", { cx: p.x, cy: p.y, r: h === 0 ? 3 : 2.3,
        class: h === 0 ? "hole start" : "hole", "data-track": t, "data-hole": h }));
    }
    const pegs = el("g", { class: "pegs", "data-side": t });
    for (const [which, value] of [["back", side.back], ["front", side.front]]) {
      if (which === "back" && value === side.front) continue;
      const p = holeAt(t, tracks, value);
      pegs.append(el("circle", { cx: p.x, cy: p.y, r: which === "front" ? 5 : 4,
        fill: colour, class: `peg ${which}`, "data-score": value,
        "data-side": t }));
    }
    svg.append(pegs);
  });
  return svg;
}
