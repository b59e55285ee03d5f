"""Fair rated play (docs/web.md, "Rated play"): one account holds one seat of a game;
a rated game is rated only once both sides have moved; accounts sharing a browser or an
address are not rated against each other, and the moderators see those games; a rated
game always has a clock, so walking away from it loses on time."""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert, select, update
from test_web_ratings import PASSWORD, as_, first_moves, rated_game, rating, sign_up
from web_support import auth, https_client

from kingscrib.web.accounts import sessions
from kingscrib.web.chat import moderation
from kingscrib.web.db.tables import seat_accounts
from kingscrib.web.play import endings
from kingscrib.web.play.clocks import DAY, RATED_DAYS_PER_MOVE
from kingscrib.web.play.endings import check_clocks
from kingscrib.web.ratings import store as ratings
from kingscrib.web.ratings.maths import Rating, glicko2_period

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture()
def client(tmp_path: Path) -> Any:
    with https_client(f"sqlite:///{tmp_path / 'web.sqlite3'}") as c:
        yield c


@pytest.fixture()
def one_address(tmp_path: Path) -> Any:
    """A server that applies the shared-address rule (every test request comes from one
    address)."""
    with https_client(f"sqlite:///{tmp_path / 'web.sqlite3'}",
                      unrate_shared_addresses=True) as c:
        yield c


def engine_of(c: Any) -> Any:
    return c.app.state.hub.store.engine


def outcomes(c: Any, game_id: str) -> list[Any]:
    with engine_of(c).connect() as conn:
        return conn.execute(select(ratings.game_outcomes).where(
            ratings.game_outcomes.c.game_id == game_id)
            .order_by(ratings.game_outcomes.c.seat)).all()


def moderator_session(c: Any, name: str = "Mo") -> str:
    session = sign_up(c, name)
    account = c.get("/api/account").json()["id"]
    assert moderation.set_moderator(engine_of(c), account, True)
    return session


# ----- one account, one seat -------------------------------------------------------------
def test_an_account_cannot_take_a_second_seat_of_its_own_game(client) -> None:
    ann = sign_up(client, "Ann")
    for rated in (True, False):
        as_(client, ann)
        created = client.post("/api/games", json={"seats": [{"name": "Ann"}, {}],
                                                  "rated": rated}).json()
        r = client.post(f"/api/games/{created['game_id']}/join",
                        json={"invite": created["invite"], "name": "Ann"})
        assert r.status_code == 409, r.text
        assert r.json()["error"] == ("your account Ann holds seat 1 of this game already:"
                                     " an account plays one seat of a game")
        state = client.get(f"/api/games/{created['game_id']}").json()
        assert state["seats"][1]["joined"] is False  # nothing changed


def test_a_guest_seat_shown_at_sign_up_is_not_joined_to_a_second_seat(client) -> None:
    """A guest who took both seats of a game signs up: the account owns one of them."""
    as_(client, None)
    created = client.post("/api/games", json={"seats": [{"name": "Gus"}, {}]}).json()
    joined = client.post(f"/api/games/{created['game_id']}/join",
                         json={"invite": created["invite"], "name": "Gus"}).json()
    seats = [{"game_id": created["game_id"], "token": t}
             for t in (created["token"], joined["token"])]
    r = client.post("/api/account/signup", json={"name": "Gus", "password": PASSWORD,
                                                  "seats": seats})
    assert r.status_code == 201, r.text
    assert r.json()["seats"] == 1
    with engine_of(client).connect() as conn:
        assert len(conn.execute(select(seat_accounts)).all()) == 1


def test_a_game_stuck_with_one_account_in_both_seats_is_finished_without_a_traceback(
        client, caplog) -> None:
    """Stored before the refusal: one account in both seats of a rated game. Its end is
    recorded (unrated: nobody can be rated against themself), once, and the
    housekeeping finds nothing more to do, with no error logged."""
    people = {"Ann": sign_up(client, "Ann"), "Bob": sign_up(client, "Bob")}
    game_id, tokens = rated_game(client, "kings", people)
    first_moves(client, game_id, tokens, people)
    with engine_of(client).begin() as conn:
        owners = dict(conn.execute(select(seat_accounts.c.seat, seat_accounts.c.account_id)
                                   .where(seat_accounts.c.game_id == game_id)).all())
        ann_id = owners[0]
        conn.execute(update(seat_accounts).where(seat_accounts.c.game_id == game_id,
                                                 seat_accounts.c.seat == 1)
                     .values(account_id=ann_id))
    hub = client.app.state.hub
    hub.rooms.clear()  # (read again from the store)
    caplog.set_level(logging.INFO, logger="kingscrib.web")
    as_(client, people["Ann"])
    r = client.post(f"/api/games/{game_id}/resign", headers=auth(tokens[1]))
    assert r.status_code == 200, r.text
    assert [(o.account_id, o.outcome, o.rated) for o in outcomes(client, game_id)] == [
        (ann_id, "won", False), (ann_id, "lost", False)]
    assert client.portal.call(hub.settle_missed, 0.0) == 0
    assert not [rec for rec in caplog.records if rec.levelno >= logging.ERROR]
    assert rating(client, "Ann", "kings")["rating"] is None


