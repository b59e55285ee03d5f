"""Limits per client address across server processes on one PostgreSQL: games created an
hour and open websockets are counted for all processes together, and each process
allows its share of the request rate."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from web_support import Server, fresh_database
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from kingscrib.web.db.storage import Store

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TWO = {"seats": [{"kind": "human"}, {"kind": "human"}]}
LIMITS = ["--limit", "games_per_hour=3", "--limit", "sockets_per_address=2",
          "--limit", "address_rate=0.1", "--limit", "address_burst=60"]


@pytest.fixture
def two_limited(postgres_url: str, tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    url = fresh_database(postgres_url, "limits")
    servers = [Server(url, data_dir=tmp_path, extra_args=LIMITS) for _ in range(2)]
    try:
        for s in servers:
            s.start()
        # The first process hears of the second at its next heartbeat (every 5 s).
        time.sleep(5)
        deadline = time.monotonic() + 15
        while any(httpx.get(f"{s.url}/api/health").json()["processes"] != 2 for s in servers):
            assert time.monotonic() < deadline, "the processes did not hear of each other"
            time.sleep(0.5)
        yield servers[0], servers[1]
    finally:
        for s in servers:
            s.stop()


def opened(server: Server, gid: str) -> tuple[object, dict]:
    """A websocket on ``server`` and the first thing it was told (welcome, or why not)."""
    ws = connect(f"ws://127.0.0.1:{server.port}/api/games/{gid}/ws")
    try:
        ws.send(json.dumps({"type": "hello"}))
        return ws, json.loads(ws.recv(5))
    except ConnectionClosed as e:
        return ws, {"closed": e.rcvd.code, "reason": e.rcvd.reason}


def test_games_sockets_and_requests_are_limited_for_all_processes_together(
        two_limited: tuple[Server, Server]) -> None:
    a, b = two_limited
    assert [httpx.get(f"{s.url}/api/health").json()["processes"] for s in (a, b)] == [2, 2]
    # Games an hour: 3 for the address, whichever process it asks.
    created = [httpx.post(f"{s.url}/api/games", json=TWO) for s in (a, b, a)]
    assert [r.status_code for r in created] == [201, 201, 201]
    for s in (a, b):
        r = httpx.post(f"{s.url}/api/games", json=TWO)
        assert r.status_code == 429 and "too many games" in r.json()["error"]
    gid = created[1].json()["game_id"]
    # Open websockets: 2 for the address, one on each process; a third is refused on both.
    first, hi = opened(a, gid)
    second, hi2 = opened(b, gid)
    assert hi["type"] == hi2["type"] == "welcome"
    for s in (a, b):
        ws, refused = opened(s, gid)
        assert refused == {"closed": 1008, "reason": "too many open websockets from your address"}
        ws.close()
    second.close()  # a closed socket frees its place, for the other process too
    deadline = time.monotonic() + 5
    while True:
        third, hi3 = opened(a, gid)
        if hi3.get("type") == "welcome":
            break
        third.close()
        assert time.monotonic() < deadline, hi3
        time.sleep(0.1)
    third.close()
    first.close()
    # Requests: each process allows half the address's burst of 60 (the rate refills 0.1
    # a second), so the address gets at most 60 in all, not 60 from each process.
    done = {s.port: [httpx.get(f"{s.url}/api/levels").status_code for _ in range(40)]
            for s in (a, b)}
    allowed = [codes.count(200) for codes in done.values()]
    assert all(5 <= n <= 30 for n in allowed), done
    assert sum(allowed) <= 60


def test_a_silent_process_stops_counting_and_the_beat_counts_processes(
        postgres_url: str) -> None:
    url = fresh_database(postgres_url, "beats")
    first, second = Store(url), Store(url)
    try:
        now = time.time()
        assert first.heartbeat(now, 15) == 1
        assert second.heartbeat(now, 15) == 2
        assert [first.open_socket("10.0.0.1", 2) for _ in range(2)] == [True, True]
        assert not second.open_socket("10.0.0.1", 2)
        assert second.open_socket("10.0.0.2", 2)  # another address has its own count
        # The first process is killed: it stops beating, and after 15 s its sockets go.
        assert second.heartbeat(now + 16, 15) == 1
        assert second.open_socket("10.0.0.1", 2)
        # Games an hour: an hour later the old ones no longer count.
        assert [second.allow_game("10.0.0.1", 2, now) for _ in range(3)] == [True, True, False]
        assert second.allow_game("10.0.0.1", 2, now + 3601)
        second.leave()
        assert first.heartbeat(now + 17, 15) == 1
    finally:
        first.close()
        second.close()


def test_a_game_given_back_no_longer_counts(postgres_url: str) -> None:
    url = fresh_database(postgres_url, "given_back")
    store = Store(url)
    try:
        now = time.time()
        assert [store.allow_game("10.0.0.1", 2, now) for _ in range(3)] == [True, True, False]
        store.give_back_game("10.0.0.1")
        store.give_back_game("10.0.0.2")  # nothing counted for it: nothing changes
        assert store.allow_game("10.0.0.1", 2, now)
        assert not store.allow_game("10.0.0.1", 2, now)
        assert store.allow_game("10.0.0.2", 2, now)
    finally:
        store.close()
