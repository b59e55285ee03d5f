"""The lobby's open seeks read afresh (after its listener connects again) keep the events
that came in while the store was read: a seek started meanwhile does not come back, one
posted meanwhile is not lost."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from kingscrib.web.lobby import seeks
from kingscrib.web.lobby.live import Lobby


def seek(seek_id: str) -> dict[str, Any]:
    return {"seek": {"id": seek_id, "quick": True, "game": "kings", "players": 2,
                     "clock_seconds": 600, "seats": [{"name": "Ann"}]}, "to": None}


class SlowStore:
    """A store whose reading of the open seeks is taken now and answered when released."""

    shared = False

    def __init__(self, open_now: list[dict[str, Any]]) -> None:
        self.open_now = open_now
        self.release = asyncio.Event()


def lobby_over(store: SlowStore) -> Lobby:
    async def db_call(fn: Any, *args: Any, thread: Any = None) -> Any:
        if fn is seeks.open_seeks:
            taken = list(store.open_now)  # the reading, as the store stood then
            await store.release.wait()
            return taken
        return []

    hub: Any = SimpleNamespace(store=store, db_call=db_call)
    return Lobby(hub)


def test_a_seek_started_while_the_seeks_are_read_does_not_come_back() -> None:
    async def run() -> dict[str, Any]:
        store = SlowStore([seek("ann")])
        lobby = lobby_over(store)
        lobby._apply({"type": "seek", **seek("ann")})
        reading = asyncio.ensure_future(lobby._read_all())
        await asyncio.sleep(0)  # the store read, with Ann's seek still open
        lobby._apply({"type": "started", "id": "ann", "game_id": "g1"})
        store.release.set()
        await reading
        return lobby.seeks

    assert asyncio.run(run()) == {}


def test_a_seek_posted_while_the_seeks_are_read_is_kept() -> None:
    async def run() -> list[dict[str, Any]]:
        store = SlowStore([])
        lobby = lobby_over(store)
        reading = asyncio.ensure_future(lobby._read_all())
        await asyncio.sleep(0)
        lobby._apply({"type": "seek", **seek("bob")})
        store.release.set()
        await reading
        return lobby.quick()

    assert asyncio.run(run()) == [{"game": "kings", "players": 2, "clock_seconds": 600,
                                   "waiting": 1}]
