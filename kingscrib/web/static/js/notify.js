// Saying it is your turn when the page is in the background: the tab's title, and an
// optional short tone (off by default; the choice is kept in this browser).

const KEY = "kingscrib:sound";
let wasMine = false;
let audio = null;

export const soundOn = () => localStorage.getItem(KEY) === "on";

export function bindSoundToggle(button) {
  const sync = () => {
    button.setAttribute("aria-pressed", String(soundOn()));
    button.textContent = soundOn() ? "Sound on" : "Sound off";
  };
  button.hidden = false;
  button.onclick = () => {
    localStorage.setItem(KEY, soundOn() ? "off" : "on");
    if (soundOn()) tone(); // a click lets the browser start audio; it also shows the sound
    sync();
  };
  sync();
}

// Called on every render: `mine` says whether this seat must act now.
export function notifyTurn(mine, title) {
  document.title = mine ? `● Your turn · ${title}` : title;
  if (mine && !wasMine && soundOn()) tone();
  wasMine = mine;
}

function tone() {
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.35);
  } catch { /* no audio in this browser: the title still says it */ }
}
