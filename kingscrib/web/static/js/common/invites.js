// The table's invite box, for every game: the invite link while a seat is open, a
// cancel button where the game allows it, and the spectators' watch link.
import { cancelButton, saved } from "./api.js";

export function renderInvites(box, state, canCancel) {
  const invite = saved.invite(state.id);
  const open = state.seats.filter((s) => !s.joined);
  box.replaceChildren();
  if (invite && open.length && !state.over) {
    const p = document.createElement("p");
    p.textContent = `Invite a friend to ${open.length === 1 ? "the open seat" : "an open seat"}:`;
    const input = document.createElement("input");
    input.id = "invite-link";
    input.readOnly = true;
    input.value = `${location.origin}/?game=${state.id}&invite=${invite}`;
    input.onclick = () => input.select();
    input.setAttribute("aria-label", "invite link");
    const buttons = document.createElement("div");
    buttons.className = "invite-buttons";
    const copy = document.createElement("button");
    copy.id = "invite-copy";
    copy.type = "button";
    copy.textContent = "Copy the link";
    copy.onclick = async () => {
      copy.textContent = (await copyText(input)) ? "Copied" : "Select the link and copy it";
      setTimeout(() => { copy.textContent = "Copy the link"; }, 2500);
    };
    buttons.append(copy);
    if (navigator.share) { // phones: the system's share sheet (messages, mail...)
      const share = document.createElement("button");
      share.id = "invite-share";
      share.type = "button";
      share.textContent = "Share…";
      share.onclick = () => navigator.share({ title: "Join my game", url: input.value }).catch(() => {});
      buttons.append(share);
    }
    box.append(p, input, buttons);
  }
  if (canCancel && state.you !== null && open.length && !state.over) {
    box.append(cancelButton(state.id, saved.token(state.id), () => location.replace("/")));
  }
  const watch = document.createElement("p");
  watch.innerHTML = `Spectators: <a href="/?game=${state.id}&watch=1">watch link</a>`;
  box.append(watch);
}

// The clipboard API where the page is a secure context (https, localhost); otherwise the
// older copy command on the selected field. True when the text was copied.
async function copyText(input) {
  try {
    await navigator.clipboard.writeText(input.value);
    return true;
  } catch {
    input.select();
    try { return document.execCommand("copy"); } catch { return false; }
  }
}
