"""Housekeeping: games left untouched are closed and kept as records; start-up is lazy;
rooms nobody looks at leave memory and come back exactly."""

from __future__ import annotations

import functools
import sqlite3
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from web_support import auth, in_process_client

from kingscrib.kings.fastgen import legal_plays
from kingscrib.kings.game import Game
from kingscrib.kings.record import check_record

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TWO = {"seats": [{"kind": "human"}, {"kind": "human"}], "seed": 11}


def two_people(client: TestClient) -> tuple[str, list[str], str]:
    created = client.post("/api/games", json=TWO).json()
    joined = client.post(f"/api/games/{created['game_id']}/join",
                         json={"invite": created["invite"]}).json()
    return created["game_id"], [created["token"], joined["token"]], created["invite"]


@functools.cache
def opening() -> tuple[int, list]:
    """The seat that moves first in the games made from TWO, and a play it can make
    (found once, before any game's idle clock starts)."""
    engine = Game.new(["Player 1", "Player 2"], seed=11)
    tiles = legal_plays(engine.board, engine.racks[engine.turn], engine.rules)[0]
    return engine.turn, tiles.play.tiles_json()


def first_move(client: TestClient, gid: str, tokens: list[str]) -> int:
    turn, tiles = opening()
    r = client.post(f"/api/games/{gid}/actions", headers=auth(tokens[turn]),
                    json={"action": "play", "tiles": tiles})
    assert r.status_code == 200, r.text
    return 1 - turn


def test_a_game_left_untouched_is_closed_and_kept_as_a_record(tmp_path: Path) -> None:
    db = tmp_path / "web.sqlite3"
    opening()  # found before the game's idle clock starts (a loaded machine is slow)
    with in_process_client(f"sqlite:///{db}", idle_timeout=3, sweep_every=0.1) as c:
        gid, tokens, invite = two_people(c)
        mover = first_move(c, gid, tokens)
        deadline = time.monotonic() + 20
        while not c.get(f"/api/games/{gid}").json()["closed"]:  # looking is not playing
            assert time.monotonic() < deadline, "the game was not closed"
            time.sleep(0.05)
        state = c.get(f"/api/games/{gid}").json()
        assert state["closed"] and len(state["history"]) == 1
        r = c.post(f"/api/games/{gid}/actions", headers=auth(tokens[mover]),
                   json={"action": "pass"})
        assert r.status_code == 409 and "closed" in r.json()["error"]
        assert c.post(f"/api/games/{gid}/hint", headers=auth(tokens[mover])).status_code == 403
        record = c.get(f"/api/games/{gid}/record")
        assert record.status_code == 200
        assert len(record.json()["turns"]) == 1 and "end" not in record.json()
        check_record(record.json())
        assert c.get(f"/api/games/{gid}").json()["history"] == state["history"]
    with sqlite3.connect(db) as conn:
        over, closed = conn.execute("SELECT over, closed FROM games WHERE id = ?",
                                    (gid,)).fetchone()
    assert over and closed is not None
    with in_process_client(f"sqlite:///{db}") as c:  # closed it stays
        assert c.get(f"/api/games/{gid}").json()["closed"] is True
        assert c.get(f"/api/games/{gid}/record").status_code == 200


def test_a_game_being_played_is_not_closed(tmp_path: Path) -> None:
    db = tmp_path / "web.sqlite3"
    opening()
    with in_process_client(f"sqlite:///{db}", idle_timeout=3, sweep_every=0.1) as c:
        gid, tokens, _ = two_people(c)
        mover = first_move(c, gid, tokens)
        for _ in range(5):  # a move every 0.7 s for 3.5 s, past the 3 s idle time (five
            time.sleep(0.7)  # passes: a sixth scoreless turn would end the game)
            r = c.post(f"/api/games/{gid}/actions", headers=auth(tokens[mover]),
                       json={"action": "pass"})
            assert r.status_code == 200, r.text
            mover = 1 - mover
        assert c.get(f"/api/games/{gid}").json()["closed"] is False


def test_start_up_is_lazy_and_a_game_is_rebuilt_when_first_touched(tmp_path: Path) -> None:
    db = tmp_path / "web.sqlite3"
    with in_process_client(f"sqlite:///{db}") as c:
        games = [two_people(c) for _ in range(20)]
        gid, tokens, _ = games[7]
        first_move(c, gid, tokens)
        before = c.get(f"/api/games/{gid}", headers=auth(tokens[0])).json()
    with in_process_client(f"sqlite:///{db}") as c:
        hub = c.app.state.hub
        assert hub.rooms == {}  # nothing replayed at start
        assert c.get(f"/api/games/{gid}", headers=auth(tokens[0])).json() == before
        assert list(hub.rooms) == [gid]


def test_rooms_nobody_touches_leave_memory_and_come_back_exactly(tmp_path: Path) -> None:
    db = tmp_path / "web.sqlite3"
    with in_process_client(f"sqlite:///{db}", evict_after=0.2, sweep_every=0.1) as c:
        hub = c.app.state.hub
        gid, tokens, _ = two_people(c)
        mover = first_move(c, gid, tokens)
        before = c.get(f"/api/games/{gid}", headers=auth(tokens[mover])).json()
        watched, _, _ = two_people(c)
        with c.websocket_connect(f"/api/games/{watched}/ws") as ws:
            ws.send_json({"type": "hello"})
            ws.receive_json()
            deadline = time.monotonic() + 10
            while gid in hub.rooms:
                assert time.monotonic() < deadline, "the room stayed in memory"
                time.sleep(0.05)
            assert watched in hub.rooms  # a room with a listener stays
        assert c.get(f"/api/games/{gid}", headers=auth(tokens[mover])).json() == before
        r = c.post(f"/api/games/{gid}/actions", headers=auth(tokens[mover]),
                   json={"action": "pass"})
        assert r.status_code == 200
