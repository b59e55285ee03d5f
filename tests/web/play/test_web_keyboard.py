"""The Kings game by keyboard only, spoken names and announcements, and an accessibility
audit (axe-core) of the start, game and end pages of both games at both sizes."""

from __future__ import annotations

import json
import time

import httpx
import pytest
from browser_pages import screenshot, serious_violations, sized_page, start_from_lobby

from kingscrib.kings.record import check_record

COLUMNS = "ABCDEFGHIJKLM"
MY_TURN_OR_OVER = """() => document.querySelector('#turn-banner').classList.contains('mine')
                     || !document.getElementById('end').hidden"""


def cursor(page) -> str:
    return page.get_attribute("#board .sq.cursor", "data-square")


def row_col(square: str) -> tuple[int, int]:
    return int(square[1:]) - 1, COLUMNS.index(square[0])


def go_to(page, target: str) -> None:
    """Arrow keys until the cursor is on `target`, going round the title patch (rows 1-2,
    columns A-C): from the rows under it, columns first; from beside it, rows first."""
    for _ in range(40):
        here = cursor(page)
        if here == target:
            return
        (r, c), (tr, tc) = row_col(here), row_col(target)
        if (r >= 2 and c != tc) or r == tr:
            page.keyboard.press("ArrowRight" if tc > c else "ArrowLeft")
        else:
            page.keyboard.press("ArrowDown" if tr > r else "ArrowUp")
    raise AssertionError(f"the cursor did not reach {target}")


def rank_key(tile: str) -> str:
    return tile[0].lower()


def take_turn_by_keyboard(page) -> str:
    before = page.locator("#history li").count()
    page.keyboard.press("h")
    page.wait_for_selector("#hint-box[data-hint]", timeout=60_000)
    hint = json.loads(page.get_attribute("#hint-box", "data-hint"))
    if hint["play"]:
        for square, tile in hint["tiles"].items():
            go_to(page, square)
            page.keyboard.press(rank_key(tile))
            placed = page.locator(f'[data-square="{square}"] .tile')
            if placed.get_attribute("data-tile")[-1] != tile[-1]:
                page.keyboard.press("c")  # the other colour
            assert placed.get_attribute("data-tile") == tile
            label = page.get_attribute(f'[data-square="{square}"]', "aria-label")
            assert label.startswith(f"{square}, {'light' if tile[-1] == 'L' else 'dark'} ")
        page.wait_for_selector(f'#preview[data-score="{hint["score"]}"]', timeout=10_000)
        page.wait_for_selector("#commit:not([disabled])")
        page.keyboard.press("Enter")
        done = "play"
    elif hint["exchange"]:
        rack = page.locator("#rack .tile").evaluate_all("els => els.map(e => e.dataset.held)")
        page.keyboard.press("x")
        for tile in rack[:hint["exchange"]]:
            page.keyboard.press(rank_key(tile))
        assert page.locator("#rack .tile.marked").count() == hint["exchange"]
        page.keyboard.press("x")
        done = "exchange"
    else:
        page.keyboard.press("p")
        done = "pass"
    page.wait_for_function("(n) => document.querySelectorAll('#history li').length > n",
                           arg=before, timeout=10_000)
    assert page.inner_text("#message") == ""
    return done


def test_a_whole_game_by_keyboard_only_with_audits(browser, server) -> None:
    with sized_page(browser, "desktop") as (page, errors):
        page.goto(server.url + "/")
        page.wait_for_selector("#new-game[data-ready]")
        assert serious_violations(page) == []
        start_from_lobby(page, server.url, ["human", "computer"])
        page.wait_for_selector("#rack .tile")
        # The help panel lists every key.
        page.locator("#board .sq.cursor").focus()
        page.keyboard.press("?")
        assert page.is_visible("#help")
        for key in ("Arrow keys", "Space", "Backspace", "Enter", "X", "P", "H", "F", "?"):
            assert key in page.inner_text("#help")
        assert serious_violations(page) == []
        page.keyboard.press("Escape")
        assert page.is_hidden("#help")
        # Backspace takes the last tile back; Escape every one.
        page.wait_for_function(MY_TURN_OR_OVER, timeout=60_000)
        page.locator("#board .sq.cursor").focus()
        first = page.locator("#rack .tile").first.get_attribute("data-held")
        page.keyboard.press(rank_key(first))
        assert page.locator("#board .tile.pending").count() == 1
        page.keyboard.press("Backspace")
        assert page.locator("#board .tile.pending").count() == 0
        page.keyboard.press(rank_key(first))
        page.keyboard.press("Escape")
        assert page.locator("#board .tile.pending").count() == 0

        turns = 0
        while True:
            page.wait_for_function(MY_TURN_OR_OVER, timeout=60_000)
            if page.is_visible("#end"):
                break
            take_turn_by_keyboard(page)
            turns += 1
            if turns == 2:
                # The other side's move was announced with the scores and the turn.
                page.wait_for_function(MY_TURN_OR_OVER, timeout=60_000)
                said = page.inner_text("#announce")
                assert "played" in said or "exchanged" in said or "passed" in said
                assert "Scores:" in said
                assert serious_violations(page) == []
        assert turns > 3
        screenshot(page, "kings-end-keyboard-desktop")
        assert serious_violations(page) == []
        state = httpx.get(page.url.replace("/?game=", "/api/games/")).json()
        record = httpx.get(server.url + page.get_attribute("#record-link", "href")).json()
        assert check_record(record).final_scores == state["end"]["scores"]
        assert errors == []


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_pages_pass_an_accessibility_audit(browser, server, size: str) -> None:
    with sized_page(browser, size) as (page, _errors):
        page.goto(server.url + "/")
        page.wait_for_selector("#new-game[data-ready]")
        assert serious_violations(page) == []
        start_from_lobby(page, server.url, ["human", "computer"], game="cribbage")
        page.wait_for_selector("#c-hand .card")
        assert serious_violations(page) == []
        created = httpx.post(server.url + "/api/games", json={
            "seats": [{"kind": "computer", "level": "greedy"}] * 2, "seed": 9}).json()
        deadline = time.monotonic() + 60
        while not httpx.get(f"{server.url}/api/games/{created['game_id']}").json()["over"]:
            assert time.monotonic() < deadline
            time.sleep(0.2)
        page.goto(f"{server.url}/?game={created['game_id']}&watch=1")
        page.wait_for_selector("#end:not([hidden]) #standings")
        assert serious_violations(page) == []
