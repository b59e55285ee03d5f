"""The lobby over two ``kingscrib serve`` processes on one PostgreSQL: a seek posted
through one is seen live and accepted through the other, both seats land in one game,
and both processes count the same people online."""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Iterator

import httpx
import pytest
from web_support import Server, auth, running_servers
from websockets.sync.client import connect

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def two_servers(postgres_url: str, tmp_path) -> Iterator[tuple[Server, Server]]:
    with running_servers(postgres_url, 2, data_dir=tmp_path) as servers:
        yield servers[0], servers[1]


def live(server: Server, visitor: str):
    ws = connect(f"ws://127.0.0.1:{server.port}/api/lobby/live")
    ws.send(json.dumps({"type": "hello", "visitor": visitor}))
    assert next_message(ws, 5)["type"] == "lobby"
    return ws


def next_message(ws, limit: float) -> dict:
    """The next message on a live socket (a frame holds one, or an array of several)."""
    waiting = ws.__dict__.setdefault("waiting", [])
    while not waiting:
        frame = json.loads(ws.recv(timeout=limit))
        waiting.extend(frame if isinstance(frame, list) else [frame])
    message = waiting.pop(0)
    # the counts, as first shown or changed (a seek posted and taken within one tick of
    # the lobby's changes brings no count message at all)
    if message["type"] in ("quick", "lobby"):
        ws.__dict__["last_quick"] = message["quick"]
    return message


def quick_becomes(ws, expected: list) -> None:
    """The socket's play-now counts reach ``expected``, whether that message came before
    or after the ones a test waited for."""
    if ws.__dict__.get("last_quick") != expected:  # another process's change may take
        until(ws, "quick", lambda m: m["quick"] == expected, limit=20.0)  # a while


def until(ws, kind: str, check=lambda m: True, limit: float = 10.0) -> dict:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        message = next_message(ws, max(0.01, deadline - time.monotonic()))
        if message["type"] == kind and check(message):
            return message
    raise AssertionError(f"no {kind} message in time")


def test_a_seek_posted_on_one_process_is_accepted_on_the_other(two_servers) -> None:
    a, b = two_servers
    ann, bob = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
    ann_ws, bob_ws = live(a, ann), live(b, bob)
    try:
        posted = httpx.post(f"{a.url}/api/lobby/seeks", headers={"X-Lobby-Visitor": ann},
                            json={"name": "Ann", "game": "classic", "players": 2})
        assert posted.status_code == 201, posted.text
        seek_id = posted.json()["seek"]["id"]
        seen = until(bob_ws, "seek")["seek"]
        assert seen["id"] == seek_id and seen["seats"] == [{"name": "Ann", "account": False}]
        assert [s["id"] for s in httpx.get(f"{b.url}/api/lobby").json()["seeks"]] == [seek_id]
        accepted = httpx.post(f"{b.url}/api/lobby/seeks/{seek_id}/accept",
                              headers={"X-Lobby-Visitor": bob}, json={"name": "Bob"})
        assert accepted.status_code == 200, accepted.text
        game_id = accepted.json()["game_id"]
        assert until(ann_ws, "started") == {"type": "started", "id": seek_id,
                                            "game_id": game_id}
        mine = httpx.get(f"{a.url}/api/games/{game_id}", headers=auth(posted.json()["ticket"]))
        theirs = httpx.get(f"{a.url}/api/games/{game_id}",
                           headers=auth(accepted.json()["ticket"]))
        assert (mine.json()["you"], theirs.json()["you"]) == (0, 1)
        assert [s["name"] for s in mine.json()["seats"]] == ["Ann", "Bob"]
        again = httpx.post(f"{a.url}/api/lobby/seeks/{seek_id}/accept",
                           headers={"X-Lobby-Visitor": secrets.token_urlsafe(16)},
                           json={"name": "Cid"})
        assert again.status_code == 409
    finally:
        ann_ws.close()
        bob_ws.close()


def test_both_processes_count_the_same_people_online(two_servers) -> None:
    a, b = two_servers
    sockets = [live(a, secrets.token_urlsafe(16)) for _ in range(2)]
    sockets.append(live(b, secrets.token_urlsafe(16)))
    try:
        for ws in sockets:
            until(ws, "online", lambda m: m["count"] == 3)
        sockets.pop().close()
        for ws in sockets:
            until(ws, "online", lambda m: m["count"] == 2)
        counts = {httpx.get(f"{s.url}/api/lobby").json()["online"] for s in (a, b)}
        assert counts == {2}
    finally:
        for ws in sockets:
            ws.close()


def test_play_now_waiting_on_one_process_is_counted_and_paired_on_the_other(
        two_servers) -> None:
    a, b = two_servers
    ann, bob = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
    ann_ws, bob_ws = live(a, ann), live(b, bob)
    try:
        wish = {"game": "kings", "players": 2, "clock_seconds": 600}
        waiting = httpx.post(f"{a.url}/api/lobby/play-now", headers={"X-Lobby-Visitor": ann},
                             json={"name": "Ann", **wish})
        assert waiting.status_code == 200 and waiting.json()["game_id"] is None
        seek_id = waiting.json()["seek"]["id"]
        counted = [{**wish, "waiting": 1}]
        until(bob_ws, "quick", lambda m: m["quick"] == counted)
        look = httpx.get(f"{b.url}/api/lobby", headers={"X-Lobby-Visitor": bob}).json()
        assert look["quick"] == counted and look["seeks"] == []  # not her seek itself
        paired = httpx.post(f"{b.url}/api/lobby/play-now", headers={"X-Lobby-Visitor": bob},
                            json={"name": "Bob", **wish})
        game_id = paired.json()["game_id"]
        assert game_id is not None
        assert until(ann_ws, "started") == {"type": "started", "id": seek_id,
                                            "game_id": game_id}
        for ws in (ann_ws, bob_ws):
            quick_becomes(ws, [])
    finally:
        ann_ws.close()
        bob_ws.close()


def test_seeks_sent_at_once_from_one_address_stop_at_its_limit(postgres_url: str  # noqa: F811
                                                                ) -> None:
    """Many browsers of one address post at once, through their own connections (as
    several server processes would): no more seeks wait than the address may hold."""
    from concurrent.futures import ThreadPoolExecutor
    from threading import Barrier

    from kingscrib.web.db.storage import Store, hash_secret
    from kingscrib.web.errors import WebError
    from kingscrib.web.lobby import seeks

    stores = [Store(postgres_url) for _ in range(4)]
    try:
        for trial in range(6):
            address = hash_secret(f"address {trial} {secrets.token_hex(4)}")
            people = [seeks.Person(f"G{i}", None, hash_secret(f"browser {trial} {i}"),
                                   address, 2) for i in range(12)]
            start = Barrier(len(people))

            def post(i: int, people=people, start=start) -> bool:
                who = people[i]
                wish = seeks.check_wish("classic", 2, {}, False, 300, None, False, None,
                                        None, who)
                start.wait()
                try:
                    seeks.post(stores[i % len(stores)], wish, who)
                except WebError as e:
                    assert e.status == 429, e
                    return False
                return True

            with ThreadPoolExecutor(len(people)) as pool:
                posted = sum(pool.map(post, range(len(people))))
            assert posted == 2, f"trial {trial}: {posted} seeks from one address"
    finally:
        for store in stores:
            store.close()
