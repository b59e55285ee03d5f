"""Game clocks: each seat's remaining time, kept by the server and stored with the game.

A clock is chosen when a game is created (none, or ``seconds`` per player, plus an
``overtime`` allowance for games that have one). The server stores each seat's
remaining time, the moment the running clocks started (wall time) and which seats'
clocks run: the seats the game waits for (one in Kings Cribbage, several at once while
Cribbage players lay away to the crib). When a turn is stored every running seat is
charged the time since ``started`` in the same transaction, and ``due`` (the moment
the first running seat would run out of its time and overtime) is stored beside it,
indexed, so the housekeeping loop finds the clocks that ran out with one query.

Clocks start once every person's seat is taken; they stop when the game ends. The
page counts down from these figures (``state["clock"]``), corrected by every message.

Correspondence games have a clock of days per move (``per_move``): ``seconds`` is then
each move's allowance. A seat's clock is set to the whole allowance each time it starts
running; while it keeps running across several of that seat's own actions (Cribbage's
play after the other side said "go"), that is still one move. There is no overtime.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

MIN_SECONDS, MAX_SECONDS = 5, 3 * 3600  # a time control the API accepts, per player
DAYS_PER_MOVE = (1, 2, 3, 5, 7)  # the correspondence clocks offered
DAY = 24 * 3600
RATED_DAYS_PER_MOVE = 3  # a rated game created without a clock has this deadline
MAX_OVERTIME = 600  # seconds of overtime a game may allow (Kings Cribbage)
PENALTY_PER_MINUTE = 10  # points per started minute of overtime (Kings Cribbage)


@dataclass
class Clock:
    """One game's clocks. ``remaining`` goes below zero while a seat is in overtime."""

    seconds: int
    overtime: int
    remaining: list[float]
    started: float = 0.0  # wall time (time.time()) the running clocks last started
    running: list[int] = field(default_factory=list)
    per_move: bool = False  # correspondence: ``seconds`` for each move (module doc)

    @classmethod
    def new(cls, seconds: int, overtime: int, seats: int, per_move: bool = False) -> Clock:
        return cls(seconds, overtime, [float(seconds)] * seats, per_move=per_move)

    def left(self, now: float) -> list[float]:
        """Each seat's remaining time at ``now`` (negative: overtime used)."""
        spent = max(0.0, now - self.started)
        return [r - spent if s in self.running else r for s, r in enumerate(self.remaining)]

    def restart(self, now: float, running: list[int]) -> None:
        """A turn ended (or the game began or ended): charge every running seat the time
        since ``started``; then the clocks of ``running`` run from ``now``."""
        self.remaining = [round(r, 3) for r in self.left(now)]
        if self.per_move:  # a seat whose move begins has the whole allowance for it
            for seat in set(running) - set(self.running):
                self.remaining[seat] = float(self.seconds)
        self.started, self.running = now, sorted(running)

    def left_for(self, seat: int, now: float | None = None) -> float:
        """One seat's time left now, in seconds (rounded)."""
        return round(self.left(time.time() if now is None else now)[seat], 1)

    def due(self) -> float | None:
        """When the first running seat runs out of its time and overtime (None: no clock
        runs)."""
        if not self.running:
            return None
        return self.started + min(self.remaining[s] for s in self.running) + self.overtime

    def flagged(self, now: float) -> int | None:
        """The first running seat whose time and overtime are used up at ``now``."""
        left = self.left(now)
        out = [s for s in self.running if left[s] + self.overtime <= 0]
        return min(out, key=lambda s: left[s]) if out else None

    def overtime_used(self, now: float) -> list[float]:
        return [max(0.0, -r) for r in self.left(now)]

    def penalties(self, now: float) -> list[int]:
        """Kings Cribbage: 10 points per started minute of overtime, per seat."""
        return [PENALTY_PER_MINUTE * math.ceil(round(o, 3) / 60) for o in self.overtime_used(now)]

    def to_json(self) -> dict[str, Any]:
        return {"seconds": self.seconds, "overtime": self.overtime,
                "remaining": list(self.remaining), "started": self.started,
                "running": list(self.running), "per_move": self.per_move}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Clock:
        return cls(int(data["seconds"]), int(data["overtime"]),
                   [float(r) for r in data["remaining"]], float(data["started"]),
                   [int(s) for s in data["running"]], bool(data.get("per_move")))

    def view(self, now: float | None = None) -> dict[str, Any]:
        """What the page shows: each seat's time left now, which run, the overtime."""
        now = time.time() if now is None else now
        return {"seconds": self.seconds, "overtime": self.overtime,
                "left": [round(x, 1) for x in self.left(now)], "running": list(self.running),
                "penalty_per_minute": PENALTY_PER_MINUTE if self.overtime else 0,
                "per_move": self.per_move}


def check_clock(seconds: int | None, overtime: int | None, game: str,
                days: int | None = None) -> tuple[int, ...] | None:
    """The time control a new game asked for, as stored (None: no clock). Overtime is for
    games whose kind has it (Kings Cribbage; in Cribbage whoever runs out loses at once).
    ``days``: a correspondence clock of that many days per move instead: (seconds, 0,
    True)."""
    from kingscrib.web.errors import WebError
    from kingscrib.web.play.games import game_kind, hosted_name

    if days is not None:
        if seconds is not None or overtime is not None:
            raise WebError(400, "choose days per move or a clock per game, not both")
        if days not in DAYS_PER_MOVE:
            raise WebError(400, f"clock_days_per_move is one of"
                                f" {', '.join(map(str, DAYS_PER_MOVE))}, not {days}")
        return days * DAY, 0, True

    kind = game_kind(game) if hosted_name(game) else None
    has_overtime = bool(getattr(kind, "overtime", False))

    if seconds is None:
        if overtime is not None:
            raise WebError(400, "overtime needs a clock: give clock_seconds too")
        return None
    if not MIN_SECONDS <= seconds <= MAX_SECONDS:
        raise WebError(400, f"clock_seconds is from {MIN_SECONDS} to {MAX_SECONDS}"
                            f" (seconds per player), not {seconds}")
    if overtime is None:
        overtime = MAX_OVERTIME if has_overtime else 0
    if not has_overtime and overtime:
        title = kind.title if kind is not None else game
        raise WebError(400, f"{title} has no overtime: running out of time loses the game")
    if not 0 <= overtime <= MAX_OVERTIME:
        raise WebError(400, f"clock_overtime is from 0 to {MAX_OVERTIME} seconds, not {overtime}")
    return seconds, overtime


def rated_deadline() -> tuple[int, ...]:
    """The clock of a rated game created without one: a correspondence deadline of
    :data:`RATED_DAYS_PER_MOVE` days per move, so that whoever walks away from a lost
    rated game loses it on time (docs/web.md, "Rated play")."""
    return RATED_DAYS_PER_MOVE * DAY, 0, True


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
