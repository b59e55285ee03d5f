// The moderators' page: reported messages (hide, ban the sender, dismiss), rated games
// played unrated (accounts of one browser or address) and bans.
// Every text is set with textContent: reported messages are shown exactly as sent.

const $ = (id) => document.getElementById(id);
let csrf = "";

async function call(method, path, body) {
  const r = await fetch(path, {
    method, headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(data.error || `error ${r.status}`);
  return data;
}

const cell = (text) => { const td = document.createElement("td"); td.textContent = text; return td; };

function button(text, action, className = "") {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  b.className = className;
  b.onclick = async () => {
    try { await action(); $("mod-status").textContent = ""; } catch (e) { $("mod-status").textContent = e.message; }
    refresh();
  };
  return b;
}

async function refresh() {
  const { reports } = await call("GET", "/api/moderation/reports");
  $("report-rows").replaceChildren(...reports.map((r) => {
    const tr = document.createElement("tr");
    tr.dataset.message = r.message_id;
    const game = document.createElement("td");
    const link = document.createElement("a");
    link.href = `/?game=${encodeURIComponent(r.game_id)}&watch=1`;
    link.textContent = `${r.game_id} (${r.room})`;
    game.append(link);
    const actions = document.createElement("td");
    actions.append(button("Hide", () => call("POST", `/api/moderation/messages/${r.message_id}/hide`), "warn"));
    if (r.account_id && !r.banned) {
      actions.append(" ", button("Ban the sender", () => call("POST", "/api/moderation/bans",
        { message_id: r.message_id, reason: `chat: ${r.text}`.slice(0, 200) }), "warn"));
    }
    actions.append(" ", button("Dismiss", () => call("POST", `/api/moderation/reports/${r.id}/dismiss`)));
    tr.append(cell(r.text), cell(r.name + (r.banned ? " (banned)" : "")), cell(r.reporter), game, actions);
    return tr;
  }));
  $("no-reports").hidden = reports.length > 0;
  const { flags } = await call("GET", "/api/moderation/flags");
  $("flag-list").replaceChildren(...flags.map((f) => {
    const li = document.createElement("li");
    const link = document.createElement("a");
    link.href = `/?game=${encodeURIComponent(f.game_id)}&watch=1`;
    link.textContent = f.game_id;
    li.append(link, `: ${f.accounts.map((a) => a.name ?? "deleted player").join(" and ")} (${f.reason})`);
    return li;
  }));
  $("no-flags").hidden = flags.length > 0;
  const { bans } = await call("GET", "/api/moderation/bans");
  $("ban-list").replaceChildren(...bans.map((b) => {
    const li = document.createElement("li");
    li.append(`${b.name}${b.reason ? ` — ${b.reason}` : ""} `,
      button("Lift the ban", () => call("DELETE", `/api/moderation/bans/${b.id}`)));
    return li;
  }));
}

async function start() {
  const me = await fetch("/api/account").then((r) => r.json()).catch(() => ({}));
  if (!me.name) { $("mod-status").textContent = "Log in on the start page first."; return; }
  if (!me.moderator) { $("mod-status").textContent = "This page is for moderators only."; return; }
  csrf = me.csrf;
  $("mod-reports").hidden = false;
  $("mod-bans").hidden = false;
  $("mod-flags").hidden = false;
  $("ban-form").onsubmit = async (event) => {
    event.preventDefault();
    try {
      await call("POST", "/api/moderation/bans", { name: $("ban-name").value.trim(), reason: $("ban-reason").value.trim() });
      $("ban-name").value = ""; $("ban-reason").value = ""; $("mod-status").textContent = "";
    } catch (e) { $("mod-status").textContent = e.message; }
    refresh();
  };
  refresh();
}
start();
