"""Computer seats: scheduled when the game waits for them, they act one at a time at the
server's pace; each thinks in a worker (thread, or process for games of computers only)
from what its seat may know, queued fairly between addresses and games
(:mod:`kingscrib.web.play.work`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Protocol

from kingscrib.web.errors import WebError
from kingscrib.web.play import views
from kingscrib.web.play.room import COMPUTER, Room
from kingscrib.web.play.work import Work
from kingscrib.web.server import metrics

log = logging.getLogger("kingscrib.web")


class Mover(Protocol):
    """What the computers need of the hub: to apply an action as any seat's, and to tell
    the turn watchers who was waited for before it."""

    async def apply_action(self, room: Room, seat: int, message: dict[str, Any]) -> None: ...

    def turned(self, room: Room, before: set[int]) -> None: ...


def computer_move(act: Callable[..., Any], seat: int, player: Any, known: Any
                  ) -> tuple[dict[str, Any], Any]:
    """A computer seat's action and its player as it is after choosing."""
    return act(seat, player, known), player


class Computers:
    """Schedules the computer seats of every room."""

    def __init__(self, work: Work, mover: Mover, delay: float, computers_only_delay: float
                 ) -> None:
        self.work = work
        self.mover = mover
        self.delay = delay  # seconds before a computer moves (for people to see)
        self.computers_only_delay = computers_only_delay  # in a game of computers only

    def kick(self, room: Room) -> None:
        """Start the room's computer seats when the game waits for one of them."""
        if room.closed or room.result is not None:
            return
        if not any(room.seats[s].kind == COMPUTER for s in room.game.waiting()):
            return
        if room.computer_task is None or room.computer_task.done():
            room.computer_task = asyncio.get_running_loop().create_task(self.play(room))

    async def play(self, room: Room) -> None:
        """Computer seats act, one at a time, at the server's pace; each thinks in a worker
        thread from what its seat may know, taken on the event loop."""
        while True:
            session = room.game
            seats = [s for s in session.waiting() if room.seats[s].kind == COMPUTER]
            if session.over or not seats:
                return
            delay = self.delay if room.people else self.computers_only_delay
            if delay:
                await asyncio.sleep(delay)
            version, seat = room.version, room.seats[seats[0]]
            known = session.computer_input(seat.seat)
            try:
                # Games of computers only think in another process: the player (and its
                # generator's state) comes back with the action.
                with metrics.queued("computer"):
                    action, seat.player = await self.work.move(
                        computer_move, session.computer_action, seat.seat, seat.player,
                        known, address=room.work_key, game=room.id, people=room.people > 0)
            except Exception:
                log.exception("computer seat %d of %s failed", seat.seat, room.id)
                return
            async with room.lock:
                if room.result is not None:
                    return
                if room.version != version or room.game is not session:
                    continue  # the game moved on meanwhile: think again
                before = set(session.waiting())
                try:
                    await self.mover.apply_action(room, seat.seat, action)
                except WebError as e:
                    log.error("computer seat %d of %s: %s", seat.seat, room.id, e.message)
                    return
            await views.broadcast(room)
            self.mover.turned(room, before)
