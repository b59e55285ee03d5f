"""The tutorial page in Chromium: the first three Kings lessons played through by mouse
(a wrong play tried first, refused with the engine's reason) and by keyboard alone, at
390x844 and 1280x800; the page fits, passes the axe audit, and remembers what was
finished in this browser."""

from __future__ import annotations

import pytest
from browser_pages import SIZES, outside_viewport, screenshot, serious_violations, sized_page


def lay(page, tiles: list[tuple[str, str]]) -> None:
    """Click each rack tile (by its face) and then its square; ``9`` turns a 6/9 first."""
    for face, square in tiles:
        wanted = "6" if face == "9" else face
        page.locator("#learn-rack button.tile", has_text=wanted).first.click()
        if face == "9":
            page.click("#learn-turn69")
        page.click(f'#step-setup .sq[data-square="{square}"]')


def play_and_go_on(page) -> None:
    page.click("#learn-play")
    page.wait_for_selector("#verdict .good")
    page.click("#next")


MOUSE = [  # the first three lessons' steps, as tiles laid by mouse
    [("6", "H7"), ("9", "I7"), ("K", "J7")],
    [("J", "F7")],
    [("3", "I7"), ("3", "J7")],
    [("8", "G8")],
    [("8", "G7"), ("7", "H7"), ("8", "I7"), ("7", "J7"), ("9", "K7")],
]

TYPED = ["H7 across 6 9 K", "I7 J", "E7 across 3 3", "G8 8", "G7 down 9 8 7 8 7"]


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_first_three_lessons_by_mouse(browser, server, size: str) -> None:
    with sized_page(browser, size) as (page, errors):
        page.goto(server.url + "/learn")
        page.wait_for_selector("#learn-rack button.tile")
        assert page.inner_text("#lesson-title") == "1. A valid hand"
        assert "crossword" in page.inner_text("#learn-goal")
        lay(page, [("6", "H7"), ("6", "I7")])  # K 6 6: the king scores nothing
        page.click("#learn-play")
        page.wait_for_selector("#verdict .bad")
        assert "scores nothing" in page.inner_text("#verdict")
        page.click("#learn-take-back")
        assert page.locator("#learn-rack button.tile").count() == 3
        assert outside_viewport(page) == []
        assert serious_violations(page) == []
        screenshot(page, f"learn-wrong-{size}")
        for n, tiles in enumerate(MOUSE):
            lay(page, tiles)
            if n == 0:
                page.click("#learn-play")
                page.wait_for_selector("#verdict .good")
                assert "K69K = 4" in page.inner_text("#verdict")
                screenshot(page, f"learn-right-{size}")
                page.click("#next")
            else:
                play_and_go_on(page)
        assert page.inner_text("#lesson-title") == "4. The 6/9 tiles"
        assert page.locator(".lesson-nav button.done").count() == 3
        page.reload()  # remembered in this browser: the first lesson not finished opens
        page.wait_for_selector("#learn-rack button.tile")
        assert page.inner_text("#lesson-title") == "4. The 6/9 tiles"
        assert page.locator(".lesson-nav button.done").count() == 3
        assert errors == []


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_first_three_lessons_by_keyboard(browser, server, size: str) -> None:
    with sized_page(browser, size) as (page, errors):
        page.goto(server.url + "/learn")
        page.wait_for_selector("#learn-rack button.tile")
        for n, move in enumerate(TYPED):
            for _ in range(80):  # Tab along the page to the typed answer
                if page.evaluate("document.activeElement.id") == "typed-answer":
                    break
                page.keyboard.press("Tab")
            assert page.evaluate("document.activeElement.id") == "typed-answer"
            if n == 0:  # a wrong one first: said, nothing changes
                page.keyboard.type("H7 across 6 6")
                page.keyboard.press("Enter")
                page.wait_for_selector("#verdict .bad")
                page.fill("#typed-answer", "")
            page.keyboard.type(move)
            page.keyboard.press("Enter")
            page.wait_for_selector("#verdict .good")
            assert page.evaluate("document.activeElement.id") == "next"
            if n == 4:
                assert serious_violations(page) == []
                assert outside_viewport(page) == []
                screenshot(page, f"learn-keyboard-{size}")
            page.keyboard.press("Enter")
        assert page.inner_text("#lesson-title") == "4. The 6/9 tiles"
        assert page.evaluate("document.activeElement.id") == "lesson-title"
        assert errors == []


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_rules_pages_and_the_cribbage_lessons_read_well(browser, server, size: str) -> None:
    with sized_page(browser, size) as (page, errors):
        for game, drawn in (("kings", ".mini-board .tile"), ("cribbage", ".card-line .card")):
            page.goto(f"{server.url}/rules/{game}")
            page.wait_for_selector(drawn)
            assert page.get_attribute("main a[href^='/learn']", "href") == f"/learn?game={game}"
            assert outside_viewport(page) == []
            assert serious_violations(page) == []
            screenshot(page, f"rules-{game}-{size}")
        assert page.locator(".hand-line .tile").count() == 0  # the cribbage page has none
        page.goto(f"{server.url}/learn?game=cribbage")
        page.wait_for_selector("#typed-answer")
        page.fill("#typed-answer", "4")
        page.keyboard.press("Enter")
        page.wait_for_selector("#verdict .bad")
        assert "worth 6" in page.inner_text("#verdict")
        assert outside_viewport(page) == []
        assert serious_violations(page) == []
        assert errors == []


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_start_page_suggests_the_lessons_once_and_names_the_levels(browser, server,
                                                                       size: str) -> None:
    from kingscrib.players.level_names import GENTLE_DEFAULT, describe, title
    with sized_page(browser, size) as (page, errors):
        page.goto(server.url + "/")
        page.wait_for_selector("#new-game[data-ready]")
        assert page.is_visible("#learn-suggest")
        assert page.get_attribute("#learn-suggest-link", "href") == "/learn"
        computer = page.locator(".seat-row").nth(1).locator(".level")
        assert computer.input_value() == GENTLE_DEFAULT
        shown = computer.locator("option:checked")
        assert shown.inner_text() == title("kings", GENTLE_DEFAULT)
        assert "gentle" in shown.get_attribute("title")
        assert "expert-v1" not in computer.inner_text()  # titles, not technical names
        # Weakest first, each player once (greedy and equity are Casual and Strong), and
        # the chosen level's line beside the list.
        assert computer.locator("option").all_inner_texts() == [
            "Random", "Beginner", "Casual", "Strong", "Expert (previous)", "Simulator", "Expert"]
        line = page.locator(".seat-row").nth(1).locator(".level-line")
        assert line.inner_text() == describe("kings", GENTLE_DEFAULT).line
        computer.select_option("hard")
        assert line.inner_text() == describe("kings", "hard").line
        computer.select_option(GENTLE_DEFAULT)
        assert outside_viewport(page) == []
        assert serious_violations(page) == []
        screenshot(page, f"start-suggests-lessons-{size}")
        page.check('#game-choice input[value="cribbage"]')
        assert page.locator(".seat-row").nth(1).locator(".level option:checked").inner_text() \
            == title("cribbage", GENTLE_DEFAULT)
        page.click("#learn-suggest-close")
        assert page.is_hidden("#learn-suggest")
        page.reload()  # a second visit: no suggestion, the links stay
        page.wait_for_selector("#new-game[data-ready]")
        assert page.is_hidden("#learn-suggest")
        for href in ("/learn", "/rules/kings", "/rules/cribbage"):
            assert page.locator(f".learn-links a[href='{href}']").count() == 1
        assert errors == []


