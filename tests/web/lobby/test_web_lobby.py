"""The lobby (docs/web.md, "The lobby"): seeks posted, seen live, accepted with one click
into a game where everyone is seated; seat by seat for three or four; Play now; direct
challenges; cancel, leave, decline; seeks that vanish when their player stays away;
people online; bad input refused with nothing changed."""

from __future__ import annotations

import secrets
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select
from web_support import auth, https_client, table_count

from kingscrib.web.db.tables import games, seat_accounts, seek_seats, seeks
from kingscrib.web.lobby import bans as lobby_bans
from kingscrib.web.ratings import store as rating_store

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

PASSWORD = "correct horse battery"


@pytest.fixture()
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'web.sqlite3'}"


@pytest.fixture()
def app_client(url: str) -> Any:
    with https_client(url) as c:
        yield c


class Browser:
    """One browser: its own cookies and visitor secret, on the shared app."""

    def __init__(self, app_client: Any) -> None:
        self.http = TestClient(app_client.app, base_url="https://testserver")
        self.http.portal = app_client.portal  # the app's own event loop, as a server has one
        self.visitor = secrets.token_urlsafe(16)
        self.csrf: str | None = None

    def headers(self) -> dict[str, str]:
        h = {"X-Lobby-Visitor": self.visitor}
        if self.csrf:
            h["X-CSRF-Token"] = self.csrf
        return h

    def sign_up(self, name: str) -> Browser:
        r = self.http.post("/api/account/signup", json={"name": name, "password": PASSWORD})
        assert r.status_code == 201, r.text
        self.csrf = r.json()["csrf"]
        return self

    def post(self, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        return self.http.post(f"/api/lobby{path}", json=body or {}, headers=self.headers())

    def seek(self, **body: Any) -> dict[str, Any]:
        r = self.post("/seeks", {"name": "Ann", **body})
        assert r.status_code == 201, r.text
        return r.json()

    def accept(self, seek_id: str, name: str = "Bob") -> httpx.Response:
        return self.post(f"/seeks/{seek_id}/accept", {"name": name})

    def leave(self, seek_id: str) -> httpx.Response:
        return self.http.request("DELETE", f"/api/lobby/seeks/{seek_id}", json={},
                                 headers=self.headers())

    def live(self) -> Any:
        # (The test client opens ws://, where the Secure session cookie is not sent.)
        session = self.http.cookies.get("kingscrib_session")
        socket = self.http.websocket_connect(
            "/api/lobby/live",
            headers={"cookie": f"kingscrib_session={session}"} if session else {})
        ws = socket.__enter__()
        ws.send_json({"type": "hello", "visitor": self.visitor})
        first = next_message(ws)
        assert first["type"] == "lobby"
        ws.first = first
        ws.close_all = lambda: socket.__exit__(None, None, None)
        return ws


def next_message(ws: Any) -> dict[str, Any]:
    """The next message on a live socket (a frame holds one, or an array of several)."""
    waiting = ws.__dict__.setdefault("waiting", [])
    while not waiting:
        frame = ws.receive_json()
        waiting.extend(frame if isinstance(frame, list) else [frame])
    return waiting.pop(0)


def receive_until(ws: Any, kind: str, check: Any = lambda m: True) -> dict[str, Any]:
    """The next message of that type that passes ``check`` (others are skipped)."""
    for _ in range(50):
        message = next_message(ws)
        if message["type"] == kind and check(message):
            return message
    raise AssertionError(f"no {kind} message")

def seat_of(c: Any, game_id: str, ticket: str) -> dict[str, Any]:
    r = c.get(f"/api/games/{game_id}", headers=auth(ticket))
    assert r.status_code == 200, r.text
    return r.json()


def test_a_seek_is_seen_live_and_one_click_seats_both_in_one_game(app_client: Any,
                                                                   url: str) -> None:
    ann, bob, watcher = Browser(app_client), Browser(app_client), Browser(app_client)
    ws = watcher.live()
    posted = ann.seek(game="classic", players=2, rules={"muggins": True}, clock_seconds=600)
    news = receive_until(ws, "seek")["seek"]
    assert news == posted["seek"]
    assert news["seats"] == [{"name": "Ann", "account": False}]
    assert news["game"] == "cribbage" and news["rules"]["muggins"] is True
    assert news["clock_seconds"] == 600 and news["rated"] is False
    assert "ticket" not in str(news) and posted["ticket"] not in str(news)

    accepted = bob.accept(news["id"])
    assert accepted.status_code == 200, accepted.text
    game_id = accepted.json()["game_id"]
    started = receive_until(ws, "started")
    assert started == {"type": "started", "id": news["id"], "game_id": game_id}
    first = seat_of(app_client, game_id, posted["ticket"])
    second = seat_of(app_client, game_id, accepted.json()["ticket"])
    assert (first["you"], second["you"]) == (0, 1)
    assert [p["name"] for p in first["seats"]] == ["Ann", "Bob"]
    assert first["rules"]["muggins"] is True
    assert first["clock"]["seconds"] == 600
    games_news = receive_until(ws, "games")["games"]
    assert {"id": game_id, "game": "cribbage", "names": ["Ann", "Bob"]} in games_news
    assert app_client.get("/api/lobby").json()["seeks"] == []
    ws.close_all()


def test_a_seek_for_four_fills_seat_by_seat_and_starts_when_full(app_client: Any) -> None:
    people = [Browser(app_client) for _ in range(4)]
    ws = Browser(app_client).live()
    posted = people[0].seek(game="classic", players=4, name="P1")
    tickets = [posted["ticket"]]
    for i, person in enumerate(people[1:3], start=2):
        r = person.accept(posted["seek"]["id"], f"P{i}")
        assert r.status_code == 200 and r.json()["game_id"] is None, r.text
        tickets.append(r.json()["ticket"])
        seen = receive_until(ws, "seek", lambda m, i=i: len(m["seek"]["seats"]) == i)
        assert [s["name"] for s in seen["seek"]["seats"]] == [f"P{k}" for k in range(1, i + 1)]
    last = people[3].accept(posted["seek"]["id"], "P4")
    game_id = last.json()["game_id"]
    tickets.append(last.json()["ticket"])
    assert receive_until(ws, "started")["game_id"] == game_id
    for seat, ticket in enumerate(tickets):
        state = seat_of(app_client, game_id, ticket)
        assert state["you"] == seat
        assert [p["name"] for p in state["seats"]] == ["P1", "P2", "P3", "P4"]
    ws.close_all()


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"name": "Ann\x07"}, 400, "control"),
    ({"name": "A" * 60}, 400, "at most 24"),
    ({"name": ""}, 400, "type your name"),
    ({"players": 5}, 400, "2 to 4 players"),
    ({"game": "chess"}, 400, "unknown game"),
    ({"rules": {"solitaire": True}, "players": 3}, 400, "for two seats"),
    ({"rules": {"gravity": True}}, 400, "rules"),
    ({"clock_seconds": 1}, 400, "clock_seconds"),
    ({"game": "classic", "clock_seconds": 300, "clock_overtime": 60}, 400, "no overtime"),
    ({"rating_min": 1800, "rating_max": 1200}, 400, "empty"),
    ({"rating_min": -5}, 400, "rating range"),
    ({"rated": True}, 403, "log in"),
    ({"challenge": "Nobody"}, 404, "no account"),
    ({"challenge": "Nobody", "players": 3}, 400, "two players"),
])
def test_a_seek_with_bad_input_is_refused_and_changes_nothing(
        app_client: Any, url: str, body: dict[str, Any], status: int, words: str) -> None:
    ann = Browser(app_client)
    r = ann.post("/seeks", {"name": "Ann", **body})
    assert r.status_code == status, r.text
    assert words in r.json()["error"]
    assert table_count(url, seeks) == 0 and table_count(url, seek_seats) == 0


