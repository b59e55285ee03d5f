"""The front door (the start page) in Chromium at 390x844 and 1280x800: the three ways
in (Play now, Play the computer, Learn) on the first screen, no sideways scroll, no
serious axe finding; the lessons suggestion until dismissed or a lesson is finished; the
quick-pairing grid's Play now; the example turn that never moves the page; the live
games drawn as small boards."""

from __future__ import annotations

import time

import httpx
import pytest
from browser_pages import SIZES, outside_viewport, screenshot, serious_violations, sized_page
from web_support import auth

ACTIONS = ["#play-now", "#play-computer", "#learn-action"]
BOXES = "sel => { const r = document.querySelector(sel).getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right]; }"


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_three_ways_in_are_on_the_first_screen(browser, server, size: str) -> None:
    with sized_page(browser, size) as (page, errors):
        page.goto(server.url + "/")
        page.wait_for_selector("#meet[data-ready]")
        height = SIZES[size]["viewport"]["height"]
        width = SIZES[size]["viewport"]["width"]
        for action in ACTIONS:
            assert page.is_visible(action), action
            top, bottom, left, right = page.evaluate(BOXES, action)
            assert 0 <= top and bottom <= height, (action, top, bottom)
            assert 0 <= left and right <= width, (action, left, right)
        assert page.inner_text("#learn-action").startswith("Learn")
        assert page.get_attribute("#learn-action", "href") == "/learn"
        assert page.inner_text("#front-title") == "Kings Cribbage"
        # "Set up a game yourself" stays reachable: a link to its form
        page.click("nav.site-nav a[href='#setup-title']")
        assert page.is_visible("#new-game")
        assert outside_viewport(page) == []
        assert serious_violations(page) == []
        screenshot(page, f"front-door-{size}")
        assert errors == []


def test_the_lessons_suggestion_stays_until_dismissed(browser, server) -> None:
    with sized_page(browser, "phone") as (page, errors):
        page.goto(server.url + "/")
        page.wait_for_selector("#meet[data-ready]")
        assert page.is_visible("#learn-suggest")
        page.reload()  # a second visit: still suggested (nothing said, nothing learnt)
        page.wait_for_selector("#meet[data-ready]")
        assert page.is_visible("#learn-suggest")
        page.click("#learn-suggest-close")
        assert page.is_hidden("#learn-suggest")
        page.reload()
        page.wait_for_selector("#meet[data-ready]")
        assert page.is_hidden("#learn-suggest")
        assert errors == []


def test_the_lessons_suggestion_goes_once_a_lesson_is_finished(browser, server) -> None:
    with sized_page(browser, "desktop") as (page, errors):
        page.goto(server.url + "/learn")
        # what the lessons page keeps when a lesson is finished (js/pages/learn.js)
        page.evaluate("""() => localStorage.setItem('kingscrib:learn',
            JSON.stringify({kings: [], cribbage: ['counting']}))""")
        page.goto(server.url + "/")
        page.wait_for_selector("#meet[data-ready]")
        assert page.is_hidden("#learn-suggest")
        page.evaluate("() => localStorage.setItem('kingscrib:learn', '{\"kings\": []}')")
        page.reload()
        page.wait_for_selector("#meet[data-ready]")
        assert page.is_visible("#learn-suggest")
        assert errors == []


