"""Faults on PostgreSQL with two ``kingscrib serve`` processes: the listening connection
killed, PostgreSQL restarted mid-game, a process killed mid-move, the database stalled;
and requests with a wrong seat token. Afterwards every process shows every acknowledged
move exactly once within a few seconds, no request hangs, and a move made while the
database is down gets a JSON 503.

The suite starts its own PostgreSQL cluster (tests/web_support.py), which it restarts
and stalls, so it shares it with no other module.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator

import httpx
import psycopg
import pytest
from test_web_scaleout import best, wait_for_turns
from web_support import PostgresCluster, Server, auth, postgres_server
from websockets.sync.client import connect

from kingscrib.kings.fastgen import legal_plays
from kingscrib.kings.game import Game
from kingscrib.kings.moves import Pass, Play
from kingscrib.web.db.storage import LISTENER_NAME, Store
from kingscrib.web.play.rooms import Hub

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SEED = 11
TIMEOUT = 20.0  # seconds any request may take here: none may hang
SOON = 5.0  # seconds within which every process shows every acknowledged move


@pytest.fixture(scope="module")
def pg() -> Iterator[PostgresCluster]:
    with postgres_server() as cluster:
        yield cluster


@pytest.fixture(scope="module")
def servers(pg: PostgresCluster, tmp_path_factory) -> Iterator[list[Server]]:
    """Two processes on one database; a test that kills one starts it again (revive)."""
    folder = tmp_path_factory.mktemp("faults")
    both = [Server(pg.url, data_dir=folder, computer_delay=0.3,
                   log_file=folder / f"serve-{i}.log") for i in range(2)]
    try:
        for s in both:
            s.start()
        yield both
    finally:
        for s in both:
            s.stop()


def revive(server: Server) -> None:
    """Start a killed server process again, on the same port."""
    if server.process is not None and server.process.poll() is None:
        return
    server.start()


def listening(pg: PostgresCluster) -> list[int]:
    """The backends of the processes' listening connections."""
    with psycopg.connect(pg.url, autocommit=True) as conn:
        return [r[0] for r in conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE application_name = %s"
            " OR query = 'LISTEN kingscrib_games'", [LISTENER_NAME])]


def until_listening(pg: PostgresCluster, count: int = 2) -> None:
    deadline = time.monotonic() + SOON * 2
    while len(listening(pg)) < count:
        assert time.monotonic() < deadline, "the processes did not listen again"
        time.sleep(0.1)


def post(server: Server, gid: str, body: dict, token: str | None) -> httpx.Response:
    return httpx.post(f"{server.url}/api/games/{gid}/actions", json=body,
                      headers=auth(token) if token else {}, timeout=TIMEOUT)


def state(server: Server, gid: str, token: str | None = None) -> dict:
    r = httpx.get(f"{server.url}/api/games/{gid}", headers=auth(token) if token else {},
                  timeout=TIMEOUT)
    assert r.status_code == 200, r.text
    return r.json()


