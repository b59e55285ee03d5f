"""A rematch from two browsers: the host asks for it at the end, the invited friend sees
the offer and joins with one click; both land in the new game in their seats, placed so
that the player after the last game's first player moves first."""

from __future__ import annotations

from pathlib import Path

import httpx
from browser_pages import DESKTOP, PHONE, screenshot, start_from_lobby
from web_support import chromium, running_server

from kingscrib.kings.record import check_record


def test_rematch_from_two_browsers(tmp_path: Path) -> None:
    with chromium() as browser, running_server(tmp_path / "web.sqlite3") as server:
        host, friend = browser.new_context(**DESKTOP), browser.new_context(**PHONE)
        try:
            a = host.new_page()
            start_from_lobby(a, server.url, ["human", "human"])
            a.wait_for_selector("#invite-link")
            b = friend.new_page()
            b.goto(a.input_value("#invite-link"))
            b.fill("#join-name", "Bob")
            b.click('#join-seats button[data-seat="1"]')
            b.wait_for_selector("#rack .tile")
            # Both pass until three scoreless rounds end the game.
            for _ in range(12):
                if a.is_visible("#end") and b.is_visible("#end"):
                    break
                for page in (a, b):
                    if page.locator("#turn-banner.mine").count():
                        n = page.locator("#history li").count()
                        page.click("#pass")
                        page.wait_for_function(
                            "(n) => document.querySelectorAll('#history li').length > n", arg=n)
                a.wait_for_timeout(100)
            a.wait_for_selector("#end:not([hidden]) #rematch")
            b.wait_for_selector("#end:not([hidden]) #rematch")
            assert b.inner_text("#rematch") == "Rematch"
            for page in (a, b):  # nothing left to press but what comes next
                assert page.locator("#kings-controls").is_hidden()
                assert page.locator("#rack").is_hidden()
            screenshot(b, "kings-end-rematch-phone")
            old = a.url
            old_id = old.split("game=")[1]
            began = check_record(httpx.get(f"{server.url}/api/games/{old_id}/record").json())
            a.click("#rematch")
            a.wait_for_url(lambda url: url != old)
            a.wait_for_selector("#rack .tile")
            # The player after the last game's first player moves first: the seats are
            # placed where the new game's draw puts them.
            new = httpx.get(f"{server.url}/api/games/{a.url.split('game=')[1]}").json()
            names = [s["name"] for s in new["seats"]]
            assert names[new["turn"]] == began.names[1 - began.first_player]
            host_seat, bob_seat = names.index("Person 1"), 1 - names.index("Person 1")
            assert "you" in a.inner_text(f'#scores tr[data-seat="{host_seat}"]')
            # The friend's end box offers the rematch; one click seats Bob in his seat.
            b.wait_for_selector("#rematch-offer", timeout=10_000)
            assert b.inner_text("#rematch") == "Join the rematch"
            b.click("#rematch")
            b.wait_for_url(lambda url: url.split("game=")[1] == a.url.split("game=")[1])
            b.wait_for_selector("#rack .tile")
            assert "Bob" in b.inner_text(f'#scores tr[data-seat="{bob_seat}"]')
            assert "you" in b.inner_text(f'#scores tr[data-seat="{bob_seat}"]')
            a.wait_for_selector(f'#scores tr[data-seat="{bob_seat}"] .dot.on')
            # Back on the old game, each browser is sent on to the rematch.
            b.goto(old)
            b.wait_for_selector("#rematch-link")
            assert b.inner_text("#rematch-link") == "Go to the rematch"
        finally:
            host.close()
            friend.close()


def test_your_games_lists_this_browsers_seats(tmp_path: Path) -> None:
    """The start page lists the games this browser holds seats in: whose turn, finished
    ones last, each a link; another browser profile sees none of them."""
    with chromium() as browser, running_server(tmp_path / "web.sqlite3") as server:
        mine, other = browser.new_context(**PHONE), browser.new_context(**DESKTOP)
        try:
            page = mine.new_page()
            start_from_lobby(page, server.url, ["human", "human"])  # waits for a friend
            page.wait_for_selector("#rack .tile")
            waiting = page.url.split("game=")[1]
            start_from_lobby(page, server.url, ["human", "computer"], game="cribbage")
            page.wait_for_selector("#c-hand .card")
            page.wait_for_function("() => document.title.startsWith('● Your turn')")
            page.click("#sound")  # the turn tone, kept in this browser
            assert page.get_attribute("#sound", "aria-pressed") == "true"
            page.reload()
            page.wait_for_selector("#c-hand .card")
            assert page.inner_text("#sound") == "Sound on"
            classic = page.url.split("game=")[1]
            page.goto(server.url + "/")
            page.wait_for_selector(f"#your-turn-list li[data-game='{classic}']")
            assert "Cribbage: Person 1 v Computer (Beginner)" in page.inner_text("#your-turn-list")
            page.wait_for_selector("#my-games:not([hidden]) li:not([hidden])")
            items = page.locator("#my-games li:visible")  # your turn's game is listed above
            assert items.count() == 1
            assert items.nth(0).get_attribute("data-game") == waiting
            assert "Waiting for" in items.nth(0).inner_text()
            screenshot(page, "my-games-phone")
            items.nth(0).locator("a").click()
            page.wait_for_url(f"**/?game={waiting}")
            # Nobody came: cancel it (two steps), from the game page.
            page.click(".cancel-game")
            assert page.inner_text(".cancel-game") == "Yes, cancel it for everyone"
            page.click(".cancel-game")
            page.wait_for_url(server.url + "/")
            page.wait_for_selector(f"#your-turn-list li[data-game='{classic}']")
            page.wait_for_selector("#my-games", state="hidden")  # nothing else is left
            assert page.locator("#my-games li").count() == 1
            assert httpx.get(f"{server.url}/api/games/{waiting}").status_code == 404
            stranger = other.new_page()
            stranger.goto(server.url + "/")
            stranger.wait_for_selector("#new-game[data-ready]")
            assert stranger.locator("#my-games").is_hidden()
        finally:
            mine.close()
            other.close()
