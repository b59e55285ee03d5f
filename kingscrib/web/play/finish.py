"""Clocks and early endings of a live game: whose clock runs, charging a turn's time,
resigning, running out of time. Game-independent: a game's own consequences (who wins
when someone resigns or runs out of time, overtime penalties) come from its module's
``early_result`` in :mod:`kingscrib.web.play.games`.

The stored ``clocks`` row of a game (:mod:`kingscrib.web.db.storage`) is updated in the
same transaction as each turn, on the condition that it still counts the turns this
process knows: a turn, a resignation or a time-out stored first by another process wins,
and the loser is brought up to date.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from kingscrib.web.errors import WebError
from kingscrib.web.play.clocks import Clock

log = logging.getLogger("kingscrib.web")

RESIGNED, TIME, OVERTIME = "resigned", "time", "overtime"


def game_over(room: Any) -> bool:
    """The game ended by its rules (not counting a resignation or time-out)."""
    return room.game.over


def ended(room: Any) -> bool:
    """Nothing more can be played: over by the rules, resigned, timed out or closed."""
    return game_over(room) or room.result is not None or room.closed


def turns_stored(room: Any) -> int:
    return room.game.turn_count


def clock_running(room: Any) -> list[int]:
    """The seats whose clocks run now: those the game waits for, once every person's
    seat is taken, until the game ends."""
    if ended(room) or any(not s.taken for s in room.seats):
        return []
    return list(room.game.waiting())


def clock_columns(clock: Clock | None, result: dict[str, Any] | None = None
                  ) -> dict[str, Any]:
    """The ``clocks`` row's columns for this clock (and the game's early result)."""
    row: dict[str, Any] = {"result": result}
    if clock is not None:
        row.update(seconds=clock.seconds, overtime=clock.overtime,
                   remaining=list(clock.remaining), running=list(clock.running),
                   started=clock.started, due=clock.due(), per_move=clock.per_move)
    return row


def clock_from_row(row: dict[str, Any] | None) -> Clock | None:
    if row is None or row.get("seconds") is None:
        return None
    return Clock(int(row["seconds"]), int(row["overtime"] or 0),
                 [float(r) for r in row["remaining"]], float(row["started"] or 0.0),
                 [int(s) for s in row["running"] or []], bool(row.get("per_move")))


def _early_result(room: Any, reason: str, loser: int | None, penalties: list[int]
                  ) -> dict[str, Any]:
    """The game's own consequences (its kind's ``early_result``); a game that names none:
    whoever resigned or ran out of time loses, everyone else wins."""
    from kingscrib.web.play.games import game_kind

    decide = getattr(game_kind(room.kind), "early_result", None)
    if decide is not None:
        return decide(room.game, reason, loser, penalties)
    others = [s.seat for s in room.seats if s.seat != loser]
    return {"reason": reason, "seat": loser, "winners": others,
            "losers": [] if loser is None else [loser], "scores": [],
            "time_penalties": list(penalties)}


def _penalties(room: Any, clock: Clock | None, now: float) -> list[int]:
    from kingscrib.web.play.games import game_kind

    if clock is None or not getattr(game_kind(room.kind), "overtime", False) \
            or not clock.overtime:
        return [0] * len(room.seats)
    return clock.penalties(now)


def turn_clock(room: Any, now: float) -> tuple[Clock | None, dict[str, Any] | None]:
    """After a turn was applied (not yet stored): the clocks charged and restarted for
    the seats the game now waits for, and, when the turn ended the game with overtime
    used (Kings Cribbage), the result with the overtime penalties."""
    if room.clock is None:
        return None, None
    clock = Clock.from_json(room.clock.to_json())
    clock.restart(now, clock_running(room))
    result = None
    if game_over(room):
        penalties = _penalties(room, clock, now)
        if any(penalties):
            result = _early_result(room, OVERTIME, None, penalties)
    return clock, result


def turn_row(room: Any, now: float) -> tuple[dict[str, Any] | None, Clock | None,
                                             dict[str, Any] | None]:
    """What a turn's write stores in the ``clocks`` row (None for a game stored before
    clocks), with the new clock and result to keep once it is stored."""
    if not room.guarded:
        return None, None, None
    clock, result = turn_clock(room, now)
    return clock_columns(clock, result), clock, result


def start_clocks(room: Any, now: float) -> dict[str, Any] | None:
    """The last open seat was just taken: the clocks start (the row to store)."""
    if room.clock is None or room.clock.running:
        return None
    running = clock_running(room)
    if not running:
        return None
    clock = Clock.from_json(room.clock.to_json())
    clock.restart(now, running)
    return clock_columns(clock)


async def end_early(hub: Any, room: Any, reason: str, seat: int) -> None:
    """Store and announce the end of a game by resignation or time (under the room's
    lock). Raises WebError and changes nothing when it is refused or beaten."""
    from kingscrib.web.db.storage import StaleGame

    if ended(room):
        raise WebError(409, "the game is over" if not room.closed else
                       "this game was closed after being left untouched")
    now = time.time()
    clock = None
    if room.clock is not None:
        clock = Clock.from_json(room.clock.to_json())
        clock.restart(now, [])
    result = _early_result(room, reason, seat, _penalties(room, clock, now))
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


async def resign(hub: Any, room: Any, seat: int | None) -> None:
    """A person resigns their seat: the game ends and their side loses."""
    if seat is None:
        raise WebError(403, "only a seated player can resign")
    if room.seats[seat].kind != "human":
        raise WebError(403, "a computer seat cannot resign")
    async with room.lock:
        await end_early(hub, room, RESIGNED, seat)
    await hub.broadcast(room)


async def check_clocks(hub: Any, now: float | None = None) -> list[str]:
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


def state_fields(room: Any) -> dict[str, Any]:
    """What every seat and spectator sees of the clocks and an early ending."""
    data: dict[str, Any] = {"clock": None if room.clock is None else room.clock.view(),
                            "result": room.result}
    if room.result is not None:
        data.update(over=True, turn=None)
    return data
