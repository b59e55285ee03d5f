"""The puzzle page in Chromium at phone and desktop sizes: a Kings puzzle solved (by taps
on a phone, by typing at the board's cursor on a desktop) and a Cribbage puzzle failed
by keyboard, the guest's rating moving up then down; an illegal play refused with the
reason and nothing judged; the page fits and passes the axe audit."""

from __future__ import annotations

import json
import re

import pytest
from browser_pages import outside_viewport, screenshot, serious_violations, sized_page

from kingscrib.kings.moves import Play
from kingscrib.kings.notation import parse_action
from kingscrib.kings.position import Position
from kingscrib.puzzles.puzzle import Puzzle, shipped

COLUMNS = "ABCDEFGHIJKLM"


def typable_kings_puzzle() -> tuple[Puzzle, Play, str]:
    """A Kings puzzle whose best play is one line of tiles with no 6/9 and no rank held
    in both colours (so typing the ranks places exactly its tiles), and its direction."""
    for p in shipped("kings"):
        position = Position.from_json(p.position)
        if not re.match(r"^[A-M]\d+ (across|down) [^()]*$", p.answer):
            continue
        action = parse_action(p.answer, position.board, position.rack)
        tiles = action.tiles_json()
        ranks = [str(t)[0] for t in position.rack]
        if any(t[0] in "69" for t in tiles.values()):
            continue
        if any(ranks.count(t[0]) > 1 and len({str(x) for x in position.rack
                                              if str(x)[0] == t[0]}) > 1 for t in tiles.values()):
            continue
        if len(tiles) >= 2:
            return p, action, p.answer.split()[1]
    raise AssertionError("no typable Kings puzzle shipped")


def discard_puzzle() -> Puzzle:
    return next(p for p in shipped("cribbage") if p.kind == "best-discard")


def guest_rating(page, game: str) -> float:
    kept = page.evaluate(f"localStorage.getItem('kingscrib:puzzles:{game}')")
    return json.loads(kept)["rating"]


def cursor(page) -> str:
    return page.get_attribute("#board .sq.cursor", "data-square")


def move_cursor_to(page, target: str) -> None:
    """Arrow keys from the cursor to ``target``: across first unless the target lies in
    the columns beside the title patch (rows 1-2 of A-C are not squares)."""
    col, row = COLUMNS.index(target[0]), int(target[1:])
    order = ["col", "row"] if col >= 3 else ["row", "col"]
    for axis in order:
        for _ in range(30):
            here = cursor(page)
            c, r = COLUMNS.index(here[0]), int(here[1:])
            if axis == "col" and c != col:
                page.keyboard.press("ArrowRight" if col > c else "ArrowLeft")
            elif axis == "row" and r != row:
                page.keyboard.press("ArrowDown" if row > r else "ArrowUp")
            else:
                break
    assert cursor(page) == target


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_puzzle_solved_and_one_failed(browser, server, size: str) -> None:
    puzzle, best, direction = typable_kings_puzzle()
    tiles = best.tiles_json()
    with sized_page(browser, size) as (page, errors):
        page.goto(f"{server.url}/puzzles/kings?id={puzzle.id}")
        page.wait_for_selector("#rack .tile")
        assert page.inner_text("#p-rating") == "Puzzle rating: 1500"
        assert puzzle.answer not in page.content()  # not sent before the answer
        assert outside_viewport(page) == []
        assert serious_violations(page) == []
        screenshot(page, f"puzzle-kings-{size}")

        if size == "desktop":  # an illegal play first: refused with the reason
            free = next(f"{c}{r}" for r in range(13, 0, -1) for c in reversed(COLUMNS)
                        if f"{c}{r}" not in puzzle.position["board"]
                        and not any(f"{c2}{r2}" in puzzle.position["board"]
                                    for c2, r2 in _around(c, r)))
            page.click(f"#rack .tile[data-tile='{puzzle.position['rack'][0]}']")
            page.click(f"[data-square='{free}']")
            page.click("#commit")
            page.wait_for_function("() => { const t = document.querySelector('#p-message')"
                                   ".textContent; return t.length > 10 && t !== 'Checking…'; }")
            assert "not an answer" in page.inner_text("#p-message")
            assert page.is_hidden("#p-result")
            page.click("#recall")
            # then the answer typed at the cursor, as in a game
            page.focus("#board .sq.cursor")
            first = next(iter(tiles))
            move_cursor_to(page, first)
            if direction == "down":
                page.keyboard.press(" ")
            for square, tile in tiles.items():
                page.keyboard.press(tile[0].lower())
                assert page.get_attribute(f"[data-square='{square}'] .tile", "data-tile") == tile
            page.keyboard.press("Enter")
        else:  # taps: a rack tile, then its square
            for square, tile in tiles.items():
                page.tap(f"#rack .tile[data-tile='{tile}']")
                page.tap(f"[data-square='{square}']")
            page.tap("#commit")
        page.wait_for_selector("#p-result:not([hidden])")
        assert page.inner_text("#p-verdict").startswith("Right!")
        assert int(page.get_attribute("#p-change", "data-delta")) > 0
        solved = guest_rating(page, "kings")
        assert solved > 1500
        assert page.inner_text("#p-rating").startswith(f"Puzzle rating: {round(solved)}")
        assert "Best: " in page.inner_text("#p-lines")
        assert outside_viewport(page) == []
        assert serious_violations(page) == []
        screenshot(page, f"puzzle-kings-solved-{size}")

        # a Cribbage discard failed, by keyboard: the two cards, then the button
        p = discard_puzzle()
        page.goto(f"{server.url}/puzzles/cribbage?id={p.id}")
        page.wait_for_selector("#c-hand .card")
        assert page.inner_text("#p-rating") == "Puzzle rating: 1500"  # each game its own
        for card in p.second["discard"]:
            page.focus(f"#c-hand .card[data-card='{card}']")
            page.keyboard.press("Enter")
        assert page.get_attribute(f"#c-hand .card[data-card='{p.second['discard'][0]}']",
                                  "aria-pressed") == "true"
        page.focus("#c-discard")
        page.keyboard.press("Enter")
        page.wait_for_selector("#p-result:not([hidden])")
        assert page.inner_text("#p-verdict").startswith(f"Not the best. The best is {p.answer}")
        assert f"It gave up {p.margin:.2f} points" in page.inner_text("#p-lines")
        assert int(page.get_attribute("#p-change", "data-delta")) < 0
        assert guest_rating(page, "cribbage") < 1500
        assert guest_rating(page, "kings") == solved  # the other game's rating untouched
        lit = page.eval_on_selector_all("#c-hand .card.lit", "els => els.map(e => e.dataset.card)")
        assert sorted(lit) == sorted(p.answer.split())
        assert outside_viewport(page) == []
        assert serious_violations(page) == []
        screenshot(page, f"puzzle-cribbage-failed-{size}")

        # the next puzzle comes at once, and the daily one is today's
        page.click("#p-again")
        page.wait_for_function(f"() => !location.search.includes('{p.id}')")
        page.wait_for_selector("#p-result[hidden]", state="attached")
        page.click("#p-daily")
        page.wait_for_function("() => document.querySelector('#p-title').textContent"
                               ".startsWith('Daily puzzle')")
        assert serious_violations(page) == []
        assert errors == []