def test_the_lobby_needs_the_browsers_visitor_secret(app_client: Any, url: str) -> None:
    r = app_client.post("/api/lobby/seeks", json={"name": "Ann"})
    assert r.status_code == 400 and "X-Lobby-Visitor" in r.json()["error"]
    r = app_client.post("/api/lobby/seeks", json={"name": "Ann"},
                        headers={"X-Lobby-Visitor": "short"})
    assert r.status_code == 400
    assert table_count(url, seeks) == 0


def test_accepting_ones_own_or_a_taken_or_a_vanished_seek_is_refused(
        app_client: Any, url: str) -> None:
    ann, bob, cid = Browser(app_client), Browser(app_client), Browser(app_client)
    posted = ann.seek()
    own = ann.accept(posted["seek"]["id"], "Ann again")
    assert own.status_code == 409 and "your own seek" in own.json()["error"]
    assert table_count(url, seek_seats) == 1
    assert bob.accept(posted["seek"]["id"]).status_code == 200
    taken = cid.accept(posted["seek"]["id"], "Cid")
    assert taken.status_code == 409 and "taken" in taken.json()["error"]
    gone = cid.accept("no-such-seek", "Cid")
    assert gone.status_code == 404 and "gone" in gone.json()["error"]
    assert table_count(url, games) == 1 and table_count(url, seek_seats) == 2

    waiting = ann.seek(players=3)
    assert bob.accept(waiting["seek"]["id"]).status_code == 200
    twice = bob.accept(waiting["seek"]["id"])
    assert twice.status_code == 409 and "seated in this seek already" in twice.json()["error"]
    assert table_count(url, seek_seats) == 4


