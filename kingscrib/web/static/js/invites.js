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
    box.append(p, input);
  }
  if (canCancel && state.you !== null && open.length && !state.over) {
    box.append(cancelButton(state.id, saved.token(state.id), () => location.replace("/")));
  }
  const watch = document.createElement("p");
  watch.innerHTML = `Spectators: <a href="/?game=${state.id}&watch=1">watch link</a>`;
  box.append(watch);
}