def new_game(a: Server, b: Server) -> tuple[str, list[str], Game]:
    """Created through ``a``, the second seat joined through ``b``."""
    created = httpx.post(f"{a.url}/api/games", timeout=TIMEOUT, json={
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human"}], "seed": SEED}).json()
    gid = created["game_id"]
    joined = httpx.post(f"{b.url}/api/games/{gid}/join", timeout=TIMEOUT,
                        json={"invite": created["invite"], "name": "Bob"})
    assert joined.status_code == 200, joined.text
    return gid, [created["token"], joined.json()["token"]], Game.new(["Ann", "Bob"], seed=SEED)


def next_move(engine: Game) -> dict:
    if legal_plays(engine.board, engine.racks[engine.turn], engine.rules):
        return {"action": "play", "tiles": best(engine)}
    return {"action": "pass"}


def played(engine: Game, body: dict) -> None:
    engine.play(Play.from_json(body["tiles"]) if "tiles" in body else Pass())


def move(server: Server, gid: str, tokens: list[str], engine: Game,
         retry_for: float = 0.0) -> httpx.Response:
    """The engine's next move through ``server``; while the database is coming back
    (503) it is tried again for ``retry_for`` seconds. A move acknowledged is played on
    the engine."""
    body = next_move(engine)
    deadline = time.monotonic() + retry_for
    while True:
        r = post(server, gid, body, tokens[engine.turn])
        if r.status_code != 503 or time.monotonic() >= deadline:
            break
        time.sleep(0.2)
    if r.status_code == 200:
        played(engine, body)
    return r


def socket(server: Server, gid: str, token: str | None):
    ws = connect(f"ws://127.0.0.1:{server.port}/api/games/{gid}/ws", open_timeout=TIMEOUT)
    ws.send(json.dumps({"type": "hello", "token": token}))
    assert json.loads(ws.recv(TIMEOUT))["type"] == "welcome"
    assert json.loads(ws.recv(TIMEOUT))["type"] == "state"
    return ws


def agree(servers: list[Server], gid: str, tokens: list[str], engine: Game) -> None:
    """Every process shows the game the acknowledged moves make, each exactly once,
    within SOON seconds."""
    deadline = time.monotonic() + SOON
    while True:
        states = [[state(s, gid, t) for t in tokens] for s in servers]
        if all(len(st["history"]) == len(engine.history) for sts in states for st in sts):
            break
        assert time.monotonic() < deadline, [len(st["history"]) for sts in states
                                             for st in sts]
        time.sleep(0.05)
    for sts in states:
        assert sts[0]["history"] == states[0][0]["history"]
        assert sts[0]["board"] == states[0][0]["board"]
        for seat, st in enumerate(sts):
            assert st["rack"] == [str(t) for t in engine.racks[seat]]
            assert st["turn"] == engine.turn


# ----- wrong seat tokens ----------------------------------------------------------------
def test_wrong_tokens_do_not_stop_a_computer_seat(servers: list[Server]) -> None:
    a = servers[0]
    created = httpx.post(f"{a.url}/api/games", timeout=TIMEOUT, json={
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "computer", "level": "greedy"}],
        "seed": SEED}).json()
    gid, token = created["game_id"], created["token"]
    stop = threading.Event()
    codes: list[int] = []

    def pester() -> None:  # what anyone holding the spectator link can send
        while not stop.is_set():
            codes.append(httpx.get(f"{a.url}/api/games/{gid}", timeout=TIMEOUT,
                                   headers=auth("bogus")).status_code)
            with connect(f"ws://127.0.0.1:{a.port}/api/games/{gid}/ws",
                         open_timeout=TIMEOUT) as ws:
                ws.send(json.dumps({"type": "hello", "token": "bogus"}))
                codes.append(json.loads(ws.recv(TIMEOUT))["status"])
            time.sleep(0.02)

    pestering = threading.Thread(target=pester)
    pestering.start()
    try:
        for _ in range(3):  # each time the computer's turn comes, with wrong tokens about
            deadline = time.monotonic() + SOON
            while (now := state(a, gid, token))["turn"] != 0:
                assert time.monotonic() < deadline, "the computer did not move"
                time.sleep(0.05)
            r = post(a, gid, {"action": "pass"}, token)
            assert r.status_code == 200, r.text
            assert len(r.json()["history"]) == len(now["history"]) + 1
    finally:
        stop.set()
        pestering.join()
    assert codes and set(codes) == {401}


# ----- the listening connection lost ------------------------------------------------------
def moves_reach_both(pg: PostgresCluster, servers: list[Server], sockets: list, gid: str,
                     tokens: list[str], engine: Game, retry_for: float = 0.0) -> None:
    """Three moves through one process, the other, the first again: each acknowledged,
    every socket shown them all, both processes agreeing, the listeners back."""
    a, b = servers
    for via in (b, a, b):
        r = move(via, gid, tokens, engine, retry_for=retry_for)
        assert r.status_code == 200, r.text
    for ws in sockets:
        wait_for_turns(ws, len(engine.history), SOON)
    agree(servers, gid, tokens, engine)
    until_listening(pg)


def test_moves_made_while_a_listener_is_down_reach_its_sockets(
        pg: PostgresCluster, servers: list[Server]) -> None:
    a, b = servers
    until_listening(pg)
    gid, tokens, engine = new_game(a, b)
    sockets = [socket(a, gid, tokens[0]), socket(b, gid, tokens[1]), socket(a, gid, None)]
    try:
        with psycopg.connect(pg.url, autocommit=True) as conn:
            for pid in listening(pg):
                conn.execute("SELECT pg_terminate_backend(%s)", [pid])
        # Moves while nobody listens: through the one process, then the other.
        moves_reach_both(pg, servers, sockets, gid, tokens, engine)
    finally:
        for ws in sockets:
            ws.close()


def test_a_move_refused_by_a_stale_game_is_checked_again_on_the_stored_one(
        pg: PostgresCluster) -> None:
    """A process that missed a note refuses nothing for it: "not your turn" on the game
    it holds becomes a check on the game the store holds."""
    async def scenario() -> None:
        first, second = Hub(Store(pg.url), allow_seed=True), Hub(Store(pg.url),
                                                                  allow_seed=True)
        try:  # neither listens: every note is missed
            room, _, _, _ = await first.create([{"kind": "human"}, {"kind": "human"}], {},
                                               seed=SEED)
            other = await second.get(room.id)
            engine = Game.new(["a", "b"], seed=SEED)
            for hub, held in ((first, room), (second, other), (first, room)):
                body = next_move(engine)
                await hub.act(held, engine.turn, body)
                played(engine, body)
            # Each move was taken by a room that had missed the one before it.
            assert room.game.game.history == engine.history
            assert room.game.game.racks == engine.racks
            assert other.game.game.history == engine.history[:2]
            assert len(first.store.load(room.id).turns) == 3
        finally:
            for hub in (first, second):
                await hub.close()
                hub.store.close()

    asyncio.run(scenario())