def test_cancel_leave_and_the_limit_of_open_seeks(app_client: Any, url: str) -> None:
    ann, bob, cid = Browser(app_client), Browser(app_client), Browser(app_client)
    ws = cid.live()
    posted = ann.seek(players=3)
    seek_id = posted["seek"]["id"]
    assert bob.accept(seek_id).status_code == 200
    assert bob.leave(seek_id).json() == {"gone": "left"}
    back = receive_until(ws, "seek", lambda m: len(m["seek"]["seats"]) == 1)
    assert back["seek"]["seats"] == [{"name": "Ann", "account": False}]
    refused = cid.leave(seek_id)
    assert refused.status_code == 403 and "no seat" in refused.json()["error"]
    assert ann.leave(seek_id).json() == {"gone": "cancelled"}
    assert receive_until(ws, "gone") == {"type": "gone", "id": seek_id, "reason": "cancelled"}
    assert table_count(url, seeks) == 0 and table_count(url, seek_seats) == 0
    for _ in range(3):
        ann.seek()
    fourth = ann.post("/seeks", {"name": "Ann"})
    assert fourth.status_code == 429 and "cancel one" in fourth.json()["error"]
    assert table_count(url, seeks) == 3
    ws.close_all()


def test_play_now_pairs_compatible_wishes_and_otherwise_waits(app_client: Any) -> None:
    ann, bob, cid = Browser(app_client), Browser(app_client), Browser(app_client)
    first = ann.post("/play-now", {"name": "Ann", "game": "kings", "clock_seconds": 300})
    assert first.status_code == 200 and first.json()["game_id"] is None
    assert first.json()["seek"]["quick"] is True
    other = bob.post("/play-now", {"name": "Bob", "game": "kings"})  # no clock: no match
    assert other.json()["game_id"] is None
    assert other.json()["seek"]["id"] != first.json()["seek"]["id"]
    again = ann.post("/play-now", {"name": "Ann", "game": "kings", "clock_seconds": 300})
    assert again.json()["game_id"] is None  # never paired with oneself
    paired = cid.post("/play-now", {"name": "Cid", "game": "kings", "clock_seconds": 300})
    game_id = paired.json()["game_id"]
    assert game_id is not None
    state = seat_of(app_client, game_id, paired.json()["ticket"])
    assert [p["name"] for p in state["seats"]] == ["Ann", "Cid"]
    assert state["clock"]["seconds"] == 300
    assert seat_of(app_client, game_id, first.json()["ticket"])["you"] == 0


def test_play_now_waiters_are_counted_for_others_and_their_seek_is_their_own(
        app_client: Any) -> None:
    ann, bob = Browser(app_client), Browser(app_client)
    ann_ws, bob_ws = ann.live(), bob.live()
    first = ann.post("/play-now", {"name": "Ann", "game": "classic", "clock_seconds": 300})
    seek_id = first.json()["seek"]["id"]
    assert receive_until(ann_ws, "seek")["seek"]["id"] == seek_id  # her own browser's
    heard: list[dict[str, Any]] = []

    def bob_hears(kind: str, check: Any) -> dict[str, Any]:
        for _ in range(50):
            heard.append(next_message(bob_ws))
            if heard[-1]["type"] == kind and check(heard[-1]):
                return heard[-1]
        raise AssertionError(f"no {kind} message")

    waiting = [{"game": "cribbage", "players": 2, "clock_seconds": 300, "waiting": 1}]
    bob_hears("quick", lambda m: m["quick"] == waiting)
    look = bob.http.get("/api/lobby", headers=bob.headers()).json()
    assert look["seeks"] == [] and look["quick"] == waiting
    # Play now pairs whoever names Cribbage by its older name with whoever names it by its id.
    paired = bob.post("/play-now", {"name": "Bob", "game": "cribbage", "clock_seconds": 300})
    started = receive_until(ann_ws, "started")
    assert started == {"type": "started", "id": seek_id, "game_id": paired.json()["game_id"]}
    bob_hears("quick", lambda m: m["quick"] == [])
    assert not [m for m in heard if seek_id in str(m)]  # nothing of Ann's seek itself
    ann_ws.close_all()
    bob_ws.close_all()


