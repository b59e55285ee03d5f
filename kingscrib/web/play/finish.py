"""Clocks and early endings of a live game: whose clock runs, charging a turn's time,
and what ends a game early: resigning, running out of time (the hub-level steps that
store and announce an ending are in :mod:`kingscrib.web.play.endings`). Game-independent: a game's own consequences (who wins
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

from kingscrib.web.play.clocks import Clock, clock_columns
from kingscrib.web.play.games import game_kind
from kingscrib.web.play.room import Room

log = logging.getLogger("kingscrib.web")

RESIGNED, TIME, OVERTIME = "resigned", "time", "overtime"


def game_over(room: Room) -> bool:
    """The game ended by its rules (not counting a resignation or time-out)."""
    return room.game.over


def ended(room: Room) -> bool:
    """Nothing more can be played: over by the rules, resigned, timed out or closed."""
    return game_over(room) or room.result is not None or room.closed


def turns_stored(room: Room) -> int:
    return room.game.turn_count


def clock_running(room: Room) -> list[int]:
    """The seats whose clocks run now: those the game waits for, once every person's
    seat is taken, until the game ends."""
    if ended(room) or any(not s.taken for s in room.seats):
        return []
    return list(room.game.waiting())


def early_result(room: Room, reason: str, loser: int | None, penalties: list[int]
                  ) -> dict[str, Any]:
    """The game's own consequences (its kind's ``early_result``); a game that names none:
    whoever resigned or ran out of time loses, everyone else wins."""
    decide = getattr(game_kind(room.kind), "early_result", None)
    if decide is not None:
        decided: dict[str, Any] = decide(room.game, reason, loser, penalties)
        return decided
    others = [s.seat for s in room.seats if s.seat != loser]
    return {"reason": reason, "seat": loser, "winners": others,
            "losers": [] if loser is None else [loser], "scores": [],
            "time_penalties": list(penalties)}


def overtime_penalties(room: Room, clock: Clock | None, now: float) -> list[int]:
    if clock is None or not getattr(game_kind(room.kind), "overtime", False) \
            or not clock.overtime:
        return [0] * len(room.seats)
    return clock.penalties(now)


def turn_clock(room: Room, now: float) -> tuple[Clock | None, dict[str, Any] | None]:
    """After a turn was applied (not yet stored): the clocks charged and restarted for
    the seats the game now waits for, and, when the turn ended the game with overtime
    used (Kings Cribbage), the result with the overtime penalties."""
    if room.clock is None:
        return None, None
    clock = Clock.from_json(room.clock.to_json())
    clock.restart(now, clock_running(room))
    result = None
    if game_over(room):
        penalties = overtime_penalties(room, clock, now)
        if any(penalties):
            result = early_result(room, OVERTIME, None, penalties)
    return clock, result


def turn_row(room: Room, now: float) -> tuple[dict[str, Any] | None, Clock | None,
                                             dict[str, Any] | None]:
    """What a turn's write stores in the ``clocks`` row (None for a game stored before
    clocks), with the new clock and result to keep once it is stored."""
    if not room.guarded:
        return None, None, None
    clock, result = turn_clock(room, now)
    return clock_columns(clock, result), clock, result


def start_clocks(room: Room, now: float) -> dict[str, Any] | None:
    """The last open seat was just taken: the clocks start (the row to store)."""
    if room.clock is None or room.clock.running:
        return None
    running = clock_running(room)
    if not running:
        return None
    clock = Clock.from_json(room.clock.to_json())
    clock.restart(now, running)
    return clock_columns(clock)


def state_fields(room: Room) -> dict[str, Any]:
    """What every seat and spectator sees of the clocks and an early ending."""
    data: dict[str, Any] = {"clock": None if room.clock is None else room.clock.view(),
                            "result": room.result}
    if room.result is not None:
        data.update(over=True, turn=None)
    return data


def new_clock(room: Room, clock: tuple[int, ...] | None) -> dict[str, Any] | None:
    """A new game's clocks (the ``clocks`` row's columns): they start at once when no
    person's seat is open."""
    if clock is None:
        return None
    room.clock = Clock.new(clock[0], clock[1], len(room.seats),
                           per_move=len(clock) > 2 and bool(clock[2]))
    room.clock.restart(time.time(), clock_running(room))
    return clock_columns(room.clock)
