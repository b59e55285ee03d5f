// Dragging a tile or a card with a finger, a pen or a mouse, through Pointer Events:
// HTML5 drag and drop never fires on touch screens. A copy of the element follows the
// pointer; where it is let go decides the drop. A press without a move stays a click
// (tap a tile, then a square, works as before).

const THRESHOLD = 6; // px the pointer moves before a press becomes a drag

// drop(x, y) is called where the element was let go and returns whether it was taken;
// over(x, y) (optional) lets the page mark the target under the pointer while it moves.
export function draggable(el, { enabled = () => true, over = () => {}, drop }) {
  el.classList.add("pointer-drag");
  let start = null;
  let ghost = null;

  const finish = () => {
    ghost?.remove();
    ghost = null;
    start = null;
    el.classList.remove("dragging");
    over(null, null);
  };

  el.addEventListener("pointerdown", (e) => {
    if (!e.isPrimary || e.button !== 0 || !enabled()) return;
    start = { x: e.clientX, y: e.clientY, id: e.pointerId };
    // Every move of this pointer comes here, even off the element (a mouse is not captured
    // by itself, a finger is).
    el.setPointerCapture?.(e.pointerId);
  });

  el.addEventListener("pointermove", (e) => {
    if (!start || e.pointerId !== start.id) return;
    if (!ghost) {
      if (Math.hypot(e.clientX - start.x, e.clientY - start.y) < THRESHOLD) return;
      const box = el.getBoundingClientRect();
      ghost = el.cloneNode(true);
      ghost.removeAttribute("id");
      ghost.classList.add("drag-ghost");
      ghost.setAttribute("aria-hidden", "true");
      ghost.style.width = `${box.width}px`;
      ghost.style.height = `${box.height}px`;
      document.body.append(ghost);
      el.classList.add("dragging");
    }
    e.preventDefault();
    ghost.style.left = `${e.clientX}px`;
    ghost.style.top = `${e.clientY}px`;
    over(e.clientX, e.clientY);
  });

  el.addEventListener("pointerup", (e) => {
    if (!start || e.pointerId !== start.id) return;
    const dragged = ghost !== null;
    finish();
    if (!dragged) return; // a tap or a click: the click handler does the rest
    // The click that follows a drag (a mouse's) is not a click on the element.
    const swallow = (c) => { c.stopImmediatePropagation(); c.preventDefault(); };
    el.addEventListener("click", swallow, { capture: true, once: true });
    setTimeout(() => el.removeEventListener("click", swallow, { capture: true }), 100);
    drop(e.clientX, e.clientY);
  });

  el.addEventListener("pointercancel", finish);
}

// The element under a point that matches `selector` (the ghost lets the pointer through).
export function targetAt(x, y, selector) {
  if (x === null || y === null) return null;
  return document.elementFromPoint(x, y)?.closest(selector) ?? null;
}
