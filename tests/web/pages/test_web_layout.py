"""The page on a phone (390x844) and a desktop (1280x800): nothing sideways off screen,
the board the full width of a phone with the rack and buttons under it; screenshots."""

from __future__ import annotations

import time

import httpx
import pytest
from browser_pages import (
    SIZES,
    outside_viewport,
    screenshot,
    sized_page,
    start_from_lobby,
    take_turn,
)

LAID_NOW = "#c-series .laid"  # the cards laid since the count began (earlier ones are small)
LAID_TOPS = f"""() => [...document.querySelectorAll('{LAID_NOW}')]
    .map((card) => Math.round(card.getBoundingClientRect().top))"""


def finished_computer_game(url: str) -> str:
    """A Kings game between two computers, played to its end; returns its id."""
    created = httpx.post(url + "/api/games", json={
        "seats": [{"kind": "computer", "level": "greedy"}, {"kind": "computer", "level": "greedy"}],
        "seed": 5}).json()
    deadline = time.monotonic() + 60
    while not httpx.get(f"{url}/api/games/{created['game_id']}").json()["over"]:
        assert time.monotonic() < deadline, "the computer game did not end"
        time.sleep(0.2)
    return created["game_id"]


def box(page, selector: str) -> dict:
    return page.locator(selector).bounding_box()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_every_page_fits_the_screen(browser, server, size: str) -> None:
    with sized_page(browser, size) as (page, errors):
        page.goto(server.url + "/")
        page.wait_for_selector("#new-game[data-ready]")
        screenshot(page, f"lobby-{size}")
        assert outside_viewport(page) == []

        start_from_lobby(page, server.url, ["human", "computer"])
        page.wait_for_selector("#rack .tile")
        page.wait_for_selector(".turn-banner.mine", timeout=60_000)
        # A long illegal preview and an error: still nothing off screen.
        # On the phone by touch (taps), on the desktop by mouse.
        press = (lambda target: target.tap()) if size == "phone" else (lambda t: t.click())
        press(page.locator("#rack .tile").nth(0))
        press(page.locator('[data-square="A13"]'))
        press(page.locator("#rack .tile").nth(0))
        press(page.locator('[data-square="M1"]'))
        assert page.locator("#board .tile.pending").count() == 2
        page.wait_for_selector("#preview.bad")
        assert page.is_disabled("#commit")  # an illegal play cannot be sent
        screenshot(page, f"kings-game-{size}")
        assert outside_viewport(page) == []
        board, rack = box(page, "#board"), box(page, "#rack")
        viewport = SIZES[size]["viewport"]
        assert board["x"] >= 0 and board["x"] + board["width"] <= viewport["width"]
        if size == "phone":
            # The whole board across the phone, the rack and the buttons under it.
            assert board["width"] >= viewport["width"] - 24
            assert rack["y"] >= board["y"] + board["height"]
            assert box(page, "#pass")["y"] >= board["y"] + board["height"]
        else:
            # Board and everything else side by side, the board whole on the screen.
            assert rack["x"] >= board["x"] + board["width"]
            assert board["y"] + board["height"] <= viewport["height"]

        game_id = finished_computer_game(server.url)
        page.goto(f"{server.url}/?game={game_id}&watch=1")
        page.wait_for_selector("#end:not([hidden]) #standings")
        screenshot(page, f"kings-end-{size}")
        assert outside_viewport(page) == []
        assert page.locator("#kings-controls").is_hidden()  # no buttons after the end
        standings = page.inner_text("#standings")
        assert "−0" not in standings and "-0" not in standings
        assert "winner" in standings

        start_from_lobby(page, server.url, ["human", "computer"], game="cribbage")
        page.wait_for_selector("#c-hand .card")
        screenshot(page, f"classic-game-{size}")
        assert outside_viewport(page) == []
        # The cards of this count lie side by side (on a phone the play once stacked a
        # card a line): their tops read at one moment, with three or more laid (the
        # computer may end the count at any time, so a count read apart could be empty).
        tops: list[int] = []
        while len(tops) < 3:
            assert take_turn(page) != "over"
            tops = page.evaluate(LAID_TOPS)
        assert len(set(tops)) < len(tops)
        screenshot(page, f"classic-play-{size}")
        assert outside_viewport(page) == []
        # The table and the hand fit on one screen together.
        hand = box(page, "#c-hand")
        assert hand["y"] + hand["height"] - box(page, ".c-table")["y"] <= SIZES[size]["viewport"]["height"]
        assert errors == []
