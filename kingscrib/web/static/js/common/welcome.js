// The start page suggests the lessons until the player says "No thanks" or finishes a
// lesson of either game (the lessons page keeps those in "kingscrib:learn", see
// js/pages/learn.js); both are remembered in this browser.

import { filled } from "./layout.js";

export const DISMISSED = "kingscrib:learn-suggest";
const LESSONS = "kingscrib:learn";

export function finishedALesson(stored = localStorage.getItem(LESSONS)) {
  try {
    const progress = JSON.parse(stored || "{}");
    return Object.values(progress).some((ids) => Array.isArray(ids) && ids.length > 0);
  } catch {
    return false; // a damaged entry: as if nothing was finished
  }
}

const box = document.getElementById("learn-suggest");

// Only on the start page itself (its place is kept, invisible, until this decides): a
// first visit by an invitation opens a game instead.
if (box) {
  const wanted = !location.search && !localStorage.getItem(DISMISSED) && !finishedALesson();
  box.hidden = !wanted;
  filled(box);
  document.getElementById("learn-suggest-close").onclick = () => {
    localStorage.setItem(DISMISSED, "1");
    box.hidden = true;
  };
}
