"""The profile page and the leaderboard in Chromium: after a rated game and an unrated
one against a computer, a player's page shows the rating, its history as a chart, the
games with their replay and analysis links and an archive that searches; the
leaderboard ranks the players (provisional marked) and lists the computer levels by
their titles; both fit a phone and pass the axe audit."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from browser_pages import SIZES, outside_viewport, screenshot, serious_violations, sized_page

from kingscrib.web.accounts.sessions import COOKIE
from kingscrib.web.ratings.maths import Rating, glicko2_period
from kingscrib.web.ratings.store import level_rating

PASSWORD = "tiles and pegs"


def signed_up(url: str, name: str) -> dict[str, str]:
    """The headers of a new account's requests (the Secure cookie sent by hand: the test
    server speaks plain http on the loopback address)."""
    r = httpx.post(f"{url}/api/account/signup", json={"name": name, "password": PASSWORD},
                   headers={"Origin": url})
    assert r.status_code == 201, r.text
    return {"Cookie": f"{COOKIE}={r.cookies[COOKIE]}", "Origin": url}


@pytest.fixture(scope="module")
def played(server) -> dict[str, Any]:
    """Ann beats Bob in a rated game (each passes once, then Bob resigns); Ann loses an unrated game to the
    computer (she resigns)."""
    url = server.url
    ann, bob = signed_up(url, "Ann Lee"), signed_up(url, "Bob")
    created = httpx.post(f"{url}/api/games", headers=ann, json={
        "seats": [{"name": "Ann Lee"}, {}], "rated": True}).json()
    joined = httpx.post(f"{url}/api/games/{created['game_id']}/join", headers=bob,
                        json={"invite": created["invite"], "name": "Bob"}).json()
    seats = {0: (ann, created["token"]), 1: (bob, joined["token"])}
    for _ in seats:  # both sides move first: a rated game ended before that is unrated
        turn = httpx.get(f"{url}/api/games/{created['game_id']}").json()["turn"]
        headers, token = seats[turn]
        r = httpx.post(f"{url}/api/games/{created['game_id']}/actions", json={"action": "pass"},
                       headers={**headers, "Authorization": f"Bearer {token}"})
        assert r.status_code == 200, r.text
    r = httpx.post(f"{url}/api/games/{created['game_id']}/resign",
                   headers={**bob, "Authorization": f"Bearer {joined['token']}"})
    assert r.status_code == 200, r.text
    casual = httpx.post(f"{url}/api/games", headers=ann, json={
        "game": "classic", "seats": [{"name": "Ann Lee"}, {"kind": "computer",
                                                           "level": "hard"}]}).json()
    r = httpx.post(f"{url}/api/games/{casual['game_id']}/resign",
                   headers={**ann, "Authorization": f"Bearer {casual['token']}"})
    assert r.status_code == 200, r.text
    return {"rated": created["game_id"], "casual": casual["game_id"]}


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_profile_page(browser, server, played, size: str) -> None:
    with sized_page(browser, size) as (page, errors):
        page.goto(f"{server.url}/players/ann%20lee")
        page.wait_for_selector("#archive-status:has-text('2 games found')")
        assert page.inner_text("#player-name") == "Ann Lee"
        cards = page.locator(".rating-card")
        assert cards.count() == 2
        kings = cards.nth(0).inner_text()
        assert "Kings Cribbage" in kings and "1 played: 1 won, 0 drawn, 0 lost" in kings
        assert "1662?" in kings  # a newcomer beating a newcomer: Glicko-2's 1662
        assert "unrated" in cards.nth(1).inner_text()
        assert "1 played: 0 won, 0 drawn, 1 lost" in cards.nth(1).inner_text()
        # The history chart: 1500 before, then the rating after the one rated game.
        points = page.get_attribute(".rating-card svg polyline", "points").split()
        assert len(points) == 2
        assert float(points[1].split(",")[1]) < float(points[0].split(",")[1])  # it rose
        recent = page.locator("#recent-games tbody tr")
        assert recent.count() == 2
        assert "Strong (computer)" in recent.nth(0).inner_text()  # the level's title
        replay = recent.nth(1).locator("a", has_text="Replay")
        assert replay.get_attribute("href") == f"/?replay={played['rated']}"
        assert serious_violations(page) == []
        assert outside_viewport(page) == []
        screenshot(page, f"player-{size}")

        page.select_option("#search-result", "lost")
        page.click("#archive-form button[type=submit]")
        page.wait_for_selector("#archive-status:has-text('1 game found')")
        assert "Cribbage" in page.inner_text("#archive-games tbody")
        page.select_option("#search-result", "")
        page.fill("#search-opponent", "bob")
        page.click("#archive-form button[type=submit]")
        page.wait_for_selector("#archive-games tbody:has-text('Bob')")
        assert page.locator("#archive-games tbody tr").count() == 1
        assert "1 game found" in page.inner_text("#archive-status")
        page.fill("#search-opponent", "")
        page.fill("#search-since", "2001-01-02")
        page.fill("#search-until", "2001-01-01")
        page.click("#archive-form button[type=submit]")
        page.wait_for_selector("#archive-status:has-text('since comes after until')")

        page.goto(f"{server.url}/players/Nobody")
        page.wait_for_selector("#player-error:has-text(\"no player is named 'Nobody'\")")
        assert errors == []


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_leaderboard(browser, server, played, size: str) -> None:
    with sized_page(browser, size) as (page, _errors):
        page.goto(f"{server.url}/leaderboard")
        page.wait_for_selector("#boards .rating-board table tbody")
        rows = page.locator("#boards .rating-board").nth(0).locator("table").nth(0).locator("tbody tr")
        assert rows.count() == 2
        first, second = rows.nth(0).inner_text(), rows.nth(1).inner_text()
        assert "Ann Lee" in first and "1662?" in first and "Bob" in second and "1338?" in second
        assert page.locator("#boards .rating-board").nth(0).locator("a", has_text="Ann Lee") \
            .get_attribute("href") == "/players/Ann%20Lee"
        levels = page.locator("#boards .rating-board").nth(1).locator("table").inner_text()
        assert "No rated games yet." in page.locator("#boards .rating-board").nth(1).inner_text()
        assert "Strong" in levels and "Expert" in levels and "hard" not in levels
        # Each game's Beginner a step of its own under Casual (Cribbage's was 36 points).
        for board in (0, 1):
            rows = page.locator("#boards .rating-board").nth(board).locator("table").last \
                .locator("tbody tr").all()
            rated = {r.locator("td").nth(0).inner_text(): int(r.locator("td").nth(1).inner_text().split()[0])
                     for r in rows}
            assert rated["Casual"] - rated["Beginner"] >= 200, rated
        assert serious_violations(page) == []
        assert outside_viewport(page) == []
        screenshot(page, f"leaderboard-{size}")


def test_the_rated_box_is_for_logged_in_players(browser, server) -> None:
    with sized_page(browser, "desktop") as (page, _errors):
        page.goto(server.url + "/")
        page.wait_for_selector("#account-status:has-text('Playing as a guest.')")
        assert page.is_disabled("#rated")
        cookie = signed_up(server.url, "Cy")["Cookie"].split("=", 1)[1]
        page.context.add_cookies([{"name": COOKIE, "value": cookie, "url": server.url,
                              "secure": True, "httpOnly": True, "sameSite": "Lax"}])
        page.goto(server.url + "/")
        page.wait_for_selector("#account-status:has-text('Logged in as Cy.')")
        assert page.is_enabled("#rated")
        assert page.get_attribute("#my-profile", "href") == "/players/Cy"
        page.check("#rated")
        page.locator(".seat-row .kind").nth(1).select_option("human")  # a friend's seat
        page.click("#start")
        page.wait_for_url("**/?game=*")
        game_id = page.url.split("game=")[1]
        assert httpx.get(f"{server.url}/api/games/{game_id}").json()["rated"] is True
        page.wait_for_selector("#invite-link")
        link = page.input_value("#invite-link")
        guest = browser.new_context(**SIZES["desktop"]).new_page()
        guest.goto(link)
        guest.wait_for_selector("#join-details dd")
        facts = dict(zip(guest.locator("#join-details dt").all_inner_texts(),
                         guest.locator("#join-details dd").all_inner_texts(), strict=True))
        assert facts["Rated"].startswith("yes")
        guest.click("#join-seats button")  # a guest is told why, and the seat stays open
        guest.wait_for_selector("#join-text:has-text('log in (or sign up) to take a seat')")
        assert serious_violations(guest) == []
        guest.context.close()
        state = httpx.get(f"{server.url}/api/games/{game_id}").json()
        assert not state["seats"][1]["joined"]


def test_the_profile_says_how_games_ended_and_links_the_opponents(browser, server,
                                                                  played) -> None:
    with sized_page(browser, "desktop") as (page, errors):
        page.goto(f"{server.url}/players/ann%20lee")
        recent = page.locator("#recent-games tbody tr")
        page.wait_for_function("() => document.querySelectorAll('#recent-games tbody tr')"
                               ".length === 2")
        # How each ended: Ann resigned to the computer, Bob resigned to her.
        assert recent.nth(0).locator("td").nth(3).inner_text().startswith("lost by resignation")
        assert recent.nth(1).locator("td").nth(3).inner_text().startswith("won by resignation")
        # An opponent's name leads to their profile; a computer's and her own do not.
        assert recent.nth(1).locator("td").nth(2).locator("a").get_attribute("href") \
            == "/players/Bob"
        assert recent.nth(0).locator("td").nth(2).locator("a").count() == 0
        page.goto(f"{server.url}/players/Nobody")
        page.wait_for_selector("#player-error:has-text(\"no player is named 'Nobody'\")")
        assert page.locator("main section:visible").count() == 0  # the message alone
        assert errors == []


def _rated_page(browser, server, game_id: str, token: str, size: str,
                account: dict[str, str] | None = None):
    """The game's page as its seat's player sees it (logged in as ``account``: a rated
    seat is played from its account's browser)."""
    page = browser.new_context(**SIZES[size]).new_page()
    if account is not None:
        page.context.add_cookies([{"name": COOKIE, "value": account["Cookie"].split("=", 1)[1],
                                   "url": server.url, "secure": True, "httpOnly": True,
                                   "sameSite": "Lax"}])
    page.goto(server.url + "/")
    page.evaluate("([g, t]) => localStorage.setItem(`kingscrib:token:${g}`, t)", [game_id, token])
    page.goto(f"{server.url}/?game={game_id}")
    return page


def _changes(page) -> list[str]:
    page.wait_for_selector(".rating-changes .rating-list li", timeout=15_000)
    return page.eval_on_selector_all(".rating-changes .rating-list li",
                                     "(items) => items.map((li) => li.textContent)")


def test_a_rated_kings_game_says_so_and_ends_with_each_rating_change(browser, server) -> None:
    """Rated during play (the mark by the turn's words); at the end each player's rating
    before and after and the change, as Glicko-2 gives for two newcomers."""
    url = server.url
    dee, eve = signed_up(url, "Dee"), signed_up(url, "Eve")
    created = httpx.post(f"{url}/api/games", headers=dee, json={
        "seats": [{"name": "Dee"}, {}], "rated": True}).json()
    joined = httpx.post(f"{url}/api/games/{created['game_id']}/join", headers=eve,
                        json={"invite": created["invite"], "name": "Eve"}).json()
    gid = created["game_id"]
    page = _rated_page(browser, server, gid, created["token"], "phone", dee)
    try:
        page.wait_for_selector("#turn-line .rated-mark")
        assert page.inner_text("#turn-line .rated-mark") == "Rated"
        page.wait_for_selector("#turn-banner:not(:empty)")
        assert "Rated" not in page.inner_text("#turn-banner")  # the turn's live region
        assert page.locator("[role=status] .rated-mark, [aria-live] .rated-mark").count() == 0
        seats = {0: (dee, created["token"]), 1: (eve, joined["token"])}
        for _ in seats:  # both move: a rated game ended before that is not rated
            turn = httpx.get(f"{url}/api/games/{gid}").json()["turn"]
            headers, token = seats[turn]
            r = httpx.post(f"{url}/api/games/{gid}/actions", json={"action": "pass"},
                           headers={**headers, "Authorization": f"Bearer {token}"})
            assert r.status_code == 200, r.text
        r = httpx.post(f"{url}/api/games/{gid}/resign",
                       headers={**eve, "Authorization": f"Bearer {joined['token']}"})
        assert r.status_code == 200, r.text
        won = round(glicko2_period(Rating(), [(Rating(), 1.0)]).rating)
        lost = round(glicko2_period(Rating(), [(Rating(), 0.0)]).rating)
        assert _changes(page) == [f"Dee 1500 → {won} +{won - 1500}",
                                  f"Eve 1500 → {lost} −{1500 - lost}"]
        assert page.locator("#turn-line .rated-mark").count() == 0  # over: the box says it
        assert page.locator("#end .rating-changes + .next-game #rematch").count() == 1
        assert outside_viewport(page) == []
        assert serious_violations(page) == []
        screenshot(page, "rated-end-kings-phone")
    finally:
        page.context.close()


def test_a_rated_cribbage_game_against_a_computer_ends_with_the_change(browser, server) -> None:
    url = server.url
    fay = signed_up(url, "Fay")
    created = httpx.post(f"{url}/api/games", headers=fay, json={
        "game": "cribbage", "seats": [{"name": "Fay"}, {"kind": "computer", "level": "hard"}],
        "rated": True}).json()
    gid, token = created["game_id"], created["token"]
    page = _rated_page(browser, server, gid, token, "desktop", fay)
    try:
        page.wait_for_selector("#c-turn-line .rated-mark")
        assert "Rated" not in page.inner_text("#c-banner")  # the turn's words alone
        assert page.locator("[role=status] .rated-mark, [aria-live] .rated-mark").count() == 0
        hand = httpx.get(f"{url}/api/games/{gid}", headers={**fay, "Authorization": f"Bearer {token}"}).json()["hand"]
        r = httpx.post(f"{url}/api/games/{gid}/actions", json={"action": "discard", "cards": hand[:2]},
                       headers={**fay, "Authorization": f"Bearer {token}"})
        assert r.status_code == 200, r.text
        for _ in range(200):  # the computer lays away too: then both sides have moved
            if not httpx.get(f"{url}/api/games/{gid}").json()["waiting"]:
                break
            time.sleep(0.05)
        page.click("#c-resign-box .resign")
        page.click("#c-resign-box .resign")
        strong = level_rating("cribbage", "hard")
        after = round(glicko2_period(Rating(), [(strong, 0.0)]).rating)
        assert _changes(page) == [f"Fay 1500 → {after} −{1500 - after}",
                                  f"Strong (computer) {round(strong.rating)} (fixed)"]
        assert serious_violations(page) == []
    finally:
        page.context.close()


def test_a_casual_game_has_no_rated_mark_nor_ratings(browser, server) -> None:
    created = httpx.post(f"{server.url}/api/games", json={
        "seats": [{"name": "Gus"}, {"kind": "computer", "level": "hard"}]}).json()
    page = _rated_page(browser, server, created["game_id"], created["token"], "desktop")
    try:
        page.wait_for_selector("#turn-banner:not(:empty)")
        assert page.locator(".rated-mark").count() == 0
        page.click("#resign-box .resign")
        page.click("#resign-box .resign")
        page.wait_for_selector("#end:not([hidden]) #rematch")
        assert page.locator(".rating-changes").count() == 0
    finally:
        page.context.close()
