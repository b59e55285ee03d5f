// The /your-turn page: the list (yourturn.js), and an account's e-mail for turn notices.

import { watchWaiting } from "../common/yourturn.js";

const $ = (id) => document.getElementById(id);

watchWaiting($("your-turn"), $("your-turn-list"), $("your-turn-count"));

async function email() {
  const me = await fetch("/api/account").then((r) => r.json()).catch(() => ({}));
  if (!me.name) return;
  $("your-turn-who").textContent = `The games waiting for your move: every seat of ${me.name}, and the seats this browser holds.`;
  const found = await fetch("/api/account/email").then((r) => r.json());
  $("email").hidden = false;
  $("email-off").hidden = found.mail_configured;
  $("email-address").value = found.address || "";
  $("email-turns").checked = found.turn_mail;
  $("email-form").onsubmit = async (event) => {
    event.preventDefault();
    const r = await fetch("/api/account/email", {
      method: "PUT", headers: { "Content-Type": "application/json", "X-CSRF-Token": me.csrf },
      body: JSON.stringify({ address: $("email-address").value.trim() || null, turn_mail: $("email-turns").checked }),
    });
    const data = await r.json().catch(() => ({}));
    $("email-message").textContent = r.ok
      ? (data.turn_mail ? `Saved: an e-mail per turn goes to ${data.address}.` : "Saved: no e-mail per turn.")
      : data.error;
  };
}
email();
