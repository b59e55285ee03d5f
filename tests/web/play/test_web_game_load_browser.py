"""A game page keeps still while it loads (Lighthouse's cumulative layout shift): what
is painted before the game's first state does not move when the state is drawn. The
page's own layout shifts (a PerformanceObserver from before its first script) add up
to under 0.1, on a phone and a laptop, for both games, with the processor slowed four
times so that frames are painted between the page's scripts and the first state."""

from __future__ import annotations

import httpx
import pytest
from browser_pages import PHONE

SHIFTS = """
window.shifts = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) window.shifts.push(e.value);
}).observe({ type: "layout-shift", buffered: true });
"""
DRAWN = {"kings": "#scores tr[data-seat]", "cribbage": "#cribbage[data-version] .c-seat"}


@pytest.mark.parametrize("size", ["phone", "laptop"])
@pytest.mark.parametrize("game", ["kings", "cribbage"])
def test_the_table_does_not_move_as_the_first_state_arrives(browser, server, game: str,
                                                            size: str) -> None:
    created = httpx.post(server.url + "/api/games", json={"game": game, "seats": [
        {"name": "Ann"}, {"kind": "computer", "level": "easy"}]}).json()
    context = browser.new_context(**(PHONE if size == "phone" else
                                     {"viewport": {"width": 1280, "height": 800}}))
    try:
        page = context.new_page()
        page.add_init_script(SHIFTS)
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 4})
        page.goto(f"{server.url}/?game={created['game_id']}&watch=1")
        page.wait_for_selector(DRAWN[game])
        page.wait_for_timeout(1000)  # what follows the first state (the chat, the history)
        shifts = page.evaluate("window.shifts")
        assert sum(shifts) < 0.1, shifts
    finally:
        context.close()


@pytest.mark.parametrize("game", ["kings", "cribbage"])
def test_the_page_names_every_module_a_game_loads_at_once(browser, server, game: str) -> None:
    """Every script a game page fetches is named in its head (modulepreload), so the
    browser asks for all of them with the page instead of one level of imports at a
    time."""
    created = httpx.post(server.url + "/api/games", json={"game": game, "seats": [
        {"name": "Ann"}, {"kind": "computer", "level": "easy"}]}).json()
    page = browser.new_page()
    try:
        fetched: list[str] = []
        page.on("request", lambda r: fetched.append(r.url) if r.url.endswith(".js") else None)
        page.goto(f"{server.url}/?game={created['game_id']}&watch=1")
        page.wait_for_selector(DRAWN[game])
        named = page.eval_on_selector_all("link[rel=modulepreload]", "(links) => links.map((l) => l.href)")
        assert fetched and set(fetched) <= set(named), set(fetched) - set(named)
    finally:
        page.close()
