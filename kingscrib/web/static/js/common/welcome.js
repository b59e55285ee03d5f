// A first visit to the start page suggests the tutorial, once: the visit is remembered
// in this browser, and "No thanks" hides the suggestion at once.

const KEY = "kingscrib:welcomed";
const box = document.getElementById("learn-suggest");

// Only on the start page itself: a first visit by an invitation opens a game instead.
if (box && !location.search && !localStorage.getItem(KEY)) {
  localStorage.setItem(KEY, "1");
  box.hidden = false;
  document.getElementById("learn-suggest-close").onclick = () => { box.hidden = true; };
}
