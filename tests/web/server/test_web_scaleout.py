"""Two ``kingscrib serve`` processes on one real PostgreSQL: any process serves any game,
moves reach the websockets held by the other (LISTEN/NOTIFY), concurrent moves for one
turn give exactly one winner, and killing a process loses nothing."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
from web_support import Server, auth, running_servers
from websockets.sync.client import connect

from kingscrib.kings.fastgen import legal_plays
from kingscrib.kings.game import Game
from kingscrib.kings.moves import Pass, Play
from kingscrib.web.db.storage import Store
from kingscrib.web.play.rooms import Hub

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SEED = 11


@pytest.fixture
def two_servers(postgres_url: str, tmp_path) -> Iterator[tuple[Server, Server]]:
    with running_servers(postgres_url, 2, data_dir=tmp_path) as servers:
        yield servers[0], servers[1]


def new_game(a: Server, b: Server) -> tuple[str, list[str], Game]:
    """Created through ``a``, the second seat joined through ``b``."""
    created = httpx.post(f"{a.url}/api/games", json={
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human"}], "seed": SEED}).json()
    gid = created["game_id"]
    joined = httpx.post(f"{b.url}/api/games/{gid}/join",
                        json={"invite": created["invite"], "name": "Bob"})
    assert joined.status_code == 200, joined.text
    return gid, [created["token"], joined.json()["token"]], Game.new(["Ann", "Bob"], seed=SEED)


@contextlib.asynccontextmanager
async def two_hubs(url: str, listening: bool) -> AsyncIterator[tuple[Hub, Hub, list[str]]]:
    """Two hubs on one database, as two processes; listening: both follow the notes (and
    have started to), and the list gathers the ids of games the second reads from the
    store."""
    first = Hub(Store(url), allow_seed=True)
    second = Hub(Store(url), allow_seed=True)
    loads: list[str] = []
    if listening:
        first.start_listening()
        second.start_listening()
        load = second.store.load
        second.store.load = lambda game_id: loads.append(game_id) or load(game_id)
    try:
        if listening:  # both LISTEN connections up before anything is sent
            await until(lambda: first.store.listening and second.store.listening, 15.0)
            await asyncio.sleep(0.1)
        yield first, second, loads
    finally:
        for hub in (first, second):
            await hub.close()
            hub.store.close()


async def until(check, limit: float = 5.0) -> None:
    deadline = time.monotonic() + limit
    while not check():
        assert time.monotonic() < deadline, "not in time"
        await asyncio.sleep(0.01)


def best(engine: Game) -> dict[str, str]:
    return legal_plays(engine.board, engine.racks[engine.turn], engine.rules)[0].play.tiles_json()


def socket(server: Server, gid: str, token: str):
    ws = connect(f"ws://127.0.0.1:{server.port}/api/games/{gid}/ws")
    ws.send(json.dumps({"type": "hello", "token": token}))
    assert json.loads(ws.recv(5))["type"] == "welcome"
    assert json.loads(ws.recv(5))["type"] == "state"
    return ws


def wait_for_turns(ws, turns: int, limit: float = 5.0) -> float:
    """Read until a message shows ``turns`` turns; returns when it came (monotonic)."""
    deadline = time.monotonic() + limit
    while True:
        message = json.loads(ws.recv(max(0.01, deadline - time.monotonic())))
        body = message.get("state") or message.get("update") or {}
        history = body.get("history")
        if history is not None:
            count = body.get("history_from", 0) + len(history)
            if count >= turns:
                return time.monotonic()


def test_any_process_serves_any_game_and_moves_reach_every_socket(two_servers) -> None:
    a, b = two_servers
    gid, tokens, engine = new_game(a, b)
    # Each seat's socket on a different process; a spectator on each too.
    sockets = [socket(a, gid, tokens[0]), socket(b, gid, tokens[1]),
               socket(a, gid, None), socket(b, gid, None)]
    try:
        delays = []
        for n in range(1, 7):
            mover = engine.turn
            via = (a, b)[n % 2]  # alternate the process the move goes through
            tiles = best(engine) if legal_plays(engine.board, engine.racks[mover],
                                                engine.rules) else None
            body = {"action": "play", "tiles": tiles} if tiles else {"action": "pass"}
            sent = time.monotonic()
            r = httpx.post(f"{via.url}/api/games/{gid}/actions", json=body,
                           headers=auth(tokens[mover]))
            assert r.status_code == 200, r.text
            engine.play(Play.from_json(tiles) if tiles else Pass())
            for ws in sockets:
                delays.append(wait_for_turns(ws, n) - sent)
        # both processes give the same game, each seat its own rack
        for seat, token in enumerate(tokens):
            states = [httpx.get(f"{s.url}/api/games/{gid}", headers=auth(token)).json()
                      for s in (a, b)]
            assert states[0]["history"] == states[1]["history"]
            assert states[0]["rack"] == states[1]["rack"] == [str(t) for t in
                                                              engine.racks[seat]]
        assert max(delays) < 1.0, delays  # the benchmark measures the typical figure
    finally:
        for ws in sockets:
            ws.close()


def race(sends: list[tuple[Server, dict]], gid: str, token: str) -> list[httpx.Response]:
    """Send each body through its server at the same moment."""
    results: list[httpx.Response | None] = [None] * len(sends)
    start = threading.Barrier(len(sends))

    def send(i: int) -> None:
        server, body = sends[i]
        start.wait()
        results[i] = httpx.post(f"{server.url}/api/games/{gid}/actions", json=body,
                                headers=auth(token))

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(sends))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results  # type: ignore[return-value]


def test_two_moves_for_one_turn_through_two_processes_one_wins(two_servers) -> None:
    a, b = two_servers
    for _ in range(3):
        gid, tokens, engine = new_game(a, b)
        for s in (a, b):  # both processes hold the room
            assert httpx.get(f"{s.url}/api/games/{gid}").status_code == 200
        mover = tokens[engine.turn]
        plays = legal_plays(engine.board, engine.racks[engine.turn], engine.rules)
        bodies = [{"action": "play", "tiles": plays[0].play.tiles_json()},
                  {"action": "play", "tiles": plays[1].play.tiles_json()}]
        results = race([(a, bodies[0]), (b, bodies[1])], gid, mover)
        codes = sorted(r.status_code for r in results)
        assert codes == [200, 409], [r.text for r in results]
        loser = next(r for r in results if r.status_code == 409)
        # refused by the store (the turn was stored first) or, when the other process
        # had already heard of the move, by the engine (no longer this seat's turn)
        assert ("another move was made first" in loser.json()["error"]
                or "turn, not yours" in loser.json()["error"])
        winner = results[[r.status_code for r in results].index(200)]
        deadline = time.monotonic() + 5
        while True:  # both processes agree on the one move stored
            states = [httpx.get(f"{s.url}/api/games/{gid}").json() for s in (a, b)]
            if all(len(st["history"]) == 1 for st in states):
                break
            assert time.monotonic() < deadline, states
            time.sleep(0.05)
        assert states[0]["board"] == states[1]["board"] == winner.json()["board"]


def test_killing_one_process_loses_nothing(two_servers) -> None:
    a, b = two_servers
    gid, tokens, engine = new_game(a, b)
    r = httpx.post(f"{a.url}/api/games/{gid}/actions", json={
        "action": "play", "tiles": best(engine)}, headers=auth(tokens[engine.turn]))
    assert r.status_code == 200
    before = httpx.get(f"{a.url}/api/games/{gid}", headers=auth(tokens[0])).json()
    a.process.kill()  # SIGKILL: no clean shutdown
    a.process.wait()
    after = httpx.get(f"{b.url}/api/games/{gid}", headers=auth(tokens[0])).json()
    assert after["history"] == before["history"] and after["rack"] == before["rack"]
    # the game goes on through the survivor
    mover = after["turn"]
    r = httpx.post(f"{b.url}/api/games/{gid}/actions", json={"action": "pass"},
                   headers=auth(tokens[mover]))
    assert r.status_code == 200


def test_the_stored_turn_decides_a_race_even_before_any_note_arrives(
        postgres_url: str) -> None:
    import asyncio

    from kingscrib.web.errors import WebError

    async def scenario() -> None:
        # Two hubs on one database, as two processes whose notes are late (not listening).
        async with two_hubs(postgres_url, listening=False) as (first, second, _):
            room, _, _, _ = await first.create([{"kind": "human"}, {"kind": "human"}], {},
                                               seed=SEED)
            other = await second.get(room.id)
            game = room.game.game  # the engine's Game behind the Kings session
            mover = game.turn
            plays = legal_plays(game.board, game.racks[mover], game.rules)
            await first.act(room, mover, {"action": "play",
                                          "tiles": plays[0].play.tiles_json()})
            with pytest.raises(WebError) as refused:
                await second.act(other, mover, {"action": "play",
                                                "tiles": plays[1].play.tiles_json()})
            assert refused.value.status == 409
            assert "another move was made first" in refused.value.message
            # The refused process brings its room up to date in the background.
            await until(lambda: len(other.game.game.history) == 1, limit=15.0)
            assert other.game.game.board == room.game.game.board
            assert other.game.game.racks == room.game.game.racks

    asyncio.run(scenario())


def test_a_turn_in_a_note_is_applied_without_reading_the_store_and_idle_rooms_go_stale(
        postgres_url: str) -> None:
    import asyncio

    from kingscrib.web.play.room import Listener

    async def scenario() -> None:
        async with two_hubs(postgres_url, listening=True) as (first, second, loads):
            watched, _, _, _ = await first.create([{"kind": "human"}, {"kind": "human"}], {},
                                                  seed=SEED)
            idle, _, _, _ = await first.create([{"kind": "human"}, {"kind": "human"}], {},
                                               seed=SEED + 1)
            other, quiet = await second.get(watched.id), await second.get(idle.id)
            seen: list[str] = []

            async def send(message) -> None:
                seen.append(message if isinstance(message, str) else json.dumps(message))

            other.listeners.add(Listener(1, send))
            loads.clear()
            engine = Game.new(["a", "b"], seed=SEED)
            for _ in range(4):  # moves through the first process
                body = ({"action": "play", "tiles": best(engine)}
                        if legal_plays(engine.board, engine.racks[engine.turn], engine.rules)
                        else {"action": "pass"})
                # Notes arrive in commit order: once the watched room has a turn, the
                # idle game's note before it has been handled too.
                await first.act(idle, idle.game.game.turn, {"action": "pass"})
                await first.act(watched, engine.turn, body)
                engine.play(Play.from_json(body["tiles"]) if "tiles" in body else Pass())
                await until(lambda: len(other.game.game.history) == len(engine.history))
            # The watched room followed the notes alone: no read of the store.
            assert loads == []
            assert other.game.game.board == engine.board and other.game.game.racks == engine.racks
            assert other.version == watched.version
            last = json.loads(seen[-1])["update"]
            assert last["version"] == watched.version and last["you"] == 1
            assert last["rack"] == [str(t) for t in engine.racks[1]]
            # The room nobody here listens to was only marked stale ...
            assert quiet.stale and quiet.game.game.history == [] and loads == []
            # ... and is brought up to date when next touched.
            assert await second.get(idle.id) is quiet
            assert not quiet.stale and len(quiet.game.game.history) == 4 and loads == [idle.id]
            assert quiet.game.game.racks == idle.game.game.racks and quiet.version == idle.version

    asyncio.run(scenario())


def test_a_batch_is_stored_in_one_statement_and_each_game_is_noted_once(
        postgres_url: str) -> None:
    import psycopg
    from sqlalchemy.exc import IntegrityError

    from kingscrib.web.db.storage import CHANNEL, StoredSeat, TurnWrite

    store = Store(postgres_url)
    seats = [StoredSeat(0, "a", "human", None, None), StoredSeat(1, "b", "human", None, None)]
    ids = [f"batch{i}" for i in range(3)]
    for gid in ids:
        store.create_game(gid, {}, SEED, "x" * 64, seats)
    with psycopg.connect(postgres_url, autocommit=True) as listener:
        listener.execute(f"LISTEN {CHANNEL}")
        results = store.write_batch([
            TurnWrite(ids[0], 0, {"action": "pass", "player": 0}),
            TurnWrite(ids[1], 0, {"action": "pass", "player": 0}),
            TurnWrite(ids[1], 1, {"action": "pass", "player": 1}, over=True),
            TurnWrite(ids[2], 0, {"action": "pass", "player": 0}),
            TurnWrite(ids[2], 0, {"action": "pass", "player": 0, "joker": 1}, new=False)])
        assert results == [None] * 5
        notes = sorted(n.payload.split(" ", 1)[1] for n in listener.notifies(timeout=1,
                                                                                 stop_after=3))
        # A game with one new turn gets it in its note; any other change, a bare note.
        assert notes == [f'{ids[0]} 0 {{"action":"pass","player":0}}', ids[1], ids[2]]
        # A turn already stored fails alone; the rest of its batch is stored.
        results = store.write_batch([TurnWrite(ids[0], 0, {"action": "pass", "player": 1}),
                                     TurnWrite(ids[0], 1, {"action": "pass", "player": 1})])
        assert isinstance(results[0], IntegrityError) and results[1] is None
    loaded = [store.load(gid) for gid in ids]
    assert [len(g.turns) for g in loaded] == [2, 2, 1]
    assert loaded[0].turns[0] == {"action": "pass", "player": 0}
    assert [g.over for g in loaded] == [False, True, False]
    assert loaded[2].turns[0]["joker"] == 1
    store.close()


def test_a_classic_game_follows_the_notes_too(postgres_url: str) -> None:
    import asyncio

    from kingscrib.web.play.room import Listener

    async def scenario() -> None:
        async with two_hubs(postgres_url, listening=True) as (first, second, loads):
            room, _, _, _ = await first.create([{"kind": "human"}, {"kind": "human"}], {},
                                               seed=SEED, game="classic")
            other = await second.get(room.id)
            seen: list[str] = []

            async def send(message) -> None:
                seen.append(message)

            other.listeners.add(Listener(0, send))
            loads.clear()
            session = room.game
            for _ in range(5):  # both discards, then the first cards of the play
                seat = session.waiting()[0]
                can = session.private(seat)
                if can["can"]["discard"]:
                    body = {"action": "discard", "cards": can["hand"][:can["can"]["discard"]]}
                else:
                    body = {"action": "play", "card": can["can"]["play"][0]}
                await first.act(room, seat, body)
                await until(lambda: other.game.turn_count >= session.turn_count)
            assert loads == []
            assert other.game.public() == session.public() and other.version == room.version
            assert [other.game.private(s) for s in (0, 1)] == [session.private(s)
                                                               for s in (0, 1)]
            assert json.loads(seen[-1])["state"]["version"] == room.version

    asyncio.run(scenario())


def test_a_noted_turn_carries_the_clocks_and_a_resignation_reaches_the_other_process(
        postgres_url: str) -> None:
    import asyncio

    from kingscrib.web.play import clocks, endings
    from kingscrib.web.play.room import Listener

    async def scenario() -> None:
        async with two_hubs(postgres_url, listening=True) as (first, second, loads):
            room, _, _, invite = await first.create([{"kind": "human"}, {"kind": "human"}],
                                                    {}, seed=SEED, clock=(60, 0))
            other = await second.get(room.id)
            seen: list[dict] = []

            async def send(message) -> None:
                seen.append(json.loads(message if isinstance(message, str)
                                       else json.dumps(message)))

            other.listeners.add(Listener(1, send))
            assert other.clock is not None and other.clock.running == []
            await first.join(room, invite, 1, "b")  # the clocks start: read from the store
            await until(lambda: other.clock.running != [])
            assert other.clock.to_json() == room.clock.to_json()
            loads.clear()
            engine = room.game.game
            for _ in range(3):
                await asyncio.sleep(0.05)  # the mover's clock runs a little
                before = other.clock.to_json()
                mover = engine.turn
                plays = legal_plays(engine.board, engine.racks[mover], engine.rules)
                body = ({"action": "play", "tiles": plays[0].play.tiles_json()} if plays
                        else {"action": "pass"})
                await first.act(room, mover, body)
                await until(lambda: len(other.game.game.history) == len(engine.history))
                # The note brought the clocks as this turn charged them, not the old ones.
                assert other.clock.to_json() == room.clock.to_json() != before
                assert other.clock.remaining[mover] < 60
            assert loads == []  # the turns and their clocks came in the notes alone
            stored = first.store.load(room.id).clock  # the batch moved the row on too
            assert stored["turn"] == len(engine.history) and stored["result"] is None
            assert clocks.clock_from_row(stored).to_json() == room.clock.to_json()
            # A resignation is not a turn: the other process reads it from the store and
            # tells its sockets how the game ended.
            await endings.resign(first, room, engine.turn)
            await until(lambda: other.result is not None)
            assert other.result == room.result and loads == [room.id]
            ended = json.dumps({"result": room.result})[1:-1]
            await until(lambda: any(ended in json.dumps(m) for m in seen))

    asyncio.run(scenario())