def test_a_click_in_the_quick_pairing_grid_is_play_now_for_that_game_and_clock(
        browser, server) -> None:
    with sized_page(browser, "desktop") as (ann, ann_errors), \
            sized_page(browser, "phone") as (bob, bob_errors):
        for page in (ann, bob):
            page.goto(server.url + "/")
            page.wait_for_selector("#meet[data-ready]")
        cell = "#quick-grid .pair[data-game='cribbage'][data-clock='300']"
        ann.fill("#meet-name", "Ann")
        with ann.expect_request(lambda r: r.url.endswith("/api/lobby/play-now")
                                and r.method == "POST") as posted:
            ann.click(cell)
        assert posted.value.post_data_json == {"name": "Ann", "game": "cribbage", "clock_seconds": 300}
        ann.wait_for_selector(f"{cell}.mine")
        assert ann.inner_text(f"{cell} .pair-wait") == "you are waiting"
        bob.wait_for_selector(f"{cell}.waiting")  # live, without reloading
        assert bob.inner_text(f"{cell} .pair-wait") == "1 waiting"
        others = bob.locator("#quick-grid .pair.waiting")
        assert others.count() == 1  # only that game and clock
        assert outside_viewport(bob) == []
        screenshot(bob, "front-door-grid-waiting-phone")
        bob.fill("#meet-name", "Bob")
        bob.click(cell)
        bob.wait_for_url("**/?game=*")
        ann.wait_for_url("**/?game=*")
        game_id = bob.url.split("game=")[1].split("&")[0]
        assert ann.url.split("game=")[1].split("&")[0] == game_id
        view = httpx.get(f"{server.url}/api/games/{game_id}").json()
        assert view["game"] == "cribbage" and view["clock"]["seconds"] == 300
        assert ann_errors == bob_errors == []


def test_the_example_turn_plays_without_moving_the_page(browser, server) -> None:
    with sized_page(browser, "phone") as (page, errors):
        page.goto(server.url + "/")
        page.wait_for_selector("#demo[data-step='laying']")
        # the example, the actions and where the lobby below begins (the lobby's own
        # lists may grow downwards meanwhile)
        placed = ("#demo", "#play-now", "#meet-title")
        before = [page.evaluate(BOXES, s) for s in placed]
        page.wait_for_selector("#demo[data-step='counting']")
        page.wait_for_selector("#demo .demo-count li.said >> nth=1")
        assert page.locator("#demo .tile.counted").count() >= 2
        after = [page.evaluate(BOXES, s) for s in placed]
        assert after == before
        assert errors == []
    context = browser.new_context(**SIZES["phone"], reduced_motion="reduce")
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        page.wait_for_selector("#demo[data-step='done']")  # the finished count, still
        page.wait_for_timeout(700)
        assert page.get_attribute("#demo", "data-step") == "done"
        shown = page.locator("#demo .demo-count li").evaluate_all(
            "els => els.map(e => getComputedStyle(e).opacity)")
        assert shown == ["1"] * 5
        assert page.locator("#demo .tile.placed").evaluate_all(
            "els => els.map(e => getComputedStyle(e).opacity)") == ["1"] * 3
    finally:
        context.close()


def test_a_live_game_is_a_small_board(browser, server) -> None:
    created = httpx.post(f"{server.url}/api/games", json={"seats": [
        {"name": "Ann"}, {"kind": "computer", "level": "greedy"}]}).json()
    game_id, token = created["game_id"], created["token"]
    view = lambda: httpx.get(f"{server.url}/api/games/{game_id}").json()  # noqa: E731
    deadline = time.monotonic() + 30
    while not ((now := view())["board"] and now["turn"] == 0):  # tiles, and Ann's move
        assert time.monotonic() < deadline
        if now["turn"] == 0 and not now["board"]:  # Ann passes until the computer plays
            assert httpx.post(f"{server.url}/api/games/{game_id}/actions", json={"action": "pass"},
                              headers=auth(token)).status_code == 200
        time.sleep(0.1)
    with sized_page(browser, "desktop") as (page, errors):
        page.goto(server.url + "/")
        card = page.locator(f"#watch a.watch-card[href*='{game_id}']")
        card.wait_for(timeout=30_000)
        page.wait_for_function(
            "id => document.querySelector(`#watch a[href*='${id}'] .what`).textContent.includes('–')",
            arg=game_id)
        light = card.locator("svg rect[fill='var(--light)']").count()
        dark = card.locator("svg rect[fill='var(--dark)']").count()
        board = now["board"]
        assert (light, dark) == (sum(t.endswith("L") for t in board.values()),
                                 sum(t.endswith("D") for t in board.values()))
        assert card.locator("svg rect[fill='var(--square)']").count() == 163 - len(board)
        scores = " – ".join(str(s["score"]) for s in now["seats"])
        assert card.locator(".what").inner_text() == f"Kings Cribbage · {scores}"
        assert "Ann" in card.inner_text()
        assert serious_violations(page) == []
        screenshot(page, "front-door-live-game-desktop")
        assert errors == []