def test_the_housekeeping_settles_a_stuck_game_once_without_a_traceback(client, caplog
                                                                          ) -> None:
    """The same game left unsettled (its process stopped): the housekeeping settles it."""
    people = {"Ann": sign_up(client, "Ann"), "Bob": sign_up(client, "Bob")}
    game_id, tokens = rated_game(client, "kings", people)
    first_moves(client, game_id, tokens, people)
    as_(client, people["Bob"])
    engine = engine_of(client)
    standing = [{"seats": [0], "place": 0, "score": 0}, {"seats": [1], "place": 1, "score": 0}]
    with engine.begin() as conn:
        owners = dict(conn.execute(select(seat_accounts.c.seat, seat_accounts.c.account_id)
                                   .where(seat_accounts.c.game_id == game_id)).all())
        conn.execute(update(seat_accounts).where(seat_accounts.c.game_id == game_id,
                                                 seat_accounts.c.seat == 1)
                     .values(account_id=owners[0]))
    caplog.set_level(logging.INFO, logger="kingscrib.web")
    assert ratings.settle(engine, game_id, "kings", True, standing) is True
    assert ratings.settle(engine, game_id, "kings", True, standing) is False
    assert [o.rated for o in outcomes(client, game_id)] == [False, False]


# ----- rated once both sides have moved ---------------------------------------------------
def test_resigning_before_both_sides_moved_aborts_the_game_unrated(client) -> None:
    """The farm of the issue: a second account resigns at move 0, six times; the first
    account's rating never moves."""
    people = {"Ann": sign_up(client, "Ann"), "Bob": sign_up(client, "Bob")}
    for _ in range(6):
        game_id, tokens = rated_game(client, "kings", people)
        as_(client, people["Bob"])
        r = client.post(f"/api/games/{game_id}/resign", headers=auth(tokens[1]))
        assert r.status_code == 200, r.text
        assert [o.rated for o in outcomes(client, game_id)] == [False, False]
    assert rating(client, "Ann", "kings")["rating"] is None
    assert client.get("/api/ratings/kings").json()["players"] == []


def test_one_side_moved_is_not_enough(client) -> None:
    people = {"Ann": sign_up(client, "Ann"), "Bob": sign_up(client, "Bob")}
    game_id, tokens = rated_game(client, "kings", people)
    mover = client.get(f"/api/games/{game_id}").json()["turn"]
    name = list(people)[mover]
    as_(client, people[name])
    assert client.post(f"/api/games/{game_id}/actions", json={"action": "pass"},
                       headers=auth(tokens[mover])).status_code == 200
    other = 1 - mover  # the other walks away at once
    as_(client, people[list(people)[other]])
    assert client.post(f"/api/games/{game_id}/resign",
                       headers=auth(tokens[other])).status_code == 200
    assert [o.rated for o in outcomes(client, game_id)] == [False, False]
    assert rating(client, name, "kings")["rating"] is None


def test_once_both_sides_moved_a_resignation_is_rated(client) -> None:
    people = {"Ann": sign_up(client, "Ann"), "Bob": sign_up(client, "Bob")}
    game_id, tokens = rated_game(client, "kings", people)
    first_moves(client, game_id, tokens, people)
    as_(client, people["Bob"])
    assert client.post(f"/api/games/{game_id}/resign",
                       headers=auth(tokens[1])).status_code == 200
    assert rating(client, "Ann", "kings")["rating"] == round(
        glicko2_period(Rating(), [(Rating(), 1.0)]).rating)


# ----- one browser, one address -----------------------------------------------------------
def test_accounts_of_one_browser_are_not_rated_against_each_other_and_are_flagged(
        client) -> None:
    client.cookies.clear()
    r = client.post("/api/account/signup", json={"name": "Ann", "password": PASSWORD})
    ann = r.cookies[sessions.COOKIE]
    device = client.cookies.get("kingscrib_device")
    assert device
    # Bob signs up in the same browser: it keeps its device cookie.
    client.cookies.delete(sessions.COOKIE)
    r = client.post("/api/account/signup", json={"name": "Bob", "password": PASSWORD})
    bob = r.cookies[sessions.COOKIE]
    assert client.cookies.get("kingscrib_device") == device
    people = {"Ann": ann, "Bob": bob}
    game_id, tokens = rated_game(client, "kings", people)
    first_moves(client, game_id, tokens, people)
    as_(client, bob)
    assert client.post(f"/api/games/{game_id}/resign",
                       headers=auth(tokens[1])).status_code == 200
    assert [o.rated for o in outcomes(client, game_id)] == [False, False]
    assert rating(client, "Ann", "kings")["rating"] is None
    mo = moderator_session(client)
    as_(client, mo)
    [flag] = client.get("/api/moderation/flags").json()["flags"]
    assert flag["game_id"] == game_id and flag["reason"] == "shared browser"
    assert sorted(a["name"] for a in flag["accounts"]) == ["Ann", "Bob"]
    as_(client, ann)
    assert client.get("/api/moderation/flags").status_code == 403  # moderators only


