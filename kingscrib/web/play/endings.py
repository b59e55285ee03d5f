"""Ending a live game early, as the hub does it: a resignation, or the housekeeping's
time-outs. The rules of clocks and early endings are :mod:`kingscrib.web.play.finish`'s."""

from __future__ import annotations

import logging
import time

from kingscrib.web.db.storage import StaleGame
from kingscrib.web.errors import WebError
from kingscrib.web.play.clocks import Clock, clock_columns
from kingscrib.web.play.finish import (
    RESIGNED,
    TIME,
    early_result,
    ended,
    overtime_penalties,
    turns_stored,
)
from kingscrib.web.play.room import Room
from kingscrib.web.play.rooms import Hub

log = logging.getLogger("kingscrib.web")


async def end_early(hub: Hub, room: Room, reason: str, seat: int) -> None:
    """Store and announce the end of a game by resignation or time (under the room's
    lock). Raises WebError and changes nothing when it is refused or beaten."""
    if ended(room):
        raise WebError(409, "the game is over" if not room.closed else
                       "this game was closed after being left untouched")
    now = time.time()
    clock = None
    if room.clock is not None:
        clock = Clock.from_json(room.clock.to_json())
        due = clock.due()
        if reason == TIME and due is not None:
            # the clocks stop when the flag fell, not when housekeeping noticed it: a
            # late look must not charge more overtime (a penalty per started minute)
            now = min(now, due)
        clock.restart(now, [])
    result = early_result(room, reason, seat, overtime_penalties(room, clock, now))
    try:
        await hub.db_call(hub.store.finish, room.id, turns_stored(room),
                           clock_columns(clock, result))
    except StaleGame:
        hub.sync.noted(room.id)
        raise WebError(409, "another move was made first (through another server); the game"
                            " is brought up to date") from None
    room.clock, room.result = clock, result
    room.version += 1
    room.game.forget_views()
    if room.computer_task:
        room.computer_task.cancel()
    await hub.ended(room)


async def resign(hub: Hub, room: Room, seat: int | None) -> None:
    """A person resigns their seat: the game ends and their side loses."""
    if seat is None:
        raise WebError(403, "only a seated player can resign")
    if room.seats[seat].kind != "human":
        raise WebError(403, "a computer seat cannot resign")
    async with room.lock:
        await end_early(hub, room, RESIGNED, seat)
    await hub.broadcast(room)


async def check_clocks(hub: Hub, now: float | None = None) -> list[str]:
    """Housekeeping: end every game whose running clock ran out (one indexed query; the
    rooms are loaded only for those games). Returns the ids ended."""
    now = time.time() if now is None else now
    done = []
    for game_id in await hub.db_call(hub.store.due_clocks, now):
        try:
            room = await hub.get(game_id)
        except WebError:
            continue
        async with room.lock:
            seat = room.clock.flagged(time.time()) if room.clock and not ended(room) else None
            if seat is None:
                continue
            try:
                await end_early(hub, room, TIME, seat)
            except WebError as e:
                log.info("time-out of %s not stored: %s", game_id, e.message)
                continue
        await hub.broadcast(room)
        done.append(game_id)
    return done
