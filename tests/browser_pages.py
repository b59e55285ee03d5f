"""Shared steps of the browser tests of the page: layout checks, screenshots, the lobby,
a turn of a Cribbage game."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import TimeoutError as PlaywrightTimeout

# Screenshots of every page at every size land here (git-ignored) for people to look at.
SCREENSHOTS = Path(__file__).resolve().parent.parent / "screenshots"

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
SIZES = {"phone": PHONE, "desktop": DESKTOP}


def watch_errors(page) -> list[str]:
    """The list the page's uncaught script errors are added to from now on."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


@contextlib.contextmanager
def sized_page(browser, size: str) -> Iterator[tuple[Any, list[str]]]:
    """A page in a browser context of its own at ``size`` (a key of SIZES; the context is
    ``page.context``), and the list of its uncaught script errors; closed after."""
    context = browser.new_context(**SIZES[size])
    try:
        page = context.new_page()
        yield page, watch_errors(page)
    finally:
        context.close()

# Every visible control, square, tile, card and message, measured against the viewport.
OUTSIDE = """() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  if (document.documentElement.scrollWidth > width) {
    out.push(`page is ${document.documentElement.scrollWidth} px wide, viewport ${width}`);
  }
  const sel = 'button, input, select, a, label, [tabindex], .sq, .tile, .card, .message, .preview, .turn-banner';
  for (const el of document.querySelectorAll(sel)) {
    if (el.closest('[hidden]') || el.getClientRects().length === 0) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.left < -0.5 || r.right > width + 0.5) {
      out.push(`${el.tagName.toLowerCase()}#${el.id}.${el.className} spans ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
  }
  return out;
}"""


def outside_viewport(page) -> list[str]:
    """What sticks out of the viewport sideways (empty when the page fits)."""
    return page.evaluate(OUTSIDE)


def screenshot(page, name: str) -> Path:
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def start_from_lobby(page, url: str, seats: list[str], game: str = "kings") -> None:
    """Fill the lobby (seat kinds in order, "human" or "computer") and start the game."""
    page.goto(url + "/")
    page.wait_for_selector("#new-game[data-ready]")
    page.check(f'#game-choice input[value="{game}"]')
    while page.locator(".seat-row").count() < len(seats):
        page.click("#add-seat")
    for i, kind in enumerate(seats):
        row = page.locator(".seat-row").nth(i)
        row.locator(".kind").select_option(kind)
        if kind == "computer":
            row.locator(".level").select_option("medium" if game == "kings" else "easy")
        else:
            row.locator(".name").fill(f"Person {i + 1}")
    page.click("#start")


def open_step_link(page, context, url: str, game: str, step: int):
    """Steps the replay page to ``step`` from the start, checks that its link names that
    step, and opens the link in another page of ``context`` (returned, at that step)."""
    page.click("#r-first")
    for _ in range(step):
        page.click("#r-next")
    link = page.get_attribute("#r-share", "href")
    assert link == f"/?replay={game}&turn={step}"
    other = context.new_page()
    other.goto(url + link)
    other.wait_for_selector(f'#r-at[data-at="{step}"]')
    return other


# ----- a Cribbage game --------------------------------------------------------------
MINE_OR_OVER = """() => document.getElementById('c-banner').classList.contains('mine')
                   || !document.getElementById('c-end').hidden"""
VERSION_AFTER = "(v) => Number(document.getElementById('cribbage').dataset.version) > v"


def version(page) -> int:
    return int(page.get_attribute("#cribbage", "data-version") or -1)


def take_turn(page, drag: bool = False) -> str:
    """Wait until this seat has something to do, do it by clicking; returns what was done
    ("over" when the game has ended)."""
    page.wait_for_function(MINE_OR_OVER, timeout=60_000)
    if page.is_visible("#c-end"):
        return "over"
    before = version(page)
    if page.is_visible("#c-discard"):
        cards = page.locator("#c-hand .card")
        i = 0
        while page.is_disabled("#c-discard"):
            cards.nth(i).click()
            i += 1
        if not page.is_visible("#c-discard"):
            return "again"  # the page moved on while cards were picked: look again
        label = page.inner_text("#c-discard")
        if not label and not page.is_visible("#c-discard"):
            return "again"  # as below: the discard sent last time has just arrived
        assert "crib" in label
        try:
            page.click("#c-discard", timeout=10_000)
        except PlaywrightTimeout:
            # The state this turn was read from was one behind: the last discard (sent
            # before another seat's move came in) has just arrived, and the button went.
            if not page.is_visible("#c-discard"):
                return "again"
            raise
        # The seats discard at once: another seat's discard can change the version
        # before ours is answered, so wait for ours (the button goes once it is taken).
        page.wait_for_selector("#c-discard", state="hidden", timeout=30_000)
        done = "discard"
    elif page.is_visible("#c-go"):
        assert "say Go" in page.inner_text("#c-banner")
        assert page.locator("#c-hand .card.playable").count() == 0
        page.click("#c-go")
        done = "go"
    else:
        card = page.locator("#c-hand .card.playable").first
        if drag:
            card.drag_to(page.locator("#c-play"))
        else:
            card.click()
        done = "play"
    page.wait_for_function(VERSION_AFTER, arg=before, timeout=30_000)
    return done


def serious_violations(page) -> list[str]:
    """axe's serious and critical findings on the page, one line each."""
    results = Axe().run(page)
    return [f"{v['id']}: {v['help']} ({len(v['nodes'])}: {v['nodes'][0]['target']})"
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