def test_accounts_of_one_address_are_not_rated_against_each_other(one_address) -> None:
    c = one_address
    people = {"Ann": sign_up(c, "Ann"), "Bob": sign_up(c, "Bob")}  # two browsers
    game_id, tokens = rated_game(c, "kings", people)
    first_moves(c, game_id, tokens, people)
    as_(c, people["Bob"])
    assert c.post(f"/api/games/{game_id}/resign", headers=auth(tokens[1])).status_code == 200
    assert [o.rated for o in outcomes(c, game_id)] == [False, False]
    as_(c, moderator_session(c))
    [flag] = c.get("/api/moderation/flags").json()["flags"]
    assert flag["reason"] == "shared address"
    # A computer is nobody's second account: a game against one is rated.
    game_id, tokens = rated_game(c, "kings", {"Ann": people["Ann"]}, computers=["easy"])
    first_moves(c, game_id, tokens, {"Ann": people["Ann"]})
    as_(c, people["Ann"])
    assert c.post(f"/api/games/{game_id}/resign", headers=auth(tokens[0])).status_code == 200
    assert [o.rated for o in outcomes(c, game_id)] == [True]


def test_an_address_seen_long_ago_links_nobody(one_address) -> None:
    from kingscrib.web.accounts import fair

    c = one_address
    sign_up(c, "Ann")
    sign_up(c, "Bob")
    with engine_of(c).begin() as conn:  # as if both were seen there 31 days ago only
        conn.execute(update(fair.account_origins).values(seen=time.time() - 31 * DAY))
    with engine_of(c).connect() as conn:
        ids = [r.account_id for r in conn.execute(select(fair.account_origins)).all()]
        assert fair.shared_origin(conn, ids, True, time.time()) is None
        conn.execute(insert(fair.account_origins).values(
            account_id=ids[0], kind="device", key="k", seen=time.time()))
        conn.execute(insert(fair.account_origins).values(
            account_id=ids[-1], kind="device", key="k", seen=time.time()))
        assert fair.shared_origin(conn, ids, False, time.time()) == (
            "shared browser", sorted(set(ids)))


# ----- a rated game always has a clock ----------------------------------------------------
def test_a_rated_game_without_a_clock_has_a_correspondence_deadline(client) -> None:
    people = {"Ann": sign_up(client, "Ann"), "Bob": sign_up(client, "Bob")}
    game_id, tokens = rated_game(client, "kings", people)
    clock = client.get(f"/api/games/{game_id}").json()["clock"]
    assert clock["per_move"] is True and clock["seconds"] == RATED_DAYS_PER_MOVE * DAY
    as_(client, people["Ann"])
    casual = client.post("/api/games", json={"seats": [{"name": "Ann"}, {}]}).json()
    assert casual["state"]["clock"] is None  # casual games keep no clock


def test_walking_away_from_a_lost_rated_game_loses_it_on_time(client, monkeypatch) -> None:
    people = {"Ann": sign_up(client, "Ann"), "Bob": sign_up(client, "Bob")}
    game_id, tokens = rated_game(client, "kings", people)
    first_moves(client, game_id, tokens, people)
    state = client.get(f"/api/games/{game_id}").json()
    leaver = list(people)[state["turn"]]
    winner = list(people)[1 - state["turn"]]
    hub = client.app.state.hub
    assert client.portal.call(check_clocks, hub, time.time()) == []  # not yet
    later = time.time() + RATED_DAYS_PER_MOVE * DAY + 60  # the deadline passed

    class Later:
        @staticmethod
        def time() -> float:
            return later

    monkeypatch.setattr(endings, "time", Later)
    ended = client.portal.call(check_clocks, hub, later)
    assert ended == [game_id]
    final = client.get(f"/api/games/{game_id}").json()
    assert final["result"]["reason"] == "time"
    assert rating(client, winner, "kings")["won"] == 1
    assert rating(client, leaver, "kings")["lost"] == 1
    assert rating(client, winner, "kings")["rating"] > 1500
