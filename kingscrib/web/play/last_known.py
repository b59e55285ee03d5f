"""The database's last answers, for the moments it cannot be reached.

Whose account a seat belongs to is asked of the database on every request that uses a
seat token (so that a sign-up or an account deleted on another process counts at once).
While the database is down, the answer it last gave this process stands instead, so a
game held in memory stays visible to its players; their moves still get their own 503
(nothing can be stored). A question never answered before gets the 503.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Protocol, TypeVar

from kingscrib.web.accounts import store as accounts
from kingscrib.web.db.storage import Store
from kingscrib.web.errors import WebError

KEPT = 20_000  # answers kept (the oldest go first)


T = TypeVar("T")


class StoreCalls(Protocol):
    """What the last answers need of the hub: its store, calls in the store's thread, and
    where it keeps the last answers."""

    store: Store
    last_known: LastKnown

    async def db_call(self, fn: Callable[..., T], *args: Any) -> T: ...


class LastKnown:
    def __init__(self, kept: int = KEPT) -> None:
        self._answers: OrderedDict[Hashable, Any] = OrderedDict()
        self._kept = kept

    async def ask(self, hub: StoreCalls, key: Hashable, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` through the hub's store thread; its last answer for ``key`` when
        the database cannot be reached (the 503 when there is none)."""
        try:
            answer = await hub.db_call(fn, *args)
        except WebError as e:
            if e.status != 503 or key not in self._answers:
                raise
            kept: T = self._answers[key]
            return kept
        self.remember(key, answer)
        return answer

    def remember(self, key: Hashable, answer: Any) -> None:
        self._answers[key] = answer
        self._answers.move_to_end(key)
        while len(self._answers) > self._kept:
            self._answers.popitem(last=False)


async def seat_owners(hub: StoreCalls, game_id: str) -> dict[str, int | None]:
    """The accounts owning the game's seats (kingscrib.web.accounts.store.seat_owners), asked
    when a game is loaded or a seat is taken and on every use of a seat token."""
    return await hub.last_known.ask(hub, ("seat owners", game_id), accounts.seat_owners,
                                    hub.store.engine, game_id)


def no_seat_owners(hub: StoreCalls, game_id: str) -> None:
    """A game just created: no seat of it belongs to an account yet."""
    hub.last_known.remember(("seat owners", game_id), {})
