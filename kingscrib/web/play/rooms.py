"""Live games on the server: each a :class:`Room` around a game.

The :class:`Hub` is the only place that changes a game. Every action is
checked by the game, stored before anyone hears of it, then pushed to the
game's listeners (websockets), each shown only what its seat may see.
Computer seats think in worker threads so the event loop never waits on them, queued
fairly between addresses and games (:mod:`kingscrib.web.play.work`).

A room holds a session of one of the games of :mod:`kingscrib.web.play.games` and
knows it only through their protocol (:mod:`kingscrib.web.play.games.protocol`): the
rules, the views and the messages (Kings Cribbage sends incremental updates,
Cribbage the whole state) are the game's.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import re
import secrets
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.exc import IntegrityError

from kingscrib.shuffle import derived_int
from kingscrib.web.accounts.names import computer_name, person_name
from kingscrib.web.db.storage import (
    SeatTaken,
    StaleGame,
    Store,
    StoredSeat,
    TooManyComputerGames,
    TurnWrite,
    hash_secret,
)
from kingscrib.web.errors import WebError
from kingscrib.web.play import finish, last_known
from kingscrib.web.play.actions import checked_action
from kingscrib.web.play.clocks import Clock
from kingscrib.web.play.games import DEFAULT_GAME, game_kind
from kingscrib.web.play.games.protocol import Change, Session
from kingscrib.web.play.last_known import LastKnown
from kingscrib.web.play.work import Work
from kingscrib.web.server import metrics
from kingscrib.web.server.outage import database_down, unavailable

log = logging.getLogger("kingscrib.web")
_BEATEN = "another move was made first (through another server); the game is brought up to date"

HUMAN, COMPUTER = "human", "computer"


__all__ = ["COMPUTER", "HUMAN", "Hub", "Listener", "Room", "Seat", "WebError"]


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
    computer_task: asyncio.Task | None = None
    owner: str = ""  # the address that created it, while this process knows it
    _hints: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)
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


def _catch_up(room: Room, stored: Any) -> bool:
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
    version = session.changes + _people_seated(seats)
    if version < room.version:
        return False
    for s in seats:
        session.rename(s.seat, s.name)
    room.seats, room.version = seats, version
    _take_clock(room, stored)
    return True


def _take_clock(room: Room, stored: Any) -> None:
    """The stored clocks and early ending (a resignation or time-out counts as a change)."""
    room.guarded = stored.clock is not None
    room.clock = finish.clock_from_row(stored.clock)
    room.result = stored.clock.get("result") if stored.clock else None
    room.version += room.result is not None


def _apply_noted(room: Room, n: int, data: str) -> bool | None:
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
        room.clock = finish.clock_from_row(row)
        room.result = row.get("result")
        room.version += room.result is not None
    return True


def _refuse_closed(room: Room) -> None:
    if room.closed:
        raise WebError(409, "this game was closed after being left untouched; its record is"
                            " kept and can be downloaded")
    if room.result is not None:
        raise WebError(409, "the game is over")


class Hub:
    """All live rooms, the store behind them and the worker threads."""

    def __init__(self, store: Store, computer_delay: float = 0.0, ai_threads: int = 2,
                 allow_seed: bool = False, hints_waiting: int = 4,
                 computer_games: int | None = None, reviews_waiting: int = 2,
                 computer_moves_per_second: float | None = None) -> None:
        """``computer_games``: games of computers only an address may have being played
        (None: no limit); ``reviews_waiting``: analyses and replays an address may have
        waiting or being worked out; ``computer_moves_per_second``: the most moves a
        second of each game of computers only (None: as fast as ``computer_delay``)."""
        self.store = store
        self.rooms: dict[str, Room] = {}
        self.computer_delay = computer_delay
        # A game of computers only waits at least this long before each move.
        self.computers_only_delay = max(computer_delay, 1 / computer_moves_per_second
                                        if computer_moves_per_second else 0.0)
        self.allow_seed = allow_seed
        self._db = ThreadPoolExecutor(1, thread_name_prefix="kingscrib-db")
        self.work = Work(ai_threads, reviews_waiting)  # computer seats, analyses, replays
        self.last_known = LastKnown()  # the database's last answers, for its outages
        self.computer_games = computer_games
        # Hints have a thread of their own, and each client waits for its previous hint:
        # a client asking for many cannot delay computer seats or other clients' hints.
        self._hint_pool = ThreadPoolExecutor(1, thread_name_prefix="kingscrib-hint")
        self._hint_queues: dict[str, tuple[asyncio.Lock, list[int]]] = {}
        self.hints_waiting = hints_waiting
        self._loading: dict[str, asyncio.Future] = {}
        self._refreshing: set[asyncio.Task] = set()
        self._stop_listening: threading.Event | None = None
        self._writes: list[tuple[TurnWrite, asyncio.Future]] = []
        self._flushing = False
        # Called after each turn this process stored, and when a game begins, with the
        # seats that need no notice: those the game waited for before the turn, or the
        # person who just sat down (turn notices: kingscrib.web.mail.turn_mail).
        self.turn_watchers: list[Callable[[Room, set[int]], None]] = []
        # Called (on the event loop) when a game ends here, e.g. to wake the tournament
        # director at once rather than at its next pass.
        self.ended_hooks: list[Callable[[Room], None]] = []

    # ----- helpers ---------------------------------------------------------------
    async def _db_call(self, fn: Callable, *args: Any, thread: Executor | None = None) -> Any:
        """``fn(*args)`` in the store's thread (or ``thread``); an unreachable database is a
        503 saying what could not be done (kingscrib.web.server.outage)."""
        try:
            return await asyncio.get_running_loop().run_in_executor(thread or self._db, fn,
                                                                    *args)
        except Exception as e:
            if not database_down(e):
                raise
            log.warning("database unreachable (%s): %s", getattr(fn, "__name__", fn),
                        str(e).splitlines()[0] if str(e) else type(e).__name__)
            raise unavailable(fn) from None

    async def db_call(self, fn: Callable, *args: Any, thread: Executor | None = None) -> Any:
        """Run a (blocking) store call in the store's thread (or ``thread``: a part of the
        server whose calls need not queue behind the games')."""
        return await self._db_call(fn, *args, thread=thread)

    async def _store(self, write: TurnWrite) -> None:
        """Store a turn; returns once it is committed. Turns arriving while a batch is being
        committed wait and go together in the next transaction (group commit)."""
        future = asyncio.get_running_loop().create_future()
        self._writes.append((write, future))
        if not self._flushing:
            self._flushing = True
            asyncio.get_running_loop().create_task(self._flush())
        with metrics.queued("store"):
            await future

    async def _flush(self) -> None:
        try:
            while self._writes:
                batch, self._writes = self._writes, []
                try:
                    results = await self._db_call(self.store.write_batch, [w for w, _ in batch])
                except Exception as e:  # the executor itself failed
                    results = [e] * len(batch)
                for (_, future), problem in zip(batch, results):
                    if future.done():
                        continue
                    if problem is None:
                        future.set_result(None)
                    else:
                        future.set_exception(problem)
        finally:
            self._flushing = False

    async def close(self) -> None:
        if self._stop_listening is not None:
            self._stop_listening.set()
        for room in self.rooms.values():
            if room.computer_task:
                room.computer_task.cancel()
        for task in list(self._refreshing):  # refreshes, analyses: nobody waits for them
            task.cancel()
        self.work.shutdown()
        self._hint_pool.shutdown(wait=False, cancel_futures=True)
        self._db.shutdown(wait=True)

    # ----- creating, loading, joining ----------------------------------------------
    async def create(self, seats: list[dict[str, Any]], rules: dict[str, Any],
                     seed: int | None = None, game: str = DEFAULT_GAME, hints: bool = False,
                     creator: int | None = None, clock: tuple[int, ...] | None = None,
                     secret_seed: bool = False, address: str | None = None,
                     seated: list[str] | None = None, rated: bool = False
                     ) -> tuple[Room, int | None, str | None, str]:
        """A new game; returns the room, the creator's seat and token, and the invite code.
        ``hints``: hints allowed even between people (everyone sees it before sitting).
        The creator takes seat ``creator`` (a human seat), by default the first human seat.
        ``clock``: (seconds per player, overtime seconds) as checked by ``check_clock``.
        ``secret_seed``: the seed is a fresh secret drawn by the server (rematches), not
        one a request chose. ``address``: the creator's, whose work the computers' moves
        are, and who may have only ``computer_games`` games of computers only being played
        (429 past them). ``seated``: the token hashes of every seat, all people seated
        already (a lobby seek: nobody is the creator). ``rated``: rated when it ends (the
        caller checks that every person is logged in, or will be to sit)."""
        if seed is not None and not secret_seed and not self.allow_seed:
            raise WebError(400, "this server does not let a game choose its seed")
        kind = game_kind(game)
        low, high = kind.seats_allowed()
        if not low <= len(seats) <= high:
            raise WebError(400, f"{kind.title} is for {low} to {high} seats, not {len(seats)}")
        stored_rules = kind.check_rules(rules, len(seats))
        built = _build_seats(seats, kind.levels())
        session = kind.create(stored_rules, seed, [s.name for s in built])
        if seated is not None:
            for s, token_hash in zip(built, seated, strict=True):
                s.token_hash = token_hash
            creator, token = None, None
        else:
            creator, token = _seat_creator(built, creator)
        invite = secrets.token_urlsafe(12)
        room = Room(secrets.token_urlsafe(9), session, built, hash_secret(invite), kind=game,
                    version=_people_seated(built), hints_allowed=hints, owner=address or "",
                    rated=rated)
        room.sent_version = room.version
        self._attach_players(room)
        limited = address is not None and self.computer_games is not None and not room.people
        try:
            await self._db_call(self.store.create_game, room.id, stored_rules, session.seed,
                                room.invite_hash,
                                [StoredSeat(s.seat, s.name, s.kind, s.level, s.token_hash)
                                 for s in built], game, hints, _new_clock(room, clock),
                                (address, self.computer_games) if limited else None, rated)
        except TooManyComputerGames as e:
            raise WebError(429, f"{e.playing} games of computers only created from your address"
                                " are still being played: watch one to its end, then start"
                                " another") from None
        self.rooms[room.id] = room
        last_known.no_seat_owners(self, room.id)
        self._kick(room)
        return room, creator, token, invite

    def _attach_players(self, room: Room) -> None:
        seed = room.game.seed
        kind = game_kind(room.kind)
        for s in room.seats:
            if s.kind == COMPUTER:
                # A computer's own generator is derived from a secret seed one-way.
                own = seed + s.seat if isinstance(seed, int) else derived_int(seed, f"seat/{s.seat}")
                s.player = kind.make_player(s.level, own)

    async def get(self, game_id: str) -> Room:
        """The live room of a game, loaded (and replayed) from the store if needed."""
        room = self.rooms.get(game_id)
        if room is not None:
            room.touched = time.monotonic()
            if room.stale:
                await self.refresh(room)
            return room
        if not isinstance(game_id, str) or not re.fullmatch(r"[A-Za-z0-9_-]{1,32}", game_id):
            raise WebError(404, "no such game")
        pending = self._loading.get(game_id)
        if pending is None:
            pending = asyncio.ensure_future(self._load(game_id))
            self._loading[game_id] = pending
            pending.add_done_callback(lambda _f: self._loading.pop(game_id, None))
        return await asyncio.shield(pending)

    async def _load(self, game_id: str) -> Room:
        stored = await self._db_call(self.store.load, game_id)
        if stored is None:
            raise WebError(404, "no such game")
        await last_known.seat_owners(self, game_id)
        room = await self._rebuild(stored)
        self.rooms.setdefault(game_id, room)
        room = self.rooms[game_id]
        self._kick(room)
        return room

    async def _rebuild(self, stored: Any) -> Room:
        """A room from what the store holds: the game replayed from its turns."""
        seats = [Seat(s.seat, s.name, s.kind, s.level, s.token_hash) for s in stored.seats]
        kind = game_kind(stored.game)
        try:
            session = await self.work.move(kind.rebuild, stored.rules, stored.seed,
                                           [s.name for s in stored.seats], stored.turns,
                                           address=f"game {stored.id}", game=stored.id,
                                           people=True)
        except ValueError as e:
            log.error("game %s cannot be replayed: %s", stored.id, e)
            raise WebError(500, f"the stored game cannot be replayed: {e}") from None
        room = Room(stored.id, session, seats, stored.invite_hash, kind=stored.game,
                    version=session.changes + _people_seated(seats),
                    hints_allowed=stored.hints, closed=stored.closed is not None,
                    rated=stored.rated)
        _take_clock(room, stored)
        room.sent_version = room.version
        self._attach_players(room)
        return room

    async def ended(self, room: Room, closing: bool = False) -> None:
        """A game just ended here (its last turn, a resignation or a time-out is stored):
        its account seats' outcomes are recorded and, when rated, the ratings move
        (kingscrib.web.ratings.store). A failure is logged; the housekeeping tries again.
        ``closing``: whatever could still change the scores (a Joker call) is too late."""
        from kingscrib.web.ratings import store as ratings

        for hook in self.ended_hooks:
            hook(room)
        try:
            standing = game_kind(room.kind).standing(room.game, room.result, closing)
            if standing is None:
                return  # not final yet (a Joker may still be called on the last play)
            await self._db_call(ratings.settle, self.store.engine, room.id, room.kind,
                                room.rated, standing)
        except Exception:
            log.exception("the outcome of %s could not be recorded yet", room.id)

    async def settle_missed(self, grace: float = 60.0) -> int:
        """Housekeeping: record the finished games whose outcome was not (their process
        stopped first), ``grace`` seconds after they ended; whichever process gets there
        first does it. Returns how many."""
        from kingscrib.web.ratings import store as ratings

        done = 0
        for game_id in await self._db_call(ratings.unsettled, self.store.engine, 50, grace):
            try:
                room = await self.get(game_id)
            except WebError:
                continue
            await self.ended(room, closing=True)
            done += 1
        return done

    # ----- several server processes (PostgreSQL) ---------------------------------------
    def start_listening(self) -> None:
        """Follow the other processes' changes (PostgreSQL): each note refreshes the room
        of that game, if this process holds it, and pushes the new state to its sockets."""
        if not self.store.shared:
            return
        loop = asyncio.get_running_loop()
        self._stop_listening = threading.Event()

        stop = self._stop_listening

        def on_note(game_id: str, turn: str) -> None:
            try:
                if not loop.is_closed():  # a note may still arrive while the server stops
                    loop.call_soon_threadsafe(self._noted, game_id, turn)
                    return
            except RuntimeError:  # the event loop closed meanwhile
                pass
            stop.set()  # the event loop is gone (shutting down): stop listening

        def on_connect() -> None:
            try:
                if not loop.is_closed():
                    loop.call_soon_threadsafe(self._reconnected)
                    return
            except RuntimeError:
                pass
            stop.set()

        self._listener = threading.Thread(target=self.store.listen, name="kingscrib-listen",
                                          args=(on_note, stop, on_connect), daemon=True)
        self._listener.start()

    def _reconnected(self) -> None:
        self._background(self._catch_up_retrying())

    async def _catch_up_retrying(self, tries: int = 20, pause: float = 0.5) -> None:
        """:meth:`catch_up_all`, tried again while the store is not reachable yet (the
        listener may be back before the store's other connections are)."""
        for attempt in range(tries):
            try:
                behind = await self.catch_up_all()
            except Exception as e:
                if attempt == tries - 1:
                    log.error("could not catch up after listening again: %s", e)
                    for room in self.rooms.values():  # read again when next touched
                        room.stale = True
                    return
                await asyncio.sleep(pause)
                continue
            if behind:
                log.info("listening again: %d games caught up from the store", len(behind))
            return

    async def catch_up_all(self) -> list[str]:
        """Bring every room held here up to what the store holds (the listening connection
        was (re)made: notes sent while it was down never came). One query compares the
        stored versions; a room behind is refreshed, or only marked stale when nobody here
        watches it. Returns the ids of the rooms found behind."""
        rooms = list(self.rooms.values())
        stored = await self._db_call(self.store.versions, [r.id for r in rooms])
        behind = [r for r in rooms if r.id in stored and _stored_version(r) != stored[r.id]]
        for room in behind:
            self._noted(room.id)
        return [r.id for r in behind]

    def _noted(self, game_id: str, turn: str = "") -> None:
        """Another process changed a game (``turn``: "" or "<n> <turn as JSON>", the new
        turn it stored, perhaps followed by a newline and the game's clocks row). A room nobody here listens to and no computer here plays is only
        marked stale; otherwise the room applies the turn, or reads the store."""
        room = self.rooms.get(game_id)
        if room is None:
            return
        n = turn.partition(" ")[0]
        if n.isdigit() and int(n) < room.game.turn_count:
            return  # a turn this room has already (the note came late)
        busy = room.computer_task is not None and not room.computer_task.done()
        if not room.listeners and not busy:
            room.stale = True
            return
        self._background(self._follow(room, turn))

    def _refresh_soon(self, room: Room) -> None:
        """Bring a room up to date from the store, in the background (a move of ours was
        refused because another process stored that turn first)."""
        self._background(self.refresh(room))

    def _background(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._refreshing.add(task)
        task.add_done_callback(self._refreshing.discard)

    async def _follow(self, room: Room, note: str) -> None:
        """Apply a turn stored through another process; any doubt (a turn missed, a Joker
        call, a turn that does not follow) reads the whole game from the store instead."""
        n_text, _, data = note.partition(" ")
        async with room.lock:
            applied = (not room.stale and n_text.isdigit() and bool(data)
                       and _apply_noted(room, int(n_text), data))
        if applied is None:  # this room has that turn already
            return
        if not applied:
            await self.refresh(room)
            return
        room.game.forget_views()
        room._hints = {}
        await self.broadcast(room)
        self._kick(room)

    async def refresh(self, room: Room, rebuild: bool = False) -> None:
        """Bring a room up to what the store holds (another process changed the game) and
        push the change to every listener. ``rebuild``: replay the game whole (the room
        may be half changed)."""
        async with room.lock:
            await self._reload(room, rebuild)
        self._kick(room)

    async def _reload(self, room: Room, rebuild: bool = False) -> None:
        """:meth:`refresh` under the room's lock. A computer seat thinking meanwhile is
        left to finish: it acts only on the game it thought about (see _computers)."""
        room.stale = False
        stored = await self._db_call(self.store.load, room.id)
        if stored is None:
            return
        caught_up = not rebuild and _catch_up(room, stored)
        if not caught_up:  # more than new turns: replay it all
            fresh = await self._rebuild(stored)
            room.game, room.seats, room.version = fresh.game, fresh.seats, fresh.version
            room.clock, room.result, room.guarded = fresh.clock, fresh.result, fresh.guarded
        room.closed, room.hints_allowed = stored.closed is not None, stored.hints
        room.game.forget_views()
        room._hints = {}
        if caught_up:
            await self.broadcast(room)  # what changed since the last push
            return
        room.sent_version = room.version  # the whole state goes out
        for listener in list(room.listeners):
            try:
                await listener.send(self.state_message(room, listener.seat))
            except Exception:
                room.listeners.discard(listener)

    async def _reload_if_behind(self, room: Room) -> bool:
        """Under the room's lock: reload the room when the store holds more of the game
        (a note missed); True when it did (PostgreSQL only)."""
        if not self.store.shared:
            return False
        try:
            stored = await self._db_call(self.store.versions, [room.id])
            if stored.get(room.id, _stored_version(room)) == _stored_version(room):
                return False
            await self._reload(room)  # changes nothing until the game is read
        except Exception:  # the store is away: the refusal stands as the room sees it
            log.exception("could not check %s against the store", room.id)
            return False
        return True

    async def seat_or_refresh(self, room: Room, token: str | None) -> int | None:
        """The seat a token opens; with several processes a seat taken through another
        one may not be known here yet: a token unknown here is looked up in the store, and
        opens a seat only when the store knows it (a wrong token changes nothing)."""
        seat = room.seat_of(token)
        if seat is not None or not token or not self.store.shared:
            return seat
        if all(s.taken for s in room.seats):
            return None  # every seat's token is known here already
        if await self._db_call(self.store.seat_with_token, room.id, hash_secret(token)) is None:
            return None
        await self.refresh(room)
        return room.seat_of(token)

    async def sweep(self, idle: float, evict_after: float) -> list[str]:
        """Housekeeping: close the games nobody has played for ``idle`` seconds (kept as
        records), and drop from memory the rooms nobody has touched for ``evict_after``
        seconds that have no listener and no computer thinking (they are rebuilt from the
        store when next touched). Returns the ids closed."""
        closed = await self._db_call(self.store.close_idle, time.time() - idle)
        for game_id in closed:
            room = self.rooms.get(game_id)
            if room is not None:
                room.closed = True
                room.version += 1
                if room.computer_task:
                    room.computer_task.cancel()
                await self.broadcast(room)
        limit = time.monotonic() - evict_after
        for game_id, room in list(self.rooms.items()):
            busy = room.computer_task is not None and not room.computer_task.done()
            if room.touched < limit and not room.listeners and not busy \
                    and not room.lock.locked():
                del self.rooms[game_id]
        return closed

    async def resume_all(self) -> int:
        """Load every unfinished game (after a restart) so computer seats carry on."""
        ids = await self._db_call(self.store.unfinished)
        for game_id in ids:
            try:
                await self.get(game_id)
            except WebError:
                pass
        return len(ids)

    async def join(self, room: Room, invite: str, seat: int | None, name: str | None
                   ) -> tuple[int, str]:
        if not hmac.compare_digest(hash_secret(invite or ""), room.invite_hash):
            raise WebError(403, "this invite code does not open this game")
        _refuse_closed(room)
        async with room.lock:
            open_seats = [s.seat for s in room.seats if not s.taken]
            if seat is None:
                if not open_seats:
                    raise WebError(409, "every seat is taken; you can still watch")
                seat = open_seats[0]
            if not 0 <= seat < len(room.seats):
                raise WebError(400, f"there is no seat {seat + 1}")
            if seat not in open_seats:
                raise WebError(409, f"seat {seat + 1} is already taken")
            token = secrets.token_urlsafe(24)
            s = room.seats[seat]
            new_name = person_name(name, s.name)
            s.token_hash = hash_secret(token)  # for a moment: do the clocks start now?
            started = finish.start_clocks(room, time.time())
            s.token_hash = None
            try:
                await self._db_call(self.store.take_seat, room.id, seat, new_name,
                                    hash_secret(token), started)
            except SeatTaken:
                self._refresh_soon(room)
                raise WebError(409, f"seat {seat + 1} was just taken") from None
            s.token_hash, s.name = hash_secret(token), new_name
            if started is not None:
                room.clock = finish.clock_from_row(started)
            room.game.rename(seat, new_name)
            room.version += 1
        await self.broadcast(room)
        if started is not None:  # the game begins: the first movers hear of it (not the
            self._turned(room, {seat})  # person who just sat down, who is looking at it)
        return seat, token

    # ----- acting ---------------------------------------------------------------
    async def act(self, room: Room, seat: int | None, message: dict[str, Any]) -> None:
        """A seat's action, as the game takes it (Kings: ``{"action": "play", "tiles":
        {...}, "claim": n}``; Cribbage: ``{"action": "discard", "cards": [...]}``; ...).
        Raises WebError and changes nothing when refused."""
        if seat is None:
            raise WebError(403, "spectators cannot act; join a seat with an invite link")
        began = time.perf_counter()
        message = checked_action(game_kind(room.kind), message)
        _refuse_closed(room)
        async with room.lock:
            before = set(room.game.waiting())
            await self._apply(room, seat, message, recheck=True)
        await self.broadcast(room)
        metrics.MOVE_SECONDS.labels(game=room.kind).observe(time.perf_counter() - began)
        self._turned(room, before)
        self._kick(room)

    def _turned(self, room: Room, before: set[int]) -> None:
        for watch in self.turn_watchers:
            try:
                watch(room, before)
            except Exception:
                log.exception("a turn watcher failed for %s", room.id)

    async def _apply(self, room: Room, seat: int, message: dict[str, Any],
                     recheck: bool = False) -> None:
        """Apply an action, store it (or take it back and refuse), then the actions computer
        seats take at once in answer (a Joker call). ``recheck``: an action the game here
        refuses is checked again once the room is brought up to date, when the store holds
        more of the game (a note from another process missed: "not your turn" was wrong)."""
        session = room.game
        try:
            change = session.apply(seat, message)  # WebError, nothing changed, when refused
        except WebError:
            if not (recheck and await self._reload_if_behind(room)):
                raise
            session = room.game
            change = session.apply(seat, message)
        if not isinstance(change, Change):
            change = Change(session.turn_count - 1, change)
        # A new turn charges the clocks, in the same transaction (kingscrib.web.play.finish).
        row, clock, result = finish.turn_row(room, time.time()) if change.new else (None,) * 3
        write = TurnWrite(room.id, change.index, change.turn, new=change.new,
                          over=session.over, clock=row)
        try:
            await self._store(write)
        except (IntegrityError, StaleGame):  # another process stored a turn or ending first
            session.take_back()
            self._refresh_soon(room)
            raise WebError(409, _BEATEN) from None
        except Exception as e:
            session.take_back()
            if database_down(e):
                log.warning("could not store a turn of %s: the database is unreachable", room.id)
            else:
                log.exception("could not store a turn of %s", room.id)
            raise WebError(503, change.unsaved) from None
        finally:
            session.settled()
        metrics.moved(room.kind)
        if row is not None:
            room.clock, room.result = clock, result
        room.version += 1
        if session.over:  # (a Joker call on the last play may still change the scores)
            await self.ended(room)
        computers = {s.seat: s.player for s in room.seats if s.kind == COMPUTER}
        for other, action in session.reactions(computers):
            await self._apply(room, other, action)

    def preview(self, room: Room, seat: int | None, move: Any) -> dict[str, Any]:
        """What a move would score now (from the seat's own hand), or why it is illegal;
        for games that offer previews."""
        if seat is None:
            raise WebError(403, "spectators have no rack to play from")
        session = room.game
        if "preview" not in session.offers:
            raise session.refusal("preview")
        return session.preview(seat, move, room.hints_on)

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
        _refuse_closed(room)
        inputs = session.hint_inputs(seat)  # WebError when the seat may not have one now
        key = (room.version, seat)
        if key in room._hints:
            return room._hints[key]
        lock, waiting = self._hint_queues.setdefault(client, (asyncio.Lock(), [0]))
        if waiting[0] >= self.hints_waiting:
            metrics.refused("hints_waiting")
            raise WebError(429, f"{waiting[0]} hints asked for are still being worked out;"
                                " wait for them")
        waiting[0] += 1
        try:
            with metrics.queued("hint"):
                async with lock:
                    result = await asyncio.get_running_loop().run_in_executor(
                        self._hint_pool, session.hint_from, inputs)
        finally:
            waiting[0] -= 1
            if not waiting[0]:
                self._hint_queues.pop(client, None)
        room._hints = {key: result}
        return result

    # ----- computer seats ---------------------------------------------------------
    def _kick(self, room: Room) -> None:
        if room.closed or room.result is not None:
            return
        if not any(room.seats[s].kind == COMPUTER for s in room.game.waiting()):
            return
        if room.computer_task is None or room.computer_task.done():
            room.computer_task = asyncio.get_running_loop().create_task(self._computers(room))

    async def _computers(self, room: Room) -> None:
        """Computer seats act, one at a time, at the server's pace; each thinks in a worker
        thread from what its seat may know, taken on the event loop."""
        while True:
            session = room.game
            seats = [s for s in session.waiting() if room.seats[s].kind == COMPUTER]
            if session.over or not seats:
                return
            delay = self.computer_delay if room.people else self.computers_only_delay
            if delay:
                await asyncio.sleep(delay)
            version, seat = room.version, room.seats[seats[0]]
            known = session.computer_input(seat.seat)
            try:
                # Games of computers only think in another process: the player (and its
                # generator's state) comes back with the action.
                with metrics.queued("computer"):
                    action, seat.player = await self.work.move(
                        _computer_move, session.computer_action, seat.seat, seat.player,
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
                    await self._apply(room, seat.seat, action)
                except WebError as e:
                    log.error("computer seat %d of %s: %s", seat.seat, room.id, e.message)
                    return
            await self.broadcast(room)
            self._turned(room, before)

    # ----- what each seat sees -------------------------------------------------
    async def broadcast(self, room: Room) -> None:
        """Push what changed since the last push to every listener, as the game words it
        (Kings: ``{"type": "update", "update": ...}`` with only what changed; other games
        may send the whole state)."""
        listeners = list(room.listeners)
        messages = room.game.updates(room, [listener.seat for listener in listeners])
        extra = _clock_text(room)
        for listener, message in zip(listeners, messages):
            message = _spliced(message, extra)
            try:
                await listener.send(message)
            except Exception:
                room.listeners.discard(listener)
        room.sent_version = room.version

    def state_message(self, room: Room, seat: int | None) -> str:
        """``{"type": "state", "state": ...}`` as JSON text for ``seat``."""
        return _spliced(room.game.state_message(room, seat), _clock_text(room))

    def state_text(self, room: Room, seat: int | None) -> str:
        """:meth:`state` as JSON text: while the game runs, taken from the state message,
        whose public part is encoded once a version (pollers of a game cost little)."""
        message = self.state_message(room, seat)
        if room.result is None and message.startswith(_STATE_PREFIX):
            return message[len(_STATE_PREFIX):-1]
        return json.dumps(self.state(room, seat), separators=(",", ":"))

    def state(self, room: Room, seat: int | None) -> dict[str, Any]:
        """The game as ``seat`` may see it (None: a spectator)."""
        data = dict(room.game.state(room, seat))
        data.update(finish.state_fields(room))
        if room.result is not None and "waiting" in data:
            data["waiting"] = []  # nobody is waited for once the game is over
        return data


_STATE_PREFIX = '{"type":"state","state":'


def _computer_move(act: Callable[..., Any], seat: int, player: Any, known: Any
                   ) -> tuple[dict[str, Any], Any]:
    """A computer seat's action and its player as it is after choosing."""
    return act(seat, player, known), player


def _clock_text(room: Room) -> str:
    """The clocks (counted down to now, never cached) and an early ending, as JSON members
    added to every state and update message (``"result"`` not null: the game is over)."""
    data = finish.state_fields(room)
    return "," + json.dumps({"clock": data["clock"], "result": data["result"]},
                            separators=(",", ":"))[1:-1]


def _spliced(message: str | dict[str, Any], extra: str) -> str | dict[str, Any]:
    """``extra`` added to the inner object of a ``{"type": ..., "state"/"update": {...}}``
    message (its text ends with the two closing braces)."""
    if isinstance(message, dict):
        inner = next((k for k in ("state", "update") if isinstance(message.get(k), dict)), None)
        if inner is None:
            return message
        return dict(message, **{inner: dict(message[inner], **json.loads("{" + extra[1:] + "}"))})
    if not message.endswith("}}"):
        return message
    return message[:-2] + extra + "}}"


def _new_clock(room: Room, clock: tuple[int, ...] | None) -> dict[str, Any] | None:
    """A new game's clocks (the ``clocks`` row's columns): they start at once when no
    person's seat is open."""
    if clock is None:
        return None
    room.clock = Clock.new(clock[0], clock[1], len(room.seats),
                           per_move=len(clock) > 2 and bool(clock[2]))
    room.clock.restart(time.time(), finish.clock_running(room))
    return finish.clock_columns(room.clock)


def _build_seats(seats: list[dict[str, Any]], levels: list[str]) -> list[Seat]:
    built: list[Seat] = []
    for i, s in enumerate(seats):
        kind = s.get("kind", HUMAN)
        level = s.get("level")
        if kind == COMPUTER:
            if level not in levels:
                raise WebError(400, f"seat {i + 1}: unknown computer level {level!r};"
                                    f" choose from {', '.join(levels)}")
            same = sum(x.get("kind") == COMPUTER and x.get("level") == level for x in seats)
            default = f"Computer {i + 1} ({level})" if same > 1 else f"Computer ({level})"
            name = computer_name(s.get("name"), default, i)
        else:
            level = None
            name = person_name(s.get("name"), f"Player {i + 1}")
        built.append(Seat(i, name, kind, level))
    return built


def _seat_creator(built: list[Seat], seat: int | None = None) -> tuple[int | None, str | None]:
    """The first human seat (or the human seat ``seat``) goes to whoever creates the game."""
    for s in built:
        if s.kind == HUMAN and (seat is None or s.seat == seat):
            token = secrets.token_urlsafe(24)
            s.token_hash = hash_secret(token)
            return s.seat, token
    return None, None


def _stored_version(room: Room) -> tuple[int, bool]:
    """What :meth:`Store.versions` says of the game when the room holds all of it."""
    return (room.game.changes + _people_seated(room.seats) + (room.result is not None),
            room.closed)


def _people_seated(seats: list[Seat]) -> int:
    return sum(s.kind == HUMAN and s.token_hash is not None for s in seats)