def test_a_challenge_reaches_the_challenged_only_and_is_declined_or_accepted(
        app_client: Any, url: str) -> None:
    alice = Browser(app_client).sign_up("Alice")
    bob = Browser(app_client).sign_up("Bob")
    guest = Browser(app_client)
    bob_ws, guest_ws = bob.live(), guest.live()
    challenge = alice.seek(challenge="bob", game="kings")
    assert challenge["seek"]["challenge"] == "Bob"
    assert challenge["seek"]["seats"] == [{"name": "Alice", "account": True}]
    assert receive_until(bob_ws, "seek")["seek"]["id"] == challenge["seek"]["id"]
    assert guest.http.get("/api/lobby", headers=guest.headers()).json()["seeks"] == []
    refused = guest.accept(challenge["seek"]["id"], "Guest")
    assert refused.status_code == 403 and "another player" in refused.json()["error"]
    assert bob.leave(challenge["seek"]["id"]).json() == {"gone": "declined"}
    assert table_count(url, seeks) == 0

    again = alice.seek(challenge="Bob", rated=True)
    accepted = bob.accept(again["seek"]["id"])
    assert accepted.status_code == 200, accepted.text
    game_id = accepted.json()["game_id"]
    engine = create_engine(url)
    with engine.connect() as conn:
        owners = conn.execute(select(seat_accounts.c.seat, seat_accounts.c.account_id).where(
            seat_accounts.c.game_id == game_id).order_by(seat_accounts.c.seat)).all()
        rated = conn.execute(select(seeks.c.rated).where(seeks.c.game_id == game_id)).scalar()
    engine.dispose()
    assert [o.seat for o in owners] == [0, 1] and rated is True
    assert app_client.app.state.hub.rooms[game_id].rated is True
    # An account's seat needs its session besides the ticket.
    stolen = guest.http.get(f"/api/games/{game_id}", headers=auth(accepted.json()["ticket"]))
    assert stolen.status_code == 403
    mine = bob.http.get(f"/api/games/{game_id}", headers=auth(accepted.json()["ticket"]))
    assert mine.json()["you"] == 1
    # The guest's socket heard nothing of the challenges.
    guest_ws.send_json({"type": "ping"})
    heard = []
    while not heard or heard[-1] != "pong":
        heard.append(next_message(guest_ws)["type"])
    assert set(heard) <= {"pong", "online", "games"}, heard
    bob_ws.close_all()
    guest_ws.close_all()


