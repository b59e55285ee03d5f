"""Batched turn writes: turns arriving while a batch is being committed wait and go
together in the next transaction (group commit), each caller answered on its own."""

from __future__ import annotations

import asyncio
from typing import Protocol

from kingscrib.web.db.storage import TurnWrite
from kingscrib.web.play.db_thread import DbThread
from kingscrib.web.server import metrics


class TurnStore(Protocol):
    """Where the turns go (:meth:`kingscrib.web.db.storage.Store.write_batch`): one
    transaction a batch, each write's problem (or None) in order."""

    def write_batch(self, writes: list[TurnWrite]) -> list[Exception | None]: ...


class TurnWriter:
    """Stores turns through the store's thread, one transaction for all that wait."""

    def __init__(self, store: TurnStore, db: DbThread) -> None:
        self.store = store
        self.db = db
        self._writes: list[tuple[TurnWrite, asyncio.Future[None]]] = []
        self._flushing = False

    async def write(self, write: TurnWrite) -> None:
        """Store a turn; returns once it is committed (raises what refused it)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._writes.append((write, future))
        if not self._flushing:
            self._flushing = True
            asyncio.get_running_loop().create_task(self._flush())
        with metrics.queued("store"):
            await future

    async def _flush(self) -> None:
        try:
            while self._writes:
                batch, self._writes = self._writes, []
                results: list[Exception | None]
                try:
                    results = await self.db.call(self.store.write_batch, [w for w, _ in batch])
                except Exception as e:  # the executor itself failed
                    results = [e] * len(batch)
                for (_, future), problem in zip(batch, results):
                    if future.done():
                        continue
                    if problem is None:
                        future.set_result(None)
                    else:
                        future.set_exception(problem)
        finally:
            self._flushing = False
