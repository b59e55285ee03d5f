"""Health, metrics and a database that goes away.

- ``/api/health/live`` answers while the process serves; ``/api/health/ready`` only when
  the database answers, its schema is current and (PostgreSQL) the LISTEN connection
  is up, naming each failing check otherwise; ``/api/health`` answers as before.
- ``/metrics`` (Prometheus): moves by game, move latency, open websockets, queued work,
  refusals by limit, listener reconnects, each counted where it happens.
- With the PostgreSQL server stopped under a running ``kingscrib serve``, every route
  answers a JSON 503 saying what could not be done (creating a game, loading a game not
  in memory, joining, a move, a websocket), never a 500; once PostgreSQL is back the
  process is ready again, its listener reconnected, and the games play on; the log
  holds a line a failed call and no traceback.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import create_engine, text
from starlette.websockets import WebSocketDisconnect
from web_support import Server, auth, in_process_client, postgres_server

from kingscrib.classic.game import ClassicGame
from kingscrib.classic.rules import RuleSet as ClassicRules
from kingscrib.kings.game import Game
from kingscrib.kings.rules import RuleSet
from kingscrib.web.db import schema

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def sample(metrics_text: str, name: str, **labels: str) -> float:
    """The value of one sample of the exposition (0 when it is not there yet)."""
    for family in text_string_to_metric_families(metrics_text):
        for s in family.samples:
            if s.name == name and all(s.labels.get(k) == v for k, v in labels.items()):
                return s.value
    return 0.0


def reading(get: Callable[[str], Any]) -> Callable[..., float]:
    def read(name: str, **labels: str) -> float:
        return sample(get("/metrics").text, name, **labels)
    return read


def wait_for(check: Callable[[], bool], seconds: float = 30.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.02)
    return False


def kings_game(c: Any, **extra: Any) -> tuple[str, list[str], Game]:
    created = c.post("/api/games", json={"seats": [{"name": "Ann"}, {"name": "Bob"}],
                                         "seed": 11, **extra}).json()
    joined = c.post(f"/api/games/{created['game_id']}/join",
                    json={"invite": created["invite"], "name": "Bob"}).json()
    return (created["game_id"], [created["token"], joined["token"]],
            Game.new(["Ann", "Bob"], RuleSet(), 11))


def kings_move(c: Any, gid: str, tokens: list[str], engine: Game) -> Any:
    best = engine.legal_moves()[0].play
    r = c.post(f"/api/games/{gid}/actions", json={"action": "play", "tiles": best.tiles_json()},
               headers=auth(tokens[engine.turn]))
    if r.status_code == 200:
        engine.play(best)
    return r


# ----- health ----------------------------------------------------------------------------
def test_live_and_ready_and_the_old_health_answer_and_ready_names_a_stale_schema(
        tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    with in_process_client(url) as c:
        assert c.get("/api/health").json() == {"status": "ok", "processes": 1}
        assert c.get("/api/health/live").json() == {"status": "ok"}
        ready = c.get("/api/health/ready")
        assert ready.status_code == 200
        assert ready.json() == {"status": "ready",
                                "checks": {"database": "ok", "migrations": "ok"}}
        engine = create_engine(url)
        with engine.begin() as conn:  # another kingscrib moved the schema on meanwhile
            conn.execute(text("UPDATE alembic_version SET version_num = 'f00d'"))
        stale = c.get("/api/health/ready")
        assert stale.status_code == 503
        assert stale.json()["checks"] == {
            "database": "ok",
            "migrations": f"the database is at revision f00d, this server expects"
                          f" {schema.head()}: run kingscrib db upgrade"}
        assert stale.json()["error"].startswith("not ready: migrations: the database is at")
        assert c.get("/api/health/live").status_code == 200
        assert c.get("/api/health").status_code == 200
        with engine.begin() as conn:
            conn.execute(text("UPDATE alembic_version SET version_num = :v"),
                         {"v": schema.head()})
        engine.dispose()
        assert c.get("/api/health/ready").status_code == 200


# ----- metrics ---------------------------------------------------------------------------
def test_moves_and_their_latency_are_counted_by_game(tmp_path: Path) -> None:
    with in_process_client(f"sqlite:///{tmp_path / 'web.sqlite3'}") as c:
        read = reading(c.get)
        kings = read("kingscrib_moves_total", game="kings")
        classic = read("kingscrib_moves_total", game="cribbage")
        timed = read("kingscrib_move_seconds_count", game="kings")
        gid, tokens, engine = kings_game(c)
        for _ in range(3):
            assert kings_move(c, gid, tokens, engine).status_code == 200
        refused = c.post(f"/api/games/{gid}/actions", json={"action": "pass"},
                         headers=auth(tokens[1 - engine.turn]))
        assert refused.status_code >= 400  # a refused move is not a move
        assert read("kingscrib_moves_total", game="kings") == kings + 3
        assert read("kingscrib_move_seconds_count", game="kings") == timed + 3
        assert read("kingscrib_move_seconds_sum", game="kings") > 0
        created = c.post("/api/games", json={"game": "classic", "seed": 5, "seats": [
            {}, {"kind": "computer", "level": "easy"}]}).json()
        game = ClassicGame(ClassicRules(players=2), 5, explicit_go=True)
        discard = game.legal_for(0)[0]
        r = c.post(f"/api/games/{created['game_id']}/actions", headers=auth(created["token"]),
                   json={"action": "discard", "cards": [str(x) for x in discard.cards]})
        assert r.status_code == 200, r.text
        # The person's discard, the computer's: both moves (the computer's a moment later).
        assert wait_for(lambda: read("kingscrib_moves_total", game="cribbage") >= classic + 2)
        assert read("kingscrib_move_seconds_count", game="cribbage") >= 1


def test_open_websockets_are_a_gauge(tmp_path: Path) -> None:
    with in_process_client(f"sqlite:///{tmp_path / 'web.sqlite3'}") as c:
        read = reading(c.get)
        gid, tokens, _ = kings_game(c)
        before = read("kingscrib_websockets_open")
        with c.websocket_connect(f"/api/games/{gid}/ws") as a, \
                c.websocket_connect(f"/api/games/{gid}/ws") as b:
            for ws, token in ((a, tokens[0]), (b, None)):
                ws.send_json({"type": "hello", "token": token})
                assert ws.receive_json()["type"] == "welcome"
            assert read("kingscrib_websockets_open") == before + 2
        assert wait_for(lambda: read("kingscrib_websockets_open") == before)


def test_refusals_are_counted_by_the_limit_that_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    names = ("games_per_hour", "max_body", "sockets_per_address", "max_message",
             "rate_per_second")
    with in_process_client(url, games_per_hour=2, sockets_per_address=1) as c:
        read = reading(c.get)
        before = {n: read("kingscrib_refusals_total", limit=n) for n in names}
        gid, tokens, _ = kings_game(c)
        assert c.post("/api/games", json={"seats": [{}, {}]}).status_code == 201
        assert c.post("/api/games", json={"seats": [{}, {}]}).status_code == 429
        assert c.post("/api/games", content=b"{" + b" " * 20_000 + b"}",
                      headers={"content-type": "application/json"}).status_code == 413
        with c.websocket_connect(f"/api/games/{gid}/ws") as first:
            first.send_json({"type": "hello", "token": tokens[0]})
            assert first.receive_json()["type"] == "welcome"
            with c.websocket_connect(f"/api/games/{gid}/ws") as second, \
                    pytest.raises(WebSocketDisconnect) as closed:
                second.receive_json()  # the address has its one websocket open
            assert closed.value.code == 1008
            first.send_text("x" * 5000)
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    first.receive_json()
            assert closed.value.code == 1009
        after = {n: read("kingscrib_refusals_total", limit=n) for n in names}
        assert {n: after[n] - before[n] for n in names} == {
            "games_per_hour": 1, "max_body": 1, "sockets_per_address": 1, "max_message": 1,
            "rate_per_second": 0}
    with in_process_client(url, rate_per_second=0.01, rate_burst=2) as c:
        assert [c.get("/api/levels").status_code for _ in range(4)] == [200, 200, 429, 429]
    with in_process_client(url) as c:
        assert reading(c.get)("kingscrib_refusals_total", limit="rate_per_second") == \
            after["rate_per_second"] + 2


def test_queued_work_rises_while_an_analysis_runs_and_falls_after(tmp_path: Path) -> None:
    # (the analysis's worker process takes a moment to start: the polling must not be
    # refused by the per-connection rate limit meanwhile)
    with in_process_client(f"sqlite:///{tmp_path / 'web.sqlite3'}", rate_per_second=1e4,
                           rate_burst=1e4) as c:
        read = reading(c.get)
        body = {"seats": [{"kind": "computer", "level": "greedy"}] * 2, "seed": 4}
        made = c.post("/api/games", json=body).json()
        gid = made["game_id"]
        assert wait_for(lambda: c.get(f"/api/games/{gid}/record").status_code == 200, 120)
        assert read("kingscrib_work_queued", queue="analysis") == 0
        started = c.post(f"/api/games/{gid}/analysis", json={"invite": made["invite"]})
        assert started.status_code == 202
        assert wait_for(lambda: read("kingscrib_work_queued", queue="analysis") == 1)
        assert wait_for(lambda: c.get(f"/api/games/{gid}/analysis").json()["status"] == "done",
                        300)
        assert read("kingscrib_work_queued", queue="analysis") == 0


# ----- PostgreSQL going away under a running server --------------------------------------
def json_503(r: httpx.Response, what: str) -> None:
    assert r.status_code == 503, r.text
    assert r.headers["content-type"] == "application/json"
    assert r.json()["error"] == (f"{what}: the database cannot be reached right now;"
                                 " nothing was changed, try again in a moment")


def test_with_postgresql_stopped_every_route_answers_json_503_and_recovers(
        tmp_path: Path) -> None:
    import websockets.sync.client as ws_client
    from websockets.exceptions import ConnectionClosed

    with postgres_server() as cluster:
        server = Server(cluster.url, data_dir=tmp_path).start()
        try:
            resting, tokens, engine = kings_game(httpx.Client(base_url=server.url))
            server.stop()  # the game is in no process's memory now
            server = Server(cluster.url, data_dir=tmp_path).start()
            c = httpx.Client(base_url=server.url, timeout=20)
            read = reading(c.get)
            live, live_tokens, live_engine = kings_game(c)
            assert c.get("/api/health/ready").json()["checks"] == {
                "database": "ok", "migrations": "ok", "listener": "ok"}
            assert read("kingscrib_listener_connected") == 1
            reconnects = read("kingscrib_listener_reconnects_total")

            cluster.stop()
            json_503(c.post("/api/games", json={"seats": [{}, {}]}),
                     "the game could not be created")
            json_503(c.get(f"/api/games/{resting}", headers=auth(tokens[0])),
                     "the game could not be loaded")
            json_503(c.post(f"/api/games/{resting}/join", json={"invite": "x"}),
                     "the game could not be loaded")
            move = kings_move(c, live, live_tokens, live_engine)
            assert move.status_code == 503 and "could not be saved" in move.json()["error"]
            with ws_client.connect(f"ws://127.0.0.1:{server.port}/api/games/{resting}/ws") as ws:
                said = json.loads(ws.recv(timeout=20))
                assert said["type"] == "error" and said["status"] == 503
                assert "the database cannot be reached right now" in said["error"]
                with pytest.raises(ConnectionClosed):
                    ws.recv(timeout=20)
                assert ws.close_code == 1013
            assert c.get("/api/health/live").status_code == 200
            assert c.get("/api/health").status_code == 200
            assert wait_for(lambda: c.get("/api/health/ready").json()["checks"].get(
                "listener") != "ok", 10)
            ready = c.get("/api/health/ready")
            assert ready.status_code == 503
            assert ready.json()["checks"]["database"] == "cannot be reached"
            assert ready.json()["checks"]["listener"].startswith("the PostgreSQL LISTEN")
            assert read("kingscrib_listener_connected") == 0

            cluster.start()
            assert wait_for(lambda: c.get("/api/health/ready").status_code == 200, 30)
            assert read("kingscrib_listener_reconnects_total") == reconnects + 1
            assert read("kingscrib_listener_connected") == 1
            state = c.get(f"/api/games/{resting}", headers=auth(tokens[0]))
            assert state.status_code == 200 and len(state.json()["history"]) == 0
            assert kings_move(c, resting, tokens, engine).status_code == 200
            assert kings_move(c, live, live_tokens, live_engine).status_code == 200
            assert c.post("/api/games", json={"seats": [{}, {}]}).status_code == 201
        finally:
            server.stop()
    # The outage is logged a line a failed call, without a traceback.
    log = server.process.stdout.read().decode("utf-8", "replace")
    assert "database unreachable (create_game)" not in log  # (allow_game failed first)
    assert "database unreachable (allow_game)" in log and "database unreachable (load)" in log
    assert "Traceback" not in log and "Exception in ASGI application" not in log