def test_rated_seeks_ranges_and_bans(app_client: Any, url: str,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    alice = Browser(app_client).sign_up("Alice")
    bob = Browser(app_client).sign_up("Bob")
    guest = Browser(app_client)
    rated = alice.seek(rated=True)
    refused = guest.accept(rated["seek"]["id"], "Guest")
    assert refused.status_code == 403 and "log in" in refused.json()["error"]
    ranged = alice.seek(rating_min=1600, rating_max=2000)
    ratings = {"Bob": 1500.0}
    bob_id = bob.http.get("/api/account").json()  # (the name only: find the id below)
    assert bob_id["name"] == "Bob"
    engine = create_engine(url)
    from kingscrib.web.db.tables import accounts as accounts_table
    with engine.connect() as conn:
        ids = dict(conn.execute(select(accounts_table.c.name, accounts_table.c.id)).all())
    engine.dispose()
    monkeypatch.setattr(rating_store, "rating_of",
                        lambda engine, account_id, game: ratings.get(
                            {v: k for k, v in ids.items()}[account_id]))
    out = bob.accept(ranged["seek"]["id"])
    assert out.status_code == 403 and "outside" in out.json()["error"]
    ratings["Bob"] = 1700.0
    assert bob.accept(ranged["seek"]["id"]).status_code == 200
    monkeypatch.setattr(lobby_bans, "banned", lambda engine, account_id: account_id == ids["Bob"])
    banned = bob.post("/seeks", {})
    assert banned.status_code == 403 and "banned" in banned.json()["error"]
    challenged = alice.post("/seeks", {"challenge": "Bob"})
    assert challenged.status_code == 403 and "banned" in challenged.json()["error"]
    assert bob.accept(rated["seek"]["id"]).status_code == 403
    assert table_count(url, seeks) == 2  # the rated seek, and the one that became a game


def test_a_seek_vanishes_when_its_player_stays_away(app_client: Any, url: str) -> None:
    app_client.app.state.lobby.grace = 1.2
    ann, cid = Browser(app_client), Browser(app_client)
    watcher = cid.live()
    ann_ws = ann.live()
    posted = ann.seek()
    time.sleep(2.5)  # connected: kept past the grace
    assert [s["id"] for s in app_client.get("/api/lobby").json()["seeks"]] == \
        [posted["seek"]["id"]]
    ann_ws.close_all()
    gone = receive_until(watcher, "gone")
    assert gone == {"type": "gone", "id": posted["seek"]["id"], "reason": "left"}
    assert table_count(url, seeks) == 0
    watcher.close_all()


def test_people_online_are_counted_live(app_client: Any) -> None:
    first = Browser(app_client).live()
    assert first.first["online"] == 1
    second = Browser(app_client).live()
    assert second.first["online"] == 2
    assert receive_until(first, "online", lambda m: m["count"] == 2)
    second.close_all()
    assert receive_until(first, "online", lambda m: m["count"] == 1)
    first.close_all()


def test_a_burst_of_news_reaches_a_browser_in_one_frame_and_news_after_quiet_at_once(
        app_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from kingscrib.web.lobby import routes as lobby_routes

    monkeypatch.setattr(lobby_routes, "FRAME_GAP", 2.0)  # generous for a slow machine
    watcher = Browser(app_client).live()
    try:
        posted = [Browser(app_client).seek()["seek"]["id"] for _ in range(5)]
        frames: list[list[dict[str, Any]]] = []
        while sum(m["type"] == "seek" for f in frames for m in f) < 5:
            frame = watcher.receive_json()
            frames.append(frame if isinstance(frame, list) else [frame])
        assert [m["seek"]["id"] for f in frames for m in f if m["type"] == "seek"] == posted
        # Within the gap after the lobby's first frame: all five in one frame.
        assert len(frames) == 1, frames
        # After a quiet spell longer than the gap, news goes at once.
        time.sleep(2.1)
        sent = time.monotonic()
        later = Browser(app_client).seek()["seek"]["id"]
        assert receive_until(watcher, "seek")["seek"]["id"] == later
        assert time.monotonic() - sent < 1.5
    finally:
        watcher.close_all()


# ----- per address, however the visitor header varies -----------------------------------
def test_seeks_are_limited_per_address_whatever_visitor_secret_is_sent(url: str) -> None:
    """The issue's flood: many visitor secrets from one address. Each browser (visitor)
    may hold 3 seats waiting, the address 12 in all; a seek started or cancelled frees
    its place."""
    with https_client(url, seeks_per_address=12) as c:
        posted = []
        for _ in range(30):  # thirty browsers, one address
            browser = Browser(c)
            r = browser.post("/seeks", {"name": "Ann"})
            if r.status_code == 201:
                posted.append((browser, r.json()["seek"]["id"]))
            else:
                assert r.status_code == 429, r.text
                assert r.json()["error"] == ("12 seeks are waiting from your address already:"
                                             " wait until one starts or is cancelled")
        assert len(posted) == 12
        # Taking a seat in another's seek is a seat waiting too.
        assert Browser(c).accept(posted[0][1]).status_code == 429
        browser, seek_id = posted[0]
        assert browser.leave(seek_id).status_code == 200  # cancelled: a place is free
        assert Browser(c).post("/seeks", {"name": "Cy"}).status_code == 201
        assert Browser(c).post("/seeks", {"name": "Cy"}).status_code == 429
        ann = Browser(c).sign_up("Ann")  # an account from the address is counted there too
        assert ann.post("/seeks", {}).status_code == 429


def test_a_new_browser_is_sent_a_bounded_first_message(url: str, monkeypatch) -> None:
    from kingscrib.web.lobby import live

    monkeypatch.setattr(live, "SNAPSHOT_SEEKS", 5)
    with https_client(url) as c:
        ids = [Browser(c).seek()["seek"]["id"] for _ in range(8)]
        ws = Browser(c).live()
        try:
            assert [s["id"] for s in ws.first["seeks"]] == ids[:5]  # the oldest first
            assert ws.first["more"] == 3
        finally:
            ws.close_all()
