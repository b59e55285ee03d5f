"""A 4-player Swiss tournament in Chromium, over two server processes on one PostgreSQL,
with one of them restarted in the middle: a player joins from the list page, the
tournament page shows each round's pairings as the directors make them, the player opens
their own game from it, and the page ends on the final standings (equal to the
standings recomputed from the games' own results)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser_pages import outside_viewport, screenshot, serious_violations
from web_support import Server, postgres_cluster

from kingscrib.tournaments.standings import Result, standings
from kingscrib.web.accounts import sessions

PASSWORD = "tiles and pegs"


def signed_up(url: str, name: str) -> dict[str, str]:
    """The headers of a new account's requests (the Secure cookie sent by hand: the test
    server speaks plain http on the loopback address), with its CSRF token."""
    r = httpx.post(f"{url}/api/account/signup", json={"name": name, "password": PASSWORD},
                   headers={"Origin": url})
    assert r.status_code == 201, r.text
    token = r.cookies[sessions.COOKIE]
    return {"Cookie": f"{sessions.COOKIE}={token}", "Origin": url,
            sessions.CSRF_HEADER: sessions.csrf_token(token), "x-session": token}


def headers(person: dict[str, str], url: str | None = None) -> dict[str, str]:
    """A person's request headers, sent from the pages of the server at ``url`` (the same
    account uses both servers of the test)."""
    sent = {k: v for k, v in person.items() if k != "x-session"}
    return {**sent, "Origin": url} if url else sent


def look(url: str, tid: int, person: dict[str, str] | None = None) -> dict[str, Any]:
    r = httpx.get(f"{url}/api/tournaments/{tid}", headers=headers(person) if person else None)
    assert r.status_code == 200, r.text
    return r.json()


def resign_all(url: str, tid: int, person: dict[str, str]) -> int:
    done = 0
    for g in look(url, tid, person)["you"]["playing"]:
        if httpx.get(f"{url}/api/games/{g['game_id']}").json()["result"] is not None:
            continue
        seat = httpx.post(f"{url}/api/games/{g['game_id']}/seat", headers=headers(person, url))
        assert seat.status_code == 200, seat.text  # the seat, taken by the session
        r = httpx.post(f"{url}/api/games/{g['game_id']}/resign", headers={
            **headers(person, url), "Authorization": f"Bearer {seat.json()['token']}"})
        assert r.status_code == 200, r.text
        done += 1
    return done


def wait_for(check: Any, seconds: float = 60) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.3)
    raise AssertionError("waited in vain")


@pytest.fixture(scope="module")
def servers(tmp_path_factory) -> Any:
    folder: Path = tmp_path_factory.mktemp("tourney")
    with postgres_cluster() as url:
        pair = [Server(url, data_dir=folder, log_file=folder / f"server{i}.log")
                for i in range(2)]
        try:
            for s in pair:
                s.start()
            yield pair
        finally:
            for s in pair:
                s.stop()


def test_a_four_player_swiss_tournament_to_its_final_standings(browser, servers) -> None:
    one, two = servers
    people = {n: signed_up(two.url, n) for n in ("Ann", "Bob", "Cy", "Di")}
    r = httpx.post(f"{two.url}/api/tournaments", headers=headers(people["Ann"]), json={
        "name": "Tuesday Swiss", "game": "classic", "format": "swiss", "rounds": 2,
        "starts_in": 12, "no_show": 600})
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    for name in ("Ann", "Bob", "Cy"):
        assert httpx.post(f"{two.url}/api/tournaments/{tid}/join",
                          headers=headers(people[name])).status_code == 200

    context = browser.new_context(viewport={"width": 1100, "height": 900})
    context.add_cookies([{"name": sessions.COOKIE, "value": people["Di"]["x-session"],
                          "url": one.url, "secure": True, "httpOnly": True}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        # Di finds it among the upcoming tournaments and joins on its page.
        page.goto(f"{one.url}/tournaments")
        page.click("#upcoming a:has-text('Tuesday Swiss')")
        page.wait_for_selector("#join")
        page.click("#join")
        page.wait_for_selector("#withdraw")
        assert page.locator("#players tbody tr").count() == 4
        assert serious_violations(page) == []
        screenshot(page, "tournament-upcoming")

        # The page shows round 1 once a director pairs it (no reload).
        page.wait_for_selector("#rounds h3:has-text('Round 1')", timeout=60_000)
        page.wait_for_selector("#your-games a")
        with page.expect_navigation():
            page.click("#your-games a")
        page.wait_for_selector("#resign-box:not([hidden]), #c-resign-box:not([hidden])")
        page.go_back()
        page.wait_for_selector("#rounds h3:has-text('Round 1')")

        # Round 1: the first-named of each game resigns (through the other server).
        first = look(two.url, tid)["rounds"][0]["games"]
        for g in first:
            assert resign_all(two.url, tid, people[g["a"]]) == 1
        one.stop()  # a restart in the middle: the other server carries on meanwhile
        wait_for(lambda: len(look(two.url, tid)["rounds"]) == 2)
        one.start()
        page.reload()
        page.wait_for_selector("#rounds h3:has-text('Round 2')", timeout=60_000)
        for g in look(one.url, tid)["rounds"][1]["games"]:
            assert resign_all(one.url, tid, people[g["b"]]) == 1
        page.wait_for_selector("#facts:has-text('finished')", timeout=60_000)
        screenshot(page, "tournament-finished")

        view = look(one.url, tid)
        shown = [[cell.inner_text() for cell in row.locator("td").all()][:3]
                 for row in page.locator("#standings tbody tr").all()]
        assert shown == [[str(s["place"]), s["name"], str(int(s["points"]))]
                         for s in view["standings"]]
        # Recomputed from each game's own result: whoever resigned lost.
        results = []
        met = set()
        for rnd in view["rounds"]:
            for g in rnd["games"]:
                state = httpx.get(f"{one.url}/api/games/{g['game_id']}").json()
                seat_a = 0 if g["leg"] == 0 else 1
                results.append(Result(g["a"], g["b"], 1.0 if seat_a in state["result"]["winners"]
                                      else 0.0, g["margin"]))
                assert frozenset((g["a"], g["b"])) not in met  # no repeat pairing
                met.add(frozenset((g["a"], g["b"])))
        expected = standings(results, (), [p["name"] for p in view["players"]])
        assert [(s["name"], s["points"]) for s in view["standings"]] == \
            [(s.entrant, s.points) for s in expected]
        assert outside_viewport(page) == []
        page.set_viewport_size({"width": 375, "height": 740})  # a phone
        assert outside_viewport(page) == []
        screenshot(page, "tournament-phone")
        assert serious_violations(page) == []
        assert errors == []
    finally:
        context.close()


def test_the_list_page_creates_a_team_and_a_tournament(browser, servers) -> None:
    one, _ = servers
    eve = signed_up(one.url, "Eve")
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    context.add_cookies([{"name": sessions.COOKIE, "value": eve["x-session"],
                          "url": one.url, "secure": True, "httpOnly": True}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{one.url}/tournaments")
        page.wait_for_selector("#who:has-text('Logged in as Eve')")
        page.fill("#new-team input[name=name]", "Fifteen Two")
        page.click("#new-team button")
        page.wait_for_selector("#teams td:has-text('Fifteen Two')")
        assert "Eve" in page.inner_text("#teams")
        page.select_option("#create select[name=format]", "arena")
        assert page.is_visible("#create input[name=minutes]")
        assert page.is_hidden("#create input[name=rounds]")
        page.fill("#create input[name=name]", "Evening arena")
        page.fill("#create input[name=min_rating]", "1600")
        page.fill("#create input[name=max_rating]", "1400")
        page.click("#create button[type=submit]")  # refused, and said why
        page.wait_for_selector("#create-error:has-text('min_rating')")
        page.fill("#create input[name=max_rating]", "")
        page.fill("#create input[name=min_rating]", "")
        page.check("#create input[name=mirrored]")
        screenshot(page, "tournaments-list")
        assert serious_violations(page) == []
        with page.expect_navigation():
            page.click("#create button[type=submit]")
        page.wait_for_selector("#facts:has-text('Arena · 30 minutes')")
        assert "mirrored pairs" in page.inner_text("#facts")
        page.wait_for_selector("#add-computer")  # (after the page asked for the levels)
        assert page.is_visible("#join")
        page.click("#add-computer")
        page.wait_for_selector("#players td:has-text('(computer)'), #players .computer")
        assert outside_viewport(page) == []
        assert errors == []
    finally:
        context.close()