# ----- PostgreSQL restarted -----------------------------------------------------------
def test_postgresql_restarted_mid_game(pg: PostgresCluster, servers: list[Server]) -> None:
    a, b = servers
    until_listening(pg)
    gid, tokens, engine = new_game(a, b)
    sockets = [socket(a, gid, tokens[0]), socket(b, gid, tokens[1])]
    # A game only the first process holds: the second must read it from the store.
    unheld = httpx.post(f"{a.url}/api/games", timeout=TIMEOUT, json={
        "seats": [{"kind": "human"}, {"kind": "human"}], "seed": SEED}).json()
    try:
        assert move(a, gid, tokens, engine).status_code == 200
        pg.crash()
        r = post(b, unheld["game_id"], {"action": "pass"}, unheld["token"])
        assert r.status_code == 503 and r.json()["error"], r.text
        try:
            for via in (a, b):  # a move while the database is down: refused, clearly
                r = post(via, gid, next_move(engine), tokens[engine.turn])
                assert r.status_code == 503, r.text
                assert "could not be saved" in r.json()["error"]
                # the game as it stands is still shown
                assert len(state(via, gid)["history"]) == len(engine.history)
                # a move out of turn is refused as the process sees the game (it cannot
                # ask the store whether it missed a move)
                r = post(via, gid, next_move(engine), tokens[1 - engine.turn])
                assert r.status_code == 409, r.text
        finally:
            pg.boot()
        # The first moves after the restart go through (a moment's 503 is retried).
        moves_reach_both(pg, servers, sockets, gid, tokens, engine, retry_for=SOON)
    finally:
        for ws in sockets:
            ws.close()


# ----- a process killed ------------------------------------------------------------------
def stored_turns(pg: PostgresCluster, gid: str) -> int:
    with psycopg.connect(pg.url, autocommit=True) as conn:
        return conn.execute("SELECT count(*) FROM turns WHERE game_id = %s",
                            [gid]).fetchone()[0]


@pytest.mark.parametrize("after", [0.0, 0.01])
def test_a_process_killed_mid_move_loses_no_acknowledged_move(
        pg: PostgresCluster, servers: list[Server], after: float) -> None:
    a, b = servers
    revive(a)
    gid, tokens, engine = new_game(a, b)
    watching = socket(b, gid, tokens[1])
    try:
        assert move(a, gid, tokens, engine).status_code == 200
        body, replies = next_move(engine), []

        def send() -> None:
            try:
                replies.append(post(a, gid, body, tokens[engine.turn]))
            except httpx.HTTPError:  # the process died before answering
                replies.append(None)

        sending = threading.Thread(target=send)
        sending.start()
        time.sleep(after)
        a.process.kill()  # SIGKILL: no clean shutdown
        a.process.wait()
        sending.join(TIMEOUT)
        assert not sending.is_alive()
        acknowledged = replies[0] is not None and replies[0].status_code == 200
        stored = stored_turns(pg, gid)
        # An acknowledged move is stored; one not acknowledged may or may not be.
        assert stored == len(engine.history) + 1 if acknowledged else \
            stored in (len(engine.history), len(engine.history) + 1)
        if stored > len(engine.history):
            played(engine, body)
        wait_for_turns(watching, len(engine.history), SOON)
        agree([b], gid, tokens, engine)
        revive(a)  # started again: it shows the same game and plays on
        agree([a, b], gid, tokens, engine)
        assert move(a, gid, tokens, engine).status_code == 200
        agree([a, b], gid, tokens, engine)
    finally:
        watching.close()
        revive(a)


# ----- the database stalled --------------------------------------------------------------
def test_a_stalled_database_delays_moves_and_loses_none(
        pg: PostgresCluster, servers: list[Server]) -> None:
    a, b = servers
    revive(a)
    until_listening(pg)
    gid, tokens, engine = new_game(a, b)
    sockets = [socket(a, gid, tokens[0]), socket(b, gid, tokens[1])]
    try:
        # A lock on the turns table held for two seconds: the move waits for it.
        locked = threading.Event()

        def lock() -> None:
            with psycopg.connect(pg.url) as conn:
                conn.execute("LOCK TABLE turns IN ACCESS EXCLUSIVE MODE")
                locked.set()
                conn.execute("SELECT pg_sleep(2)")

        locking = threading.Thread(target=lock)
        locking.start()
        assert locked.wait(TIMEOUT)
        assert move(b, gid, tokens, engine).status_code == 200
        locking.join()
        # Every PostgreSQL process stopped for two seconds, moves sent meanwhile.
        replies: list[httpx.Response] = []
        body, token = next_move(engine), tokens[engine.turn]
        with pg.stalled():
            sending = threading.Thread(target=lambda: replies.append(post(a, gid, body,
                                                                          token)))
            sending.start()
            time.sleep(2)
        sending.join(TIMEOUT)
        assert replies and replies[0].status_code == 200, replies
        played(engine, body)
        assert move(b, gid, tokens, engine).status_code == 200
        for ws in sockets:
            wait_for_turns(ws, len(engine.history), SOON)
        agree(servers, gid, tokens, engine)
    finally:
        for ws in sockets:
            ws.close()