def test_a_guests_lessons_join_the_account_and_follow_it_to_another_browser(browser, server
                                                                            ) -> None:
    account = {"name": "Lesson Taker", "password": "tiles and pegs"}
    first = browser.new_context(**SIZES["desktop"])
    page = first.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(server.url + "/learn")
        page.wait_for_selector("#typed-answer")
        # The note is written once the page has asked the server who is logged in.
        page.wait_for_selector("#progress-note:has-text('kept in this browser')")
        for move in ("H7 across 6 9 K", "F7 J"):
            page.fill("#typed-answer", move)
            page.keyboard.press("Enter")
            page.wait_for_selector("#verdict .good")
            page.click("#next")
        assert page.locator(".lesson-nav button.done").count() == 1
        assert page.request.post(server.url + "/api/account/signup",
                                 data=account).status == 201
        page.reload()
        page.wait_for_selector("#progress-note:has-text('kept with your account')")
        assert page.request.get(server.url + "/api/learn-progress").json()["progress"][
            "kings"] == ["valid-hands"]
        assert errors == []
    finally:
        first.close()
    other = browser.new_context(**SIZES["phone"])  # another device: nothing in its storage
    page = other.new_page()
    try:
        assert page.request.post(server.url + "/api/account/login", data=account).ok
        page.goto(server.url + "/learn")
        page.wait_for_selector("#progress-note:has-text('kept with your account')")
        assert page.locator(".lesson-nav button.done").count() == 1
        assert page.evaluate("JSON.parse(localStorage.getItem('kingscrib:learn')).kings") \
            == ["valid-hands"]
    finally:
        other.close()
