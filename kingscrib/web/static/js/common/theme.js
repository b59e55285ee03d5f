// Light or dark: "auto" follows the system's setting; the header's button cycles
// auto → dark → light, and the choice is kept in this browser.

const KEY = "kingscrib:theme";
const ORDER = ["auto", "dark", "light"];
const SAID = { auto: "auto (as the system)", dark: "dark", light: "light" };

export const theme = () => (ORDER.includes(localStorage.getItem(KEY)) ? localStorage.getItem(KEY) : "auto");

export function applyTheme() {
  const chosen = theme();
  if (chosen === "auto") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = chosen;
}

export function bindThemeToggle(button) {
  const sync = () => {
    applyTheme();
    button.dataset.theme = theme();
    button.querySelector(".theme-word").textContent = theme();
    button.setAttribute("aria-label", `Colours: ${SAID[theme()]}; press for ${ORDER[(ORDER.indexOf(theme()) + 1) % 3]}`);
  };
  button.onclick = () => {
    localStorage.setItem(KEY, ORDER[(ORDER.indexOf(theme()) + 1) % ORDER.length]);
    sync();
  };
  sync();
}
