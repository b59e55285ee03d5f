"""The start page as a newcomer meets it, in Chromium at 390x844 and 1280x800: one small
navigation holds the links to everything else, what the game is and the ways in come
first, finding an opponent before setting a game up by hand, "Your turn" only shows while a game waits, and Play the computer
starts against the gentle level, named by its title."""

from __future__ import annotations

import pytest
from browser_pages import outside_viewport, screenshot, serious_violations, sized_page

from kingscrib.players.level_names import GENTLE_DEFAULT, title

ELSEWHERE = ["/learn", "/learn?game=cribbage", "/rules/kings", "/rules/cribbage",
             "/your-turn", "/?replay=file"]
HEADER_ONLY = ["/puzzles", "/leaderboard", "/tournaments"]  # the site's header has them


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_start_page_leads_a_newcomer_to_an_opponent_and_links_the_rest_once(
        browser, server, size: str) -> None:
    with sized_page(browser, size) as (page, errors):
        page.goto(server.url + "/")
        page.wait_for_selector("#meet[data-ready]")
        page.wait_for_selector("#new-game[data-ready]")
        # find an opponent, play the computer, then learn
        ways = page.locator("#play-now, #play-computer, #learn-action, #learn-suggest-link")
        assert ways.evaluate_all("els => els.map(e => e.id)") == [
            "play-now", "play-computer", "learn-action", "learn-suggest-link"]
        for href in ELSEWHERE:  # each link once, in the navigation (and the suggestion)
            shown = page.locator(
                f"#lobby a[href='{href}']:visible:not(#learn-suggest-link, #learn-action)")
            assert shown.count() == 1, href
            assert page.locator(f"nav.site-nav a[href='{href}']").count() == 1, href
        for href in HEADER_ONLY:  # not repeated in the page
            assert page.locator(f"#lobby a[href='{href}']:visible").count() == 0, href
            assert page.locator(f"header nav.site-links a[href='{href}']").count() == 1, href
        assert page.is_hidden("#your-turn")  # nothing waits for a newcomer
        headings = page.locator("#lobby :is(h1, h2):visible").all_inner_texts()
        assert headings[0] == "Kings Cribbage"  # what the game is comes first
        assert headings[1].startswith("Quick pairing")
        assert headings.index("Set up a game yourself") > headings.index("Live games")
        assert page.locator("#lobby h1:visible").count() == 1
        assert outside_viewport(page) == []
        assert serious_violations(page) == []
        screenshot(page, f"start-page-{size}")

        page.click("#play-computer")
        page.wait_for_url("**/?game=*")
        computer = f"Computer ({title('kings', GENTLE_DEFAULT)})"
        page.wait_for_selector(f"#scores :text('{computer}')")
        page.goto(server.url + "/")  # the game waits for this browser's move now
        page.wait_for_selector("#your-turn:not([hidden]) #your-turn-list li[data-game]")
        assert computer in page.inner_text("#your-turn-list")
        assert serious_violations(page) == []
        screenshot(page, f"start-page-your-turn-{size}")
        assert errors == []


def test_a_game_waiting_for_your_move_is_listed_once_under_your_turn(browser, server) -> None:
    import httpx

    with sized_page(browser, "phone") as (page, errors):
        page.goto(server.url + "/")
        page.wait_for_selector("#new-game[data-ready]")
        page.click("#play-computer")  # a game that waits for this browser's move
        page.wait_for_url("**/?game=*")
        mine = page.url.split("game=")[1]
        page.wait_for_selector("#turn-banner.mine")
        waiting = httpx.post(f"{server.url}/api/games",
                             json={"seats": [{"name": "Ann"}, {"name": "Bob"}]}).json()
        page.evaluate("([id, t]) => localStorage.setItem(`kingscrib:token:${id}`, t)",
                      [waiting["game_id"], waiting["token"]])  # a game nobody has joined
        page.goto(server.url + "/")
        page.wait_for_selector(f"#your-turn-list li[data-game='{mine}']")
        page.wait_for_selector(f"#my-games-list li[data-game='{waiting['game_id']}']")
        page.wait_for_timeout(300)  # both lists settled
        shown = page.locator("#your-turn-list li[data-game]:visible, #my-games-list li:visible")
        assert shown.evaluate_all("els => els.map(e => e.dataset.game)") == [
            mine, waiting["game_id"]]  # once each: your move above, the rest below
        assert "Waiting for Bob" in page.inner_text("#my-games-list")
        assert outside_viewport(page) == []
        screenshot(page, "start-page-your-turn-once-phone")
        assert errors == []
