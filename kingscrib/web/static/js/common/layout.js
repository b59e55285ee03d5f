// What every page's layout (kingscrib/web/templates/layout.html) holds: the header's
// colour theme button.

import { bindThemeToggle } from "./theme.js";

bindThemeToggle(document.getElementById("theme"));