def _around(c: str, r: int) -> list[tuple[str, int]]:
    i = COLUMNS.index(c)
    return [(COLUMNS[j], s) for j in range(max(0, i - 1), min(13, i + 2))
            for s in range(max(1, r - 1), min(13, r + 1) + 1)]


def test_a_logged_in_players_rating_is_kept_by_the_server(browser, server) -> None:
    p = shipped("kings")[0]
    with sized_page(browser, "desktop") as (page, errors):
        page.goto(server.url + "/")
        page.wait_for_selector("#account:not([hidden])")
        page.click("#show-signup")
        page.fill("#account-name", "Puzzler")
        page.fill("#account-password", "tiles and pegs")
        page.click("#account-submit")
        page.wait_for_function("() => document.querySelector('#account-status')"
                               ".textContent.includes('Puzzler')")
        page.click("header nav.site-links a[href='/puzzles']")
        page.wait_for_selector("#p-puzzle:not([hidden])")
        page.goto(f"{server.url}/puzzles/kings?id={p.id}")
        page.wait_for_selector("#rack .tile")
        assert "Logged in as Puzzler" in page.inner_text("#p-who")
        page.click("#pass")  # not the best: the stored rating goes down
        page.wait_for_selector("#p-result:not([hidden])")
        assert page.inner_text("#p-verdict").startswith("Not the best.")
        assert int(page.get_attribute("#p-change", "data-delta")) < 0
        shown = page.inner_text("#p-rating")
        assert page.evaluate("() => localStorage.getItem('kingscrib:puzzles:kings')") is None
        page.goto(f"{server.url}/puzzles/kings?id={p.id}")  # read back from the server
        page.wait_for_selector("#rack .tile")
        assert page.inner_text("#p-rating") == shown
        assert int(shown.split(":")[1].split("·")[0]) < 1500
        page.click("#pass")  # a second answer is not rated
        page.wait_for_selector("#p-result:not([hidden])")
        assert "You answered this puzzle before" in page.inner_text("#p-change")
        assert page.inner_text("#p-rating") == shown
        assert serious_violations(page) == []
        assert errors == []
