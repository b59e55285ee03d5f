"""Limits counted for all server processes on one PostgreSQL.

Each process counts the websockets it holds per client address in the database, and
records each game created; a check and its count are one transaction holding an
advisory lock on the address, so two processes cannot both let in the last one.
Each process beats every few seconds: the websockets of a process gone silent (killed)
stop counting after three beats, and the number of live processes sets each one's
share of the request rate (see :meth:`AddressLimits.share_rate`).

The request rate is not counted in the database: a write per request would cost more
than most requests, and with the rate divided by the number of processes an address
spread over them by the balancer gets the limit in total (one kept on a single process
by a sticky balancer gets that process's share: stricter, never looser).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from kingscrib.web.db.storage import Store
from kingscrib.web.server.limits import AddressLimits
from kingscrib.web.server.outage import reported

log = logging.getLogger("kingscrib.web")

T = TypeVar("T")


class Run(Protocol):
    """Runs a store call off the event loop (the hub's ``db_call``)."""

    async def __call__(self, fn: Callable[..., T], *args: Any) -> T: ...


class SharedLimits:
    """:class:`kingscrib.web.server.limits.SharedCounts` in the database of ``store``."""

    def __init__(self, store: Store, run: Run, limits: AddressLimits,
                 beat_every: float = 5.0) -> None:
        self.store, self.run, self.limits = store, run, limits
        self.beat_every = beat_every

    async def open_socket(self, address: str) -> bool:
        return await self.run(self.store.open_socket, address,
                              self.limits.settings.sockets_per_address)

    async def close_socket(self, address: str) -> None:
        try:
            await self.run(self.store.close_socket, address)
        except Exception as e:  # the count goes when this process stops beating
            if not reported(e):
                log.exception("could not count a closed websocket")

    async def allow_game(self, address: str) -> bool:
        return await self.run(self.store.allow_game, address,
                              self.limits.settings.games_per_hour, time.time())

    async def give_back_game(self, address: str) -> None:
        await self.run(self.store.give_back_game, address)

    async def beat(self) -> int:
        """Say this process is alive; take this process's share of the request rate."""
        live = await self.run(self.store.heartbeat, time.time(), 3 * self.beat_every)
        self.limits.share_rate(live)
        return live

    async def keep_beating(self) -> None:
        while True:
            await asyncio.sleep(self.beat_every)
            try:
                await self.beat()
            except Exception as e:
                if not reported(e):
                    log.exception("heartbeat failed")

    async def leave(self) -> None:
        with contextlib.suppress(Exception):
            await self.run(self.store.leave)


def share_limits(store: Store, run: Run, limits: AddressLimits,
                 beat_every: float = 5.0) -> SharedLimits | None:
    """Shared limits when the store is shared by processes (PostgreSQL), else None."""
    if not store.shared:
        return None
    shared = SharedLimits(store, run, limits, beat_every)
    limits.shared = shared
    return shared
