"""The site's HTML pages, rendered from Jinja2 templates that all extend one layout
(``templates/layout.html``): one head and one navigation, the page's own link marked.

A route returns ``render("puzzles")``; a new page is a template under
``templates/pages/`` that extends the layout, an entry in ``PAGES`` and a module under
``static/js/pages/``.
"""

from __future__ import annotations

import os
import posixpath
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

TEMPLATES = Path(__file__).resolve().parent / "templates"
STATIC = TEMPLATES.parent / "static"  # the same folder as kingscrib.web.paths.STATIC
# Where the footer's "Source" link leads (no link while unset).
SOURCE_URL_VARIABLE = "KINGSCRIB_SOURCE_URL"
HEADERS = {"Cache-Control": "no-cache"}  # a new release's pages are fetched at once

# Starlette's environment escapes every value rendered into the HTML (autoescape on).
templates = Jinja2Templates(directory=TEMPLATES)


@dataclass(frozen=True)
class SiteLink:
    href: str
    label: str


# The site's links, the same on every page, the way back to the lobby (Play) first.
SITE_LINKS = (
    SiteLink("/", "Play"),
    SiteLink("/learn", "Learn"),
    SiteLink("/puzzles", "Puzzles"),
    SiteLink("/tournaments", "Tournaments"),
    SiteLink("/leaderboard", "Leaderboard"),
)


@dataclass(frozen=True)
class Page:
    """A page's template, and which site link it is (``current``) or lies under
    (``section``), if any."""

    template: str
    current: str | None = None
    section: str | None = None


PageName = Literal["lobby", "learn", "rules_kings", "rules_cribbage", "puzzles", "tournaments",
                   "tournament", "leaderboard", "player", "your_turn", "moderate"]

PAGES: dict[PageName, Page] = {
    "lobby": Page("pages/lobby.html", current="/"),
    "learn": Page("pages/learn.html", current="/learn"),
    "rules_kings": Page("pages/rules_kings.html", section="/learn"),
    "rules_cribbage": Page("pages/rules_cribbage.html", section="/learn"),
    "puzzles": Page("pages/puzzles.html", current="/puzzles"),
    "tournaments": Page("pages/tournaments.html", current="/tournaments"),
    "tournament": Page("pages/tournament.html", section="/tournaments"),
    "leaderboard": Page("pages/leaderboard.html", current="/leaderboard"),
    "player": Page("pages/player.html", section="/leaderboard"),
    "your_turn": Page("pages/your_turn.html"),
    "moderate": Page("pages/moderate.html"),
}


# A module's static imports (``import ... from "./x.js"``, ``import "./x.js"``); the
# dynamic ``import("...")`` calls are not followed.
IMPORT = re.compile(r"""^\s*(?:import|export)\s+(?:[^"'();]*?\s+from\s+)?["']([^"']+\.js)["']""",
                    re.MULTILINE)
# The start page's modules: the front door's, or a game's (either game: the page learns
# which from the game itself), each with every module it imports.
LOBBY_MODULES = ("js/common/layout.js", "js/pages/lobby.js")
GAME_MODULES = (*LOBBY_MODULES, "js/cribbage/table.js")


@cache
def module_graph(entries: tuple[str, ...]) -> tuple[str, ...]:
    """The static modules (paths under ``static/``) that ``entries`` import, themselves
    included, in the order found: the page lists them for the browser to fetch at once
    (``<link rel="modulepreload">``) rather than one level of imports after another."""
    found: list[str] = []
    todo = list(entries)
    while todo:
        module = todo.pop(0)
        if module in found or not (STATIC / module).is_file():
            continue
        found.append(module)
        text = (STATIC / module).read_text(encoding="utf-8")
        todo += [posixpath.normpath(posixpath.join(posixpath.dirname(module), imported))
                 for imported in IMPORT.findall(text)]
    return tuple(found)


def html(name: PageName, front: bool = False) -> str:
    """The page's HTML. ``front``: the start page is the front door itself (not a game,
    an invitation or a replay), shown from the first paint rather than by its script."""
    page = PAGES[name]
    template = templates.get_template(page.template)
    return template.render(site_links=SITE_LINKS, current=page.current, section=page.section,
                           source_url=os.environ.get(SOURCE_URL_VARIABLE, "").strip() or None,
                           front=front,
                           preload=module_graph(LOBBY_MODULES if front else GAME_MODULES)
                           if name == "lobby" else ())


def render(name: PageName, front: bool = False) -> HTMLResponse:
    """The page as a reply (the browser asks again for it each time: no-cache)."""
    return HTMLResponse(html(name, front), headers=HEADERS)
