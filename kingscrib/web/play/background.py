"""Work nobody waits for (refreshes from the store, analyses, turn notices): kept so it is
not collected while it runs, and cancelled when the server stops."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable


class Background:
    """The tasks started in the background and not finished yet."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Future[None]] = set()

    def start(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def cancel_all(self) -> None:
        for task in list(self._tasks):
            task.cancel()
