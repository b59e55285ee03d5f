// The analysis of a finished game on the replay page: started on request, computed by
// the server in the background (POST/GET /api/games/{id}/analysis), its progress shown.
// Anyone may read an analysis; only the game's players (or its creator) may start one.
// Each game's replay says what one step is called and what to do with the rows.
import { request, saved } from "./api.js";

const $ = (id) => document.getElementById(id);

// unit: what the progress counts ("turn", "decision"); done(rows): show the rows;
// active(): false once the page has left this replay (a late reply is then dropped).
export async function watchAnalysis(id, { unit, done, active = () => true }) {
  const poll = (reply) => {
    if (!active()) return;
    const bar = $("r-progress");
    if (reply.status === "done") {
      $("r-analyse").hidden = true;
      bar.hidden = true;
      $("r-analysis").dataset.done = "1";
      done(reply.turns);
      return;
    }
    if (reply.status === "running") {
      $("r-analyse").disabled = true;
      bar.hidden = false;
      bar.max = reply.total || 1;
      bar.value = reply.done;
      $("r-progress-text").textContent = `Analysing: ${unit} ${reply.done} of ${reply.total}`;
      setTimeout(async () => {
        try { poll(await request("GET", `/api/games/${id}/analysis`)); } catch { setTimeout(() => poll(reply), 2000); }
      }, 500);
      return;
    }
    if (reply.status === "failed") $("r-progress-text").textContent = `The analysis failed: ${reply.error}`;
    $("r-analyse").disabled = false;
  };
  $("r-analysis").hidden = false;
  $("r-analyse").onclick = async () => {
    $("r-analyse").disabled = true;
    // Only a player of the game (its seat token) or, in a game of computers only, its
    // creator (the invite code this browser was given) may start one.
    const ask = { invite: saved.token(id) ? undefined : saved.invite(id) ?? undefined };
    try { poll(await request("POST", `/api/games/${id}/analysis`, ask, saved.token(id))); } catch (error) {
      $("r-progress-text").textContent = error.message; $("r-analyse").disabled = false;
    }
  };
  try { poll(await request("GET", `/api/games/${id}/analysis`)); } catch { /* the button stays */ }
}
