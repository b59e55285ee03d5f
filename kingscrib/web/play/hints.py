"""Hints and previews of a seat's move. Hints have a thread of their own, and each client
waits for its previous hint: a client asking for many cannot delay computer seats or
other clients' hints."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from kingscrib.web.errors import WebError
from kingscrib.web.play.room import Room, refuse_closed
from kingscrib.web.server import metrics


def preview(room: Room, seat: int | None, move: Any) -> dict[str, Any]:
    """What a move would score now (from the seat's own hand), or why it is illegal;
    for games that offer previews."""
    if seat is None:
        raise WebError(403, "spectators have no rack to play from")
    session = room.game
    if "preview" not in session.offers:
        raise session.refusal("preview")
    return session.preview(seat, move, room.hints_on)


class Hints:
    """The hint thread and each client's queue of hints (at most ``waiting`` each)."""

    def __init__(self, waiting: int = 4) -> None:
        self.waiting = waiting
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="kingscrib-hint")
        self._queues: dict[str, tuple[asyncio.Lock, list[int]]] = {}

    async def hint(self, room: Room, seat: int | None, client: str = "?") -> dict[str, Any]:
        """The seat's best options (or advice when there is none), for games that offer
        hints. ``client``: the caller's address; its hints are computed one after another."""
        if seat is None:
            raise WebError(403, "spectators have no rack")
        session = room.game
        if "hint" not in session.offers:
            raise session.refusal("hint")
        if not room.hints_on:
            raise WebError(403, "hints are off in a game between people (it was not created"
                                " with hints allowed)")
        refuse_closed(room)
        inputs = session.hint_inputs(seat)  # WebError when the seat may not have one now
        key = (room.version, seat)
        if key in room.hint_cache:
            return room.hint_cache[key]
        lock, waiting = self._queues.setdefault(client, (asyncio.Lock(), [0]))
        if waiting[0] >= self.waiting:
            metrics.refused("hints_waiting")
            raise WebError(429, f"{waiting[0]} hints asked for are still being worked out;"
                                " wait for them")
        waiting[0] += 1
        try:
            with metrics.queued("hint"):
                async with lock:
                    result: dict[str, Any] = await asyncio.get_running_loop().run_in_executor(
                        self._pool, session.hint_from, inputs)
        finally:
            waiting[0] -= 1
            if not waiting[0]:
                self._queues.pop(client, None)
        room.hint_cache = {key: result}
        return result

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
