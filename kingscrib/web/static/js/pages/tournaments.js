// The tournament list (/tournaments): upcoming, running and finished tournaments, the
// form that creates one (logged-in accounts) and the teams (create, join, leave).

import { $, call, describe, element, me, table, when, whoAmI } from "../common/tournaments.js";
import { filled } from "../common/layout.js";

function show(box, error) {
  box.textContent = error;
  box.hidden = !error;
}

function listed(rows, empty) {
  if (!rows.length) return element("p", empty, "note");
  return table("Tournaments", [["Name", false], ["What", false], ["Starts", false], ["Players", true]],
    rows.map((t) => {
      const link = element("a", t.name);
      link.href = `/tournaments/${t.id}`;
      const starts = t.state === "finished" ? (t.note || `finished ${when(t.finished)}`) : when(t.starts);
      return [link, describe(t), starts, String(t.players)];
    }), { stack: true });
}

async function refresh() {
  try {
    const all = await call("GET", "/api/tournaments");
    $("running").replaceChildren(listed(all.running, "None running now."));
    // (the form below is for accounts: a guest is told above to log in)
    $("upcoming").replaceChildren(listed(all.upcoming,
      me.name !== null ? "None planned: create one below." : "None planned."));
    $("finished").replaceChildren(listed(all.finished, "None finished yet."));
    show($("list-error"), "");
  } catch (e) { show($("list-error"), e.message); }
  await refreshTeams();
}

let teams = [];
async function refreshTeams() {
  teams = (await call("GET", "/api/teams").catch(() => ({ teams: [] }))).teams;
  const rows = teams.map((t) => {
    const member = me.name !== null && t.members.includes(me.name);
    const cell = element("span");
    if (me.name !== null) {
      const button = element("button", member ? "Leave" : "Join");
      button.type = "button";
      button.onclick = async () => {
        try {
          await call("POST", `/api/teams/${t.id}/${member ? "leave" : "join"}`);
          show($("team-error"), "");
        } catch (e) { show($("team-error"), e.message); }
        refreshTeams();
      };
      cell.append(button);
    }
    return [t.name, t.members.join(", "), cell];
  });
  $("teams").replaceChildren(rows.length ? table("Teams", [["Team", false], ["Members", false], ["", false]], rows)
    : element("p", "No teams yet.", "note"));
  for (const name of ["team_a", "team_b"]) {
    const select = $("create").elements[name];
    select.replaceChildren(...teams.map((t) => { const o = element("option", t.name); o.value = t.id; return o; }));
  }
}

// Only the fields of the chosen format (and game) show: the rounds of a Swiss, the
// minutes of an arena, the teams of a team match, partnerships for Cribbage in a round
// robin or an arena; a hidden field is not sent.
function formatChosen() {
  const { format, game } = $("create").elements;
  for (const label of $("create").querySelectorAll("label[data-for]")) {
    label.hidden = !label.dataset.for.split(" ").includes(format.value)
      || (label.dataset.game !== undefined && label.dataset.game !== game.value);
  }
}

const shown = (form, name) => !form.elements[name].closest("label").hidden;

function number(form, name) {
  const value = form.elements[name].value;
  return value === "" ? null : Number(value);
}

async function create(event) {
  event.preventDefault();
  const form = $("create");
  const format = form.elements.format.value;
  const clock = number(form, "clock");
  const body = {
    name: form.elements.name.value, game: form.elements.game.value, format,
    rated: form.elements.rated.checked, mirrored: form.elements.mirrored.checked,
    partners: shown(form, "partners") && form.elements.partners.checked,
    starts_in: Math.round((number(form, "starts_in") || 0) * 60), max_players: number(form, "max_players"),
    min_rating: number(form, "min_rating"), max_rating: number(form, "max_rating"),
    no_show: number(form, "no_show"),
    clock_seconds: clock ? clock * 60 : null,
  };
  if (format === "swiss") body.rounds = number(form, "rounds");
  if (format === "arena") body.minutes = number(form, "minutes");
  if (format === "match") {
    Object.assign(body, { team_a: number(form, "team_a"), team_b: number(form, "team_b"), team_best: number(form, "team_best") });
  }
  try {
    const made = await call("POST", "/api/tournaments", body);
    location.href = `/tournaments/${made.id}`;
  } catch (e) { show($("create-error"), e.message); }
}

async function newTeam(event) {
  event.preventDefault();
  try {
    await call("POST", "/api/teams", { name: $("new-team").elements.name.value });
    $("new-team").reset();
    show($("team-error"), "");
  } catch (e) { show($("team-error"), e.message); }
  refreshTeams();
}

await whoAmI();
$("who").textContent = me.name !== null ? `Logged in as ${me.name}.` : "Log in on the start page to create or join a tournament.";
$("create-box").hidden = me.name === null;
$("new-team").hidden = me.name === null;
$("create").elements.format.onchange = formatChosen;
$("create").elements.game.onchange = formatChosen;
$("create").onsubmit = create;
$("new-team").onsubmit = newTeam;
formatChosen();
await refresh();
filled();
setInterval(refresh, 10000);
