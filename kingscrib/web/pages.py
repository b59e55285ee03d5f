"""The site's HTML pages, rendered from Jinja2 templates that all extend one layout
(``templates/layout.html``): one head and one navigation, the page's own link marked.

A route returns ``render("puzzles")``; a new page is a template under
``templates/pages/`` that extends the layout, an entry in ``PAGES`` and a module under
``static/js/pages/``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

TEMPLATES = Path(__file__).resolve().parent / "templates"
HEADERS = {"Cache-Control": "no-cache"}  # a new release's pages are fetched at once

# Starlette's environment escapes every value rendered into the HTML (autoescape on).
templates = Jinja2Templates(directory=TEMPLATES)


@dataclass(frozen=True)
class SiteLink:
    href: str
    label: str


# The site's links, the same on every page, the way back to the lobby first.
SITE_LINKS = (
    SiteLink("/", "Lobby"),
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


def html(name: PageName) -> str:
    """The page's HTML."""
    page = PAGES[name]
    template = templates.get_template(page.template)
    return template.render(site_links=SITE_LINKS, current=page.current, section=page.section)


def render(name: PageName) -> HTMLResponse:
    """The page as a reply (the browser asks again for it each time: no-cache)."""
    return HTMLResponse(html(name), headers=HEADERS)
