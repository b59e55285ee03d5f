"""Who gets the Argon2 workers next: a flood of log-ins cannot starve a real one.

Argon2 takes 64 MiB and the cores for a while on purpose, so only :data:`AT_ONCE` hashes
run at once (in threads: never the event loop's or the store's), and the others wait
their turn. Two rules keep that queue fair:

- an address has at most :data:`PER_ADDRESS` attempt waiting or running; one more is
  refused at once (429), before any work, so that a flood from a few addresses queues
  one attempt per address, not hundreds;
- the waiting attempts go in order of the failed attempts their address has in the
  limits' window (those being checked included), and among equals the latest first
  (LIFO, as queues under overload do): a person with no failed log-ins goes before the
  guesses of an address that has failed already, and before the first guesses of a
  flood that came in line ahead of them, so they wait for the hashes running only.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import os
import weakref
from collections import Counter
from collections.abc import Callable
from typing import TypeVar

from kingscrib.web.errors import WebError

T = TypeVar("T")

# Argon2 hashes computed at once: argon2-cffi's hash runs 4 lanes (threads) and 64 MiB,
# so a second one at once on a machine of 2 cores only halves the speed of both.
AT_ONCE = max(1, min(4, (os.cpu_count() or 1) // 4))
PER_ADDRESS = 1  # attempts of one address waiting or hashing at once
BUSY = "a log-in from your address is already being checked: wait for its answer"


class HashGate:
    """The queue for the hashing workers of one event loop."""

    def __init__(self, at_once: int | None = None, per_address: int | None = None) -> None:
        self.free = AT_ONCE if at_once is None else at_once
        self.per_address = PER_ADDRESS if per_address is None else per_address
        self.inside: Counter[str] = Counter()  # attempts per address, waiting or hashing
        self.waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def enter(self, address: str) -> None:
        """Count an attempt of ``address`` in; WebError(429) when it has enough already."""
        if self.inside[address] >= self.per_address:
            raise WebError(429, BUSY)
        self.inside[address] += 1

    def leave(self, address: str) -> None:
        self.inside[address] -= 1
        if self.inside[address] <= 0:
            del self.inside[address]

    async def run(self, priority: int, fn: Callable[..., T], *args: object) -> T:
        """``fn(*args)`` in a worker thread when a worker is free and no attempt of a lower
        ``priority`` (fewer failures) waits; among equals the latest goes first."""
        if self.free > 0 and not self.waiting:
            self.free -= 1
        else:
            turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            heapq.heappush(self.waiting, (priority, -next(self._order), turn))
            try:
                await turn
            except asyncio.CancelledError:
                if turn.done() and not turn.cancelled():
                    self._next()  # it was handed a worker it will not use
                raise
        try:
            return await asyncio.to_thread(fn, *args)
        finally:
            self._next()

    def _next(self) -> None:
        """A worker is free: hand it to the first attempt still waiting."""
        while self.waiting:
            _, _, turn = heapq.heappop(self.waiting)
            if not turn.done():
                turn.set_result(None)
                return
        self.free += 1


_GATES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, HashGate] = \
    weakref.WeakKeyDictionary()


def gate() -> HashGate:
    """The running event loop's gate (a server has one loop; tests start several)."""
    loop = asyncio.get_running_loop()
    found = _GATES.get(loop)
    if found is None:
        found = _GATES[loop] = HashGate()
    return found
