"""A live game on the server: a :class:`Room` around a game session, its seats and the
sockets listening to it, and the pure steps that bring a room up to what the store holds."""

from __future__ import annotations

import asyncio
import hmac
import json
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from kingscrib.web.accounts.names import computer_name, person_name
from kingscrib.web.db.storage import StoredGame, hash_secret
from kingscrib.web.errors import WebError
from kingscrib.web.play.clocks import Clock, clock_from_row
from kingscrib.web.play.games import DEFAULT_GAME
from kingscrib.web.play.games.protocol import Session, level_of, levels_text

HUMAN, COMPUTER = "human", "computer"


@dataclass
class Seat:
    seat: int
    name: str
    kind: str
    level: str | None = None
    token_hash: str | None = None
    player: Any = None  # the computer player object

    @property
    def taken(self) -> bool:
        return self.kind == COMPUTER or self.token_hash is not None


Send = Callable[[dict[str, Any] | str], Awaitable[None]]


@dataclass(eq=False)
class Listener:
    """Someone watching a game: a seat (or a spectator, seat None) and how to reach them."""

    seat: int | None
    send: Send


@dataclass(eq=False)
class Room:
    id: str
    game: Session  # the live game (its protocol session)
    seats: list[Seat]
    invite_hash: str
    kind: str = DEFAULT_GAME  # the game's name in the registry
    hints_allowed: bool = False  # chosen at creation, shown to everyone before they sit
    rated: bool = False  # chosen at creation: every person's seat an account's (ratings.py)
    closed: bool = False  # closed for being left untouched: nothing more can happen
    clock: Clock | None = None  # the game's clocks (kingscrib.web.play.clocks); None: no clock
    result: dict[str, Any] | None = None  # an ending beyond the rules (kingscrib.web.play.finish)
    guarded: bool = True  # has a stored clocks row (games stored before clocks have none)
    # Changed through another server process while nobody here was watching: brought up
    # to date from the store when next touched (see Hub._noted).
    stale: bool = False
    touched: float = field(default_factory=time.monotonic)  # last looked at or played
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: set[Listener] = field(default_factory=set)
    version: int = 0  # changes counted: the game's changes, seats taken, closing
    computer_task: asyncio.Task[None] | None = None
    owner: str = ""  # the address that created it, while this process knows it
    # The hints asked for at this version, by (version, seat).
    hint_cache: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)
    # The version the listeners were last sent: updates carry only what changed since.
    sent_version: int = 0

    @property
    def people(self) -> int:
        """Seats for people (taken or not)."""
        return sum(s.kind == HUMAN for s in self.seats)

    @property
    def work_key(self) -> str:
        """Whose work its computers' moves are, for fair queueing: its creator's address,
        or the game itself when the creator is not known here (rebuilt from the store)."""
        return self.owner or f"game {self.id}"

    @property
    def hints_on(self) -> bool:
        """Hints are fair play only for someone alone against computers, or when the game
        was created with hints allowed (under the Joker rule they never show points)."""
        return self.hints_allowed or self.people < 2

    def online(self) -> list[bool]:
        """Each seat: someone is watching through it now."""
        online = [False] * len(self.seats)
        for listener in self.listeners:
            if listener.seat is not None:
                online[listener.seat] = True
        return online

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token opens (None: no such seat; a spectator)."""
        if not token:
            return None
        digest = hash_secret(token)
        for s in self.seats:
            if s.token_hash and hmac.compare_digest(s.token_hash, digest):
                return s.seat
        return None


def catch_up(room: Room, stored: StoredGame) -> bool:
    """Apply to the room the turns stored after those it has, and take the stored seats;
    False (the room may be half changed: rebuild it) when the store holds anything else,
    such as a Joker call, or a turn that does not follow."""
    seats = [Seat(s.seat, s.name, s.kind, s.level, s.token_hash) for s in stored.seats]
    for old, new in zip(room.seats, seats):
        new.player = old.player
    session = room.game
    try:
        if not session.catch_up(stored.turns):
            return False
    except (WebError, KeyError, TypeError, ValueError):
        return False
    version = session.changes + people_seated(seats)
    if version < room.version:
        return False
    for s in seats:
        session.rename(s.seat, s.name)
    room.seats, room.version = seats, version
    take_clock(room, stored)
    return True


def take_clock(room: Room, stored: StoredGame) -> None:
    """The stored clocks and early ending (a resignation or time-out counts as a change)."""
    room.guarded = stored.clock is not None
    room.clock = clock_from_row(stored.clock)
    room.result = stored.clock.get("result") if stored.clock else None
    room.version += room.result is not None


def apply_noted(room: Room, n: int, data: str) -> bool | None:
    """Apply turn ``n`` (the stored turn as JSON text, then perhaps a newline and the
    game's new clocks row) when it is the room's next turn: True when applied, None when
    the room has it already, False when the room must be read from the store (a turn
    missed, anything the session cannot apply as it stands)."""
    try:
        turn_text, _, clock_text = data.partition("\n")
        turn = json.loads(turn_text)
        row = json.loads(clock_text) if clock_text else None
        if not isinstance(turn, dict) or not (row is None or isinstance(row, dict)):
            return False
        applied = room.game.apply_noted(n, turn)
    except (WebError, KeyError, TypeError, ValueError):
        return False
    if not applied:
        return applied
    room.version += 1
    if row is not None:  # the clocks as charged by this turn, and any ending it brought
        room.guarded = True
        room.clock = clock_from_row(row)
        room.result = row.get("result")
        room.version += room.result is not None
    return True


def refuse_closed(room: Room) -> None:
    if room.closed:
        raise WebError(409, "this game was closed after being left untouched; its record is"
                            " kept and can be downloaded")
    if room.result is not None:
        raise WebError(409, "the game is over")


def build_seats(seats: list[dict[str, Any]], levels: list[str],
                game: str = DEFAULT_GAME) -> list[Seat]:
    """The seats asked for; a computer's level by its technical name or by the title the
    pages show (``beginner``), stored as the technical name."""
    built: list[Seat] = []
    seats = [{**s, "level": level_of(game, s["level"])} if s.get("kind") == COMPUTER
             and isinstance(s.get("level"), str) else s for s in seats]
    for i, s in enumerate(seats):
        kind = s.get("kind", HUMAN)
        level = s.get("level")
        if kind == COMPUTER:
            if level not in levels:
                raise WebError(400, f"seat {i + 1}: unknown computer level {level!r};"
                                    f" choose from {levels_text(game, levels)}")
            same = sum(x.get("kind") == COMPUTER and x.get("level") == level for x in seats)
            default = f"Computer {i + 1} ({level})" if same > 1 else f"Computer ({level})"
            name = computer_name(s.get("name"), default, i)
        else:
            level = None
            name = person_name(s.get("name"), f"Player {i + 1}")
        built.append(Seat(i, name, kind, level))
    return built


def seat_creator(built: list[Seat], seat: int | None = None) -> tuple[int | None, str | None]:
    """The first human seat (or the human seat ``seat``) goes to whoever creates the game."""
    for s in built:
        if s.kind == HUMAN and (seat is None or s.seat == seat):
            token = secrets.token_urlsafe(24)
            s.token_hash = hash_secret(token)
            return s.seat, token
    return None, None


def stored_version(room: Room) -> tuple[int, bool]:
    """What :meth:`Store.versions` says of the game when the room holds all of it."""
    return (room.game.changes + people_seated(room.seats) + (room.result is not None),
            room.closed)


def people_seated(seats: list[Seat]) -> int:
    return sum(s.kind == HUMAN and s.token_hash is not None for s in seats)
