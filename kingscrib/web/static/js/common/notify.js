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

// The sound set, made by the page (WebAudio, no audio files): each sound a few short
// notes, [frequency Hz, start s, length s, wave].
const SOUNDS = {
  turn: [[660, 0, 0.35, "sine"]],
  lay: [[190, 0, 0.06, "triangle"], [140, 0.03, 0.06, "triangle"]], // a tile or card put down
  score: [[523, 0, 0.12, "sine"], [784, 0.1, 0.2, "sine"]],
  end: [[523, 0, 0.15, "sine"], [659, 0.15, 0.15, "sine"], [784, 0.3, 0.35, "sine"]],
};

// A sound of the set, when this browser has sound on.
export function playSound(name) {
  if (soundOn()) tone(name);
}

function tone(name = "turn") {
  try {
    audio = audio || new AudioContext();
    const now = audio.currentTime;
    for (const [frequency, start, length, wave] of SOUNDS[name]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = wave;
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.15, now + start);
      gain.gain.exponentialRampToValueAtTime(0.001, now + start + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + start);
      osc.stop(now + start + length);
    }
  } catch { /* no audio in this browser: the title still says it */ }
}
