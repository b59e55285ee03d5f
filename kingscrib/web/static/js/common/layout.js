// What every page's layout (kingscrib/web/templates/layout.html) holds: the header's
// account (the name leading to the profile, or Log in / Sign up), the live status and
// the colour theme button.

import { bindThemeToggle } from "./theme.js";

const $ = (id) => document.getElementById(id);

bindThemeToggle($("theme"));

// The account in the header: a member's name leads to the profile; a guest is offered
// Log in and Sign up (the start page's account panel). The start page's panel says
// when someone logs in or out ("kingscrib:account").
export function showAccount(name) {
  const member = typeof name === "string" && name !== "";
  $("site-me").hidden = !member;
  $("site-guest").hidden = member;
  if (member) {
    $("site-me-name").textContent = name;
    $("site-me").href = `/players/${encodeURIComponent(name)}`;
  }
}
document.addEventListener("kingscrib:account", (event) => showAccount(event.detail.name));

// The live status: the dot's class is "online" while the page's live connection (the
// lobby's, a game's) is open, or, on a page without one, once the server has answered;
// "offline" when it is lost. The dot is never the only sign: its words say the same.
const WORDS = { online: "live", offline: "offline: reconnecting" };
function sayConnection() {
  const dot = $("connection");
  const state = dot.classList.contains("online") ? "online" : dot.classList.contains("offline") ? "offline" : "";
  const words = WORDS[state] || "connecting";
  dot.querySelector(".connection-word").textContent = words;
  dot.title = words;
}
new MutationObserver(sayConnection).observe($("connection"), { attributes: true, attributeFilter: ["class"] });

// A part of a page drawn from the server's data keeps its place invisible
// ([data-filling], style.css) until the page's script has drawn it, so that nothing
// shown moves as it arrives; shown anyway after a few seconds if that script fails.
export function filled(...parts) {
  const all = parts.length ? parts : document.querySelectorAll("[data-filling]");
  for (const part of all) part.removeAttribute("data-filling");
}
setTimeout(() => filled(), 4000);

export function setConnection(online) {
  $("connection").className = `connection ${online ? "online" : "offline"}`;
}

fetch("/api/account", { credentials: "same-origin" })
  .then((response) => (response.ok ? response.json() : { name: null }))
  .then((me) => {
    showAccount(me.name);
    // A page with a live connection of its own (the lobby, a table) sets the dot itself.
    if (!$("connection").classList.contains("offline")) $("connection").classList.add("online");
  })
  .catch(() => setConnection(false));
