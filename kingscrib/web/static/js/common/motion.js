// Things that move on the table glide rather than jump (FLIP: First, Last, Invert, Play).
// Before a render the page notes where each keyed element is; after it, an element whose
// key is still there but elsewhere starts at its old place and slides to the new one.
// Nothing moves for a reader who asked the system for reduced motion.

const reduced = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;
const DURATION = 320;

// key -> rectangle on screen (or, for SVG circles, the centre in the drawing's units).
export function snapshot(root, selector, keyOf) {
  const places = new Map();
  if (reduced()) return places;
  for (const el of root.querySelectorAll(selector)) {
    const key = keyOf(el);
    if (key !== null && key !== undefined) places.set(key, placeOf(el));
  }
  return places;
}

export function glide(root, selector, keyOf, before) {
  if (!before.size || reduced()) return;
  for (const el of root.querySelectorAll(selector)) {
    const old = before.get(keyOf(el));
    if (!old) continue;
    const now = placeOf(el);
    const dx = old.x - now.x;
    const dy = old.y - now.y;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }],
      { duration: DURATION, easing: "cubic-bezier(.2, .7, .3, 1)" });
  }
}

// A fresh element (a tile another player laid) settles into place instead of popping up.
export function arrive(el) {
  if (reduced()) return;
  el.animate([{ transform: "scale(1.35)", opacity: 0 }, { transform: "scale(1)", opacity: 1 }],
    { duration: DURATION, easing: "ease-out" });
}

function placeOf(el) {
  if (el instanceof SVGCircleElement) return { x: el.cx.baseVal.value, y: el.cy.baseVal.value };
  const r = el.getBoundingClientRect();
  return { x: r.left + window.scrollX, y: r.top + window.scrollY };
}
