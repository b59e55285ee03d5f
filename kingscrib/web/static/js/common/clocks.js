// The clocks of a game and resigning, for every game's page.
// state.clock (from the server) gives each seat's time left at the moment the message was
// sent and whose clocks run; the page counts those down until the next message corrects
// them. Negative time is overtime (Kings Cribbage: 10 points off per started minute).

import { request } from "./api.js";

let shown = null; // { box, clock, at, nameOf, you }
let timer = null;

export function formatTime(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const two = (n) => String(n).padStart(2, "0");
  if (h >= 24) return `${Math.floor(h / 24)} d ${h % 24} h ${two(m)} min`; // correspondence
  return h ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`;
}

export function renderClocks(box, state, nameOf) {
  if (!state.clock) { box.hidden = true; shown = null; return; }
  box.hidden = false;
  shown = { box, clock: state.clock, at: performance.now(), nameOf, you: state.you };
  draw();
  if (!timer) timer = setInterval(() => { if (shown) draw(); }, 250);
}

function draw() {
  const { box, clock, at, nameOf, you } = shown;
  const spent = (performance.now() - at) / 1000;
  if (box.children.length !== clock.left.length) {
    box.replaceChildren(...clock.left.map(() => {
      const li = document.createElement("li");
      li.innerHTML = '<span class="who"></span> <span class="time" role="timer"></span>';
      return li;
    }));
  }
  clock.left.forEach((stored, seat) => {
    const running = clock.running.includes(seat);
    const left = stored - (running ? spent : 0);
    const li = box.children[seat];
    li.className = `${running ? "running" : ""}${left < 60 ? " low" : ""}${left < 0 ? " overtime" : ""}`;
    li.dataset.seat = seat;
    // Not by colour alone: the running clock has a ▶ and the word "running" for readers.
    li.querySelector(".who").textContent = `${running ? "▶ " : ""}${nameOf(seat)}${seat === you ? " (you)" : ""}`;
    const time = li.querySelector(".time");
    let text = formatTime(left);
    if (left < 0) {
      const over = -left;
      const penalty = clock.penalty_per_minute * Math.ceil(over / 60);
      text = clock.overtime
        ? `overtime ${formatTime(over)} of ${formatTime(clock.overtime)} (−${penalty})`
        : "0:00";
    }
    time.textContent = text;
    time.setAttribute("aria-label", `${nameOf(seat)}: ${text}${running ? ", running" : ""}`);
  });
}

// A Resign button that asks once more: "Yes, resign" or "Keep playing".
export function renderResign(box, state, token) {
  const can = token && state.you !== null && !state.over
    && state.seats[state.you]?.kind === "human";
  box.hidden = !can;
  if (!can || box.children.length) return;
  const resign = document.createElement("button");
  resign.className = "resign";
  resign.textContent = "Resign…";
  const keep = document.createElement("button");
  keep.textContent = "Keep playing";
  keep.hidden = true;
  const reset = () => {
    delete resign.dataset.sure;
    resign.textContent = "Resign…";
    resign.classList.remove("warn");
    keep.hidden = true;
  };
  keep.onclick = reset;
  resign.onclick = async () => {
    if (!resign.dataset.sure) {
      resign.dataset.sure = "1";
      resign.textContent = state.seats.length === 4 && state.sides
        ? "Yes, resign (your team loses)" : "Yes, resign (you lose)";
      resign.classList.add("warn");
      keep.hidden = false;
      keep.focus();
      return;
    }
    resign.disabled = true;
    try {
      await request("POST", `/api/games/${state.id}/resign`, undefined, token);
    } catch (error) {
      resign.textContent = error.message;
    }
  };
  box.append(resign, keep);
}

// What a game ended early says: who resigned or ran out of time, who wins.
export function resultText(state, nameOf) {
  const r = state.result;
  if (!r) return "";
  const names = (seats) => seats.map(nameOf).join(" and ");
  const win = r.winners.length > 1 ? "win" : "wins";
  if (r.reason === "resigned") return `${nameOf(r.seat)} resigned: ${names(r.winners)} ${win}.`;
  if (r.reason === "time") return `${nameOf(r.seat)} ran out of time: ${names(r.winners)} ${win}.`;
  const fined = r.time_penalties.map((p, s) => (p ? `${nameOf(s)} −${p}` : "")).filter(Boolean);
  return `Overtime penalties: ${fined.join(", ")}. ${names(r.winners)} ${win}.`;
}
