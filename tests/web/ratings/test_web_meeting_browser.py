"""The whole way from strangers to rated opponents, in Chromium with two browser contexts:
both sign up, one posts a rated seek in the lobby, the other accepts it, they chat in the
game, the game (one of each kind) is played to its end, and both players' pages show the
ratings that Glickman's Glicko-2 gives for that result, worked out here line by line."""

from __future__ import annotations

import httpx
import pytest
from browser_pages import SIZES
from test_web_ratings_maths import paper_glicko2
from web_support import running_server

from kingscrib.kings.record import check_record
from kingscrib.web.ratings.maths import Rating

PASSWORD = "tiles and pegs"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A server whose rate limits let a test play a whole game out through the API."""
    limits = [arg for name in ("rate_per_second", "rate_burst", "address_rate", "address_burst")
              for arg in ("--limit", f"{name}=100000")]
    with running_server(tmp_path_factory.mktemp("web") / "web.sqlite3",
                        extra_args=limits) as s:
        yield s
CARD = {"kings": 0, "cribbage": 1}  # a player's page: Kings Cribbage's card, then Cribbage's


def sign_up(page, server, name: str) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("#meet[data-ready]")
    page.click("#show-signup")
    page.fill("#account-name", name)
    page.fill("#account-password", PASSWORD)
    page.click("#account-submit")
    page.wait_for_selector(f"#account-status:has-text('Logged in as {name}.')")


def seat_client(server, page, game_id: str) -> tuple[httpx.Client, str]:
    """An HTTP client with the page's session, and the page's seat token for the game."""
    token = page.evaluate(f"localStorage.getItem('kingscrib:token:{game_id}')")
    assert token
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    return httpx.Client(base_url=server.url, cookies=cookies, timeout=30), token


def play_out(game: str, game_id: str, seats: dict[int, tuple[httpx.Client, str]]) -> list[int]:
    """Play the game to its end through the API, each seat under its own session: Kings
    by passing until the game ends scoreless, Cribbage by its first legal choices."""
    state: dict = {}
    for _ in range(3000):
        client, token = seats[0]
        r = client.get(f"/api/games/{game_id}")
        assert r.status_code == 200, r.text
        state = r.json()
        if state["over"]:
            break
        seat = state["turn"] if game == "kings" else state["waiting"][0]
        client, token = seats[seat]
        headers = {"Authorization": f"Bearer {token}"}
        if game == "kings":
            body = {"action": "pass"}
        else:
            r = client.get(f"/api/games/{game_id}", headers=headers)
            assert r.status_code == 200, r.text
            mine = r.json()
            can = mine["can"]
            body = ({"action": "discard", "cards": mine["hand"][:can["discard"]]}
                    if can["discard"] else {"action": "play", "card": can["play"][0]}
                    if can["play"] else {"action": "go"})
        r = client.post(f"/api/games/{game_id}/actions", json=body, headers=headers)
        assert r.status_code == 200, r.text
    assert state["over"]
    if game == "cribbage":
        return state["scores"]
    record = seats[0][0].get(f"/api/games/{game_id}/record").json()
    return list(check_record(record).final_scores)


@pytest.mark.parametrize("game", ["kings", "cribbage"])
def test_strangers_meet_in_the_lobby_chat_play_a_rated_game_and_are_rated(
        browser, server, game: str) -> None:
    ann_context = browser.new_context(**SIZES["desktop"])
    bob_context = browser.new_context(**SIZES["phone"])
    errors: list[str] = []
    try:
        ann, bob = ann_context.new_page(), bob_context.new_page()
        for page in (ann, bob):
            page.on("pageerror", lambda e: errors.append(str(e)))
        sign_up(ann, server, f"Ann {game}")
        sign_up(bob, server, f"Bob {game}")

        ann.select_option("#quick-game", game)
        ann.click("#show-seek")
        ann.check("#seek-rated")
        ann.click("#post-seek")
        ann.wait_for_selector("#meet-message:has-text('Waiting for an opponent')")
        seek = bob.locator("#seeks li[data-seek]", has_text=f"Ann {game}")
        seek.wait_for()  # live, without a reload
        assert "rated" in seek.inner_text().lower()
        seek.locator("button.accept").click()
        for page in (ann, bob):
            page.wait_for_url("**/?game=*")
        game_id = ann.url.split("game=")[1].split("&")[0]
        assert bob.url.split("game=")[1].split("&")[0] == game_id

        # They talk in the players' chat.
        for page in (ann, bob):
            page.wait_for_selector("#chat-form:not([hidden])")
        ann.fill("#chat-text", "good luck")
        ann.press("#chat-text", "Enter")
        bob.wait_for_selector("#chat-log .chat-words:has-text('good luck')")

        seats = {0: seat_client(server, ann, game_id), 1: seat_client(server, bob, game_id)}
        scores = play_out(game, game_id, seats)
        ann_points = 0.5 if scores[0] == scores[1] else float(scores[0] > scores[1])
        for seat, (page, name) in enumerate(((ann, f"Ann {game}"), (bob, f"Bob {game}"))):
            points = ann_points if seat == 0 else 1 - ann_points
            expected = paper_glicko2(Rating(), [(Rating(), points)])
            page.goto(f"{server.url}/players/{name.replace(' ', '%20')}")
            page.locator(".rating-card").first.wait_for()
            card = page.locator(".rating-card").nth(CARD[game])
            assert f"{round(expected.rating)}?" in card.inner_text()  # provisional
            assert "1 played" in card.inner_text()
        assert errors == []
    finally:
        for context in (ann_context, bob_context):
            context.close()
