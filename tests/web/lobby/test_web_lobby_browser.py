"""The lobby on the start page in Chromium, two browsers: one signs up and posts a seek,
the other (a guest) sees it appear without reloading and accepts it with one click; both
land in the same game, each in their own seat. Play the computer stays one click."""

from __future__ import annotations

import httpx
import pytest
from browser_pages import outside_viewport, screenshot, sized_page

PASSWORD = "tiles and pegs"


def seat_seen(server, page, game_id: str) -> int:
    token = page.evaluate(f"localStorage.getItem('kingscrib:token:{game_id}')")
    assert token
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    r = httpx.get(f"{server.url}/api/games/{game_id}", cookies=cookies,
                  headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    return r.json()["you"]


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_seek_posted_in_one_browser_is_accepted_in_the_other(browser, server,
                                                                size: str) -> None:
    with sized_page(browser, size) as (alice, alice_errors), \
            sized_page(browser, size) as (guest, guest_errors):
        for page in (alice, guest):
            page.goto(server.url + "/")
            page.wait_for_selector("#meet[data-ready]")
        alice.click("#show-signup")
        alice.fill("#account-name", f"Alice {size}")
        alice.fill("#account-password", PASSWORD)
        alice.click("#account-submit")
        alice.wait_for_selector(f"#account-status:has-text('Logged in as Alice {size}.')")

        guest.fill("#meet-name", "Gus")
        alice.select_option("#quick-game", "cribbage")
        alice.click("#show-seek")
        alice.check("#seek-cribbage-rules [name=muggins]")
        alice.click("#post-seek")
        alice.wait_for_selector("#meet-message:has-text('Waiting for an opponent')")
        assert alice.input_value("#meet-name") == f"Alice {size}"  # (no reload since)
        item = guest.locator("#seeks li[data-seek]")
        item.wait_for()  # live: no reload
        text = item.inner_text()
        assert f"Alice {size} ✓" in text and "Cribbage" in text and "muggins" in text
        guest.wait_for_selector("#online:has-text('2 online')")
        assert outside_viewport(guest) == []
        screenshot(guest, f"lobby-seek-{size}")

        item.locator("button.accept").click()
        guest.wait_for_url("**/?game=*")
        alice.wait_for_url("**/?game=*")
        game_id = guest.url.split("game=")[1].split("&")[0]
        assert alice.url.split("game=")[1].split("&")[0] == game_id
        guest.wait_for_selector("#cribbage")
        alice.wait_for_selector("#cribbage")
        assert (seat_seen(server, alice, game_id), seat_seen(server, guest, game_id)) == (0, 1)
        screenshot(guest, f"lobby-game-{size}")

        # The game is listed to watch; Play the computer is one click.
        guest.goto(server.url + "/")
        guest.wait_for_selector(f"#watch a[href*='{game_id}']")
        guest.click("#play-computer")
        guest.wait_for_url("**/?game=*")
        assert guest.url.split("game=")[1] != game_id
        assert alice_errors == guest_errors == []


def test_play_now_waiters_are_counted_and_one_click_pairs_with_them(browser, server) -> None:
    with sized_page(browser, "desktop") as (ann, ann_errors), \
            sized_page(browser, "phone") as (bob, bob_errors):
        for page in (ann, bob):
            page.goto(server.url + "/")
            page.wait_for_selector("#meet[data-ready]")
        ann.fill("#meet-name", "Ann")
        ann.select_option("#quick-clock", "300")
        ann.click("#play-now")
        ann.wait_for_selector("#meet-message:has-text('Waiting for an opponent')")
        assert "Ann" in ann.locator("#seeks li[data-seek]").inner_text()  # hers, to cancel
        waiting = bob.locator("#seeks li.quick")
        waiting.wait_for()  # live, without reloading
        text = waiting.inner_text()
        assert "1 waiting for Play now" in text and "5 min" in text and "Ann" not in text
        assert bob.locator("#seeks li[data-seek]").count() == 0  # not her seek itself
        assert outside_viewport(bob) == []
        screenshot(bob, "lobby-play-now-waiting-phone")
        bob.fill("#meet-name", "Bob")
        waiting.locator("button").click()
        bob.wait_for_url("**/?game=*")
        ann.wait_for_url("**/?game=*")
        game_id = bob.url.split("game=")[1].split("&")[0]
        assert ann.url.split("game=")[1].split("&")[0] == game_id
        assert (seat_seen(server, ann, game_id), seat_seen(server, bob, game_id)) == (0, 1)
        assert ann_errors == bob_errors == []
