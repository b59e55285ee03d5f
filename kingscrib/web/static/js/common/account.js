// The account panel of the start page: a guest may sign up (bringing along the games this
// browser holds), log in and out, change the password or delete the account. The session
// is an HttpOnly cookie; writes it authenticates carry the CSRF token GET /api/account gives.

import { saved } from "./api.js";
import { heldGames, renderMyGames } from "./mygames.js";

const $ = (id) => document.getElementById(id);
const MAX_SEATS = 100; // seats a sign-up brings along (the server's limit)
let me = { name: null };
let mode = null;

const MODES = {
  login: { title: "Log in", submit: "Log in", name: true, password: "Password", fresh: false },
  signup: { title: "Sign up", submit: "Sign up", name: true, password: "Password (at least 8 characters)", fresh: true,
    note: "Your games in this browser move to the new account. Guests keep playing without one." },
  password: { title: "Change password", submit: "Change password", password: "Current password", newPassword: true },
  remove: { title: "Delete account", submit: "Delete my account", password: "Password", danger: true,
    note: "Your games stay; your seats in them will read “deleted player” and can no longer be played." },
};

async function call(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  if (me.csrf) headers["X-CSRF-Token"] = me.csrf;
  const response = await fetch(path, {
    method, headers, credentials: "same-origin", body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(data.error || `error ${response.status}`);
  return data;
}

function heldSeats() {
  return heldGames().slice(0, MAX_SEATS)
    .map((id) => ({ game_id: id, token: saved.token(id) }))
    .filter((s) => s.token && s.game_id.length <= 32);
}

function show() {
  const member = me.name !== null;
  $("account-status").textContent = member ? `Logged in as ${me.name}.` : "Playing as a guest.";
  if (member && me.banned) $("account-status").textContent += " This account is banned by the moderators.";
  $("moderate-link").hidden = !(member && me.moderator);
  $("account-guest").hidden = member;
  $("account-member").hidden = !member;
  if (member) $("my-profile").href = `/players/${encodeURIComponent(me.name)}`;
  document.dispatchEvent(new CustomEvent("kingscrib:account", { detail: { name: me.name } }));
  const rated = $("rated"); // a rated game is for accounts only (the server says so too)
  if (rated) { rated.disabled = !member; if (!member) rated.checked = false; }
  if (!mode) $("account-form").hidden = true;
  for (const id of ["show-login", "show-signup", "show-password", "show-delete"]) {
    const button = $(id);
    button.setAttribute("aria-expanded", String(!$("account-form").hidden && button.dataset.mode === mode));
  }
}

function open(next, opener) {
  mode = next;
  const m = MODES[next];
  const form = $("account-form");
  form.hidden = false;
  form.dataset.mode = next;
  $("account-form-title").textContent = m.title;
  $("account-form-note").textContent = m.note || "";
  $("account-form-note").hidden = !m.note;
  $("account-name-row").hidden = !m.name;
  $("account-name").required = Boolean(m.name);
  $("account-password-label").textContent = m.password;
  $("account-password").autocomplete = m.fresh ? "new-password" : "current-password";
  $("account-new-row").hidden = !m.newPassword;
  $("account-new").required = Boolean(m.newPassword);
  $("account-submit").textContent = m.submit;
  $("account-submit").className = m.danger ? "warn" : "primary";
  $("account-message").textContent = "";
  form.returnFocus = opener;
  show();
  (m.name ? $("account-name") : $("account-password")).focus();
}

function close() {
  const opener = $("account-form").returnFocus;
  mode = null;
  $("account-form").reset();
  show();
  (opener && !opener.closest("[hidden]") ? opener : $("account-status")).focus?.();
}

async function submit(event) {
  event.preventDefault();
  const name = $("account-name").value;
  const password = $("account-password").value;
  const button = $("account-submit");
  button.disabled = true;
  $("account-message").textContent = "";
  try {
    if (mode === "login") me = await call("POST", "/api/account/login", { name, password });
    else if (mode === "signup") me = await call("POST", "/api/account/signup", { name, password, seats: heldSeats() });
    else if (mode === "password") {
      me = await call("POST", "/api/account/password", { password, new_password: $("account-new").value });
    } else if (mode === "remove") me = await call("DELETE", "/api/account", { password });
    const done = mode;
    mode = null;
    $("account-form").reset();
    show();
    $("account-status").textContent += done === "password" ? " Your password is changed." : "";
    $(me.name !== null ? "logout" : "show-login").focus();
    refreshGames();
  } catch (error) {
    $("account-message").textContent = error.message;
  } finally {
    button.disabled = false;
  }
}

function refreshGames() {
  if ($("my-games")) renderMyGames($("my-games"), $("my-games-list"));
}

async function logout() {
  try {
    me = await call("POST", "/api/account/logout");
    mode = null;
    show();
    $("show-login").focus();
    refreshGames();
  } catch (error) {
    $("account-status").textContent = error.message;
  }
}

export async function startAccount() {
  if (!$("account")) return;
  for (const [id, next] of [["show-login", "login"], ["show-signup", "signup"],
    ["show-password", "password"], ["show-delete", "remove"]]) {
    $(id).dataset.mode = next;
    $(id).onclick = (event) => (mode === next ? close() : open(next, event.currentTarget));
  }
  $("logout").onclick = logout;
  $("account-cancel").onclick = close;
  $("account-form").onsubmit = submit;
  $("account-form").onkeydown = (event) => { if (event.key === "Escape") { event.stopPropagation(); close(); } };
  try { me = await call("GET", "/api/account"); } catch { me = { name: null }; }
  $("account").hidden = false;
  show();
  // The header's Log in and Sign up lead here (/?account=login, /?account=signup).
  const asked = new URLSearchParams(location.search).get("account");
  if (me.name === null && (asked === "login" || asked === "signup")) open(asked, $(`show-${asked}`));
}

startAccount();
