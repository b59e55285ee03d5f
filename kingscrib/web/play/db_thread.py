"""The store's thread: blocking store calls run one after another off the event loop, and
an unreachable database is a 503 saying what could not be done
(:mod:`kingscrib.web.server.outage`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any, TypeVar

from kingscrib.web.server.outage import database_down, unavailable

log = logging.getLogger("kingscrib.web")
T = TypeVar("T")


class DbThread:
    """One worker thread for the store's calls (SQLite and the turn batches want them in
    order), and the mapping of an unreachable database to a readable refusal."""

    def __init__(self) -> None:
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="kingscrib-db")

    async def call(self, fn: Callable[..., T], *args: Any,
                   thread: Executor | None = None) -> T:
        """``fn(*args)`` in the store's thread (or ``thread``); an unreachable database is a
        503 saying what could not be done."""
        try:
            return await asyncio.get_running_loop().run_in_executor(thread or self._thread, fn,
                                                                    *args)
        except Exception as e:
            if not database_down(e):
                raise
            log.warning("database unreachable (%s): %s", getattr(fn, "__name__", fn),
                        str(e).splitlines()[0] if str(e) else type(e).__name__)
            raise unavailable(fn) from None

    def shutdown(self) -> None:
        self._thread.shutdown(wait=True)
