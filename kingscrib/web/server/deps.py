"""What every domain's routes may ask of the app: the store, and calls in its thread.

The composition root (:mod:`kingscrib.web.app.factory`) provides the implementation (the
live game's Hub); a domain below the live game types its routes against
:class:`StoreCalls` only and so never imports the Hub.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from fastapi import Request
from starlette.datastructures import State

from kingscrib.web.db.storage import Store

T = TypeVar("T")


class StoreCalls(Protocol):
    """The store, and blocking store calls run in its thread (an unreachable database is
    a 503 saying what could not be done: kingscrib.web.server.outage)."""

    store: Store

    async def db_call(self, fn: Callable[..., T], *args: Any) -> T: ...


def provide_store_calls(state: State, calls: StoreCalls) -> None:
    """The composition root hands the app its store calls."""
    state.store_calls = calls


async def store_calls(request: Request) -> StoreCalls:
    """The app's store calls (a route's dependency)."""
    # async: FastAPI runs a plain function dependency in a worker thread, a thread hop
    # for every request
    calls: StoreCalls = request.app.state.store_calls
    return calls
