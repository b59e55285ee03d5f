"""Live games on the server: the :class:`Hub` that holds every :class:`Room`.

The :class:`Hub` is the only place that changes a game. Every action is
checked by the game, stored before anyone hears of it, then pushed to the
game's listeners (websockets), each shown only what its seat may see.
The hub composes the parts of the live game, one concern each:

- :mod:`.room` - a room, its seats and listeners;
- :mod:`.db_thread` and :mod:`.turn_writer` - the store's thread and batched turn writes;
- :mod:`.sync` - several server processes on one PostgreSQL (LISTEN/NOTIFY);
- :mod:`.computers` - scheduling the computer seats (:mod:`.work` queues their thinking);
- :mod:`.hints` - hints and previews;
- :mod:`.views` - what each seat sees, and the push to every listener.

The hub itself keeps the registry of rooms (create, load, rebuild, sweep), seats
people and applies their actions.

A room holds a session of one of the games of :mod:`kingscrib.web.play.games` and
knows it only through their protocol (:mod:`kingscrib.web.play.games.protocol`): the
rules, the views and the messages (Kings Cribbage sends incremental updates,
Cribbage the whole state) are the game's.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import re
import secrets
import time
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any, TypeVar

from sqlalchemy.exc import IntegrityError

from kingscrib.common.shuffle import Seed, derived_int
from kingscrib.web.accounts.names import person_name
from kingscrib.web.db.storage import (
    SeatTaken,
    StaleGame,
    Store,
    StoredGame,
    StoredSeat,
    TooManyComputerGames,
    TurnWrite,
    hash_secret,
)
from kingscrib.web.errors import WebError
from kingscrib.web.play import finish, hints, last_known, views
from kingscrib.web.play.actions import checked_action
from kingscrib.web.play.background import Background
from kingscrib.web.play.clocks import clock_from_row, rated_deadline
from kingscrib.web.play.computers import Computers
from kingscrib.web.play.db_thread import DbThread
from kingscrib.web.play.games import DEFAULT_GAME, game_kind
from kingscrib.web.play.games.protocol import Change
from kingscrib.web.play.last_known import LastKnown
from kingscrib.web.play.review_jobs import Job
from kingscrib.web.play.room import (
    COMPUTER,
    Room,
    Seat,
    build_seats,
    people_seated,
    refuse_closed,
    seat_creator,
    take_clock,
)
from kingscrib.web.play.sync import GameSync
from kingscrib.web.play.turn_writer import TurnWriter
from kingscrib.web.play.work import Work
from kingscrib.web.server import metrics
from kingscrib.web.server.outage import database_down

log = logging.getLogger("kingscrib.web")
T = TypeVar("T")
_BEATEN = "another move was made first (through another server); the game is brought up to date"


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
        self.allow_seed = allow_seed
        self.db = DbThread()
        self.writer = TurnWriter(store, self.db)
        self.work = Work(ai_threads, reviews_waiting)  # computer seats, analyses, replays
        self.last_known = LastKnown()  # the database's last answers, for its outages
        self.computer_games = computer_games
        self.hints = hints.Hints(hints_waiting)
        self.background = Background()
        # A game of computers only waits at least this long before each move.
        computers_only_delay = max(computer_delay, 1 / computer_moves_per_second
                                   if computer_moves_per_second else 0.0)
        self.computers = Computers(self.work, self, computer_delay, computers_only_delay)
        self.sync = GameSync(store, self.db, self.rooms, self.rebuild, self.computers.kick,
                             self.background)
        self._loading: dict[str, asyncio.Future[Room]] = {}
        self.analysis_jobs: dict[str, Job] = {}  # analyses being worked out (reviews.py)
        # Called after each turn this process stored, and when a game begins, with the
        # seats that need no notice: those the game waited for before the turn, or the
        # person who just sat down (turn notices: kingscrib.web.mail.turn_mail).
        self.turn_watchers: list[Callable[[Room, set[int]], None]] = []
        # Called (on the event loop) when a game ends here, e.g. to wake the tournament
        # director at once rather than at its next pass.
        self.ended_hooks: list[Callable[[Room], None]] = []
        # A rated game between accounts seen from one address is not rated (a club
        # whose players share one address turns this off: LimitSettings).
        self.unrate_shared_addresses = True

    async def db_call(self, fn: Callable[..., T], *args: Any,
                      thread: Executor | None = None) -> T:
        """Run a (blocking) store call in the store's thread (or ``thread``: a part of the
        server whose calls need not queue behind the games'); an unreachable database is
        a 503 saying what could not be done (kingscrib.web.server.outage)."""
        return await self.db.call(fn, *args, thread=thread)

    async def close(self) -> None:
        self.sync.stop_listening()
        for room in self.rooms.values():
            if room.computer_task:
                room.computer_task.cancel()
        self.background.cancel_all()  # refreshes, analyses: nobody waits for them
        self.work.shutdown()
        self.hints.shutdown()
        self.db.shutdown()

    # ----- the registry of rooms: creating, loading, sweeping --------------------------
    async def create(self, seats: list[dict[str, Any]], rules: dict[str, Any],
                     seed: Seed | None = None, game: str = DEFAULT_GAME, hints: bool = False,
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
        caller checks that every person is logged in, or will be to sit); a rated game
        without a clock is given the correspondence deadline of :func:`rated_deadline`."""
        if seed is not None and not secret_seed and not self.allow_seed:
            raise WebError(400, "this server does not let a game choose its seed")
        kind = game_kind(game)
        if rated and clock is None:  # nobody may walk away from a rated game unrated
            clock = rated_deadline()
        low, high = kind.seats_allowed()
        if not low <= len(seats) <= high:
            raise WebError(400, f"{kind.title} is for {low} to {high} seats, not {len(seats)}")
        stored_rules = kind.check_rules(rules, len(seats))
        built = build_seats(seats, kind.levels(), game)
        session = kind.create(stored_rules, seed, [s.name for s in built])
        if seated is not None:
            for s, token_hash in zip(built, seated, strict=True):
                s.token_hash = token_hash
            creator, token = None, None
        else:
            creator, token = seat_creator(built, creator)
        invite = secrets.token_urlsafe(12)
        room = Room(secrets.token_urlsafe(9), session, built, hash_secret(invite), kind=game,
                    version=people_seated(built), hints_allowed=hints, owner=address or "",
                    rated=rated)
        room.sent_version = room.version
        self._attach_players(room)
        limited = address is not None and self.computer_games is not None and not room.people
        try:
            await self.db.call(self.store.create_game, room.id, stored_rules, session.seed,
                                room.invite_hash,
                                [StoredSeat(s.seat, s.name, s.kind, s.level, s.token_hash)
                                 for s in built], game, hints, finish.new_clock(room, clock),
                                (address, self.computer_games) if limited else None, rated)
        except TooManyComputerGames as e:
            raise WebError(429, f"{e.playing} games of computers only created from your address"
                                " are still being played: watch one to its end, then start"
                                " another") from None
        self.rooms[room.id] = room
        last_known.no_seat_owners(self, room.id)
        self.computers.kick(room)
        return room, creator, token, invite

    def _attach_players(self, room: Room) -> None:
        seed = room.game.seed
        kind = game_kind(room.kind)
        for s in room.seats:
            if s.kind == COMPUTER:
                # A computer's own generator is derived from a secret seed one-way.
                own = seed + s.seat if isinstance(seed, int) else derived_int(seed, f"seat/{s.seat}")
                s.player = kind.make_player(s.level or kind.default_level(), own)

    async def get(self, game_id: str) -> Room:
        """The live room of a game, loaded (and replayed) from the store if needed."""
        room = self.rooms.get(game_id)
        if room is not None:
            room.touched = time.monotonic()
            if room.stale:
                await self.sync.refresh(room)
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
        stored = await self.db.call(self.store.load, game_id)
        if stored is None:
            raise WebError(404, "no such game")
        await last_known.seat_owners(self, game_id)
        room = await self.rebuild(stored)
        self.rooms.setdefault(game_id, room)
        room = self.rooms[game_id]
        self.computers.kick(room)
        return room

    async def rebuild(self, stored: StoredGame) -> Room:
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
                    version=session.changes + people_seated(seats),
                    hints_allowed=stored.hints, closed=stored.closed is not None,
                    rated=stored.rated)
        take_clock(room, stored)
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
            # Rated only once every side has moved: before that, an ending (a
            # resignation, leaving) aborts the game, unrated (docs/web.md, "Rated play").
            rated = room.rated and all(room.game.people_played(set(side["seats"]))
                                       for side in standing)
            await self.db.call(ratings.settle, self.store.engine, room.id, room.kind,
                                rated, standing, None, self.unrate_shared_addresses)
        except Exception:
            log.exception("the outcome of %s could not be recorded yet", room.id)

    async def settle_missed(self, grace: float = 60.0) -> int:
        """Housekeeping: record the finished games whose outcome was not (their process
        stopped first), ``grace`` seconds after they ended; whichever process gets there
        first does it. Returns how many."""
        from kingscrib.web.ratings import store as ratings

        done = 0
        for game_id in await self.db.call(ratings.unsettled, self.store.engine, 50, grace):
            try:
                room = await self.get(game_id)
            except WebError:
                continue
            await self.ended(room, closing=True)
            done += 1
        return done

    # ----- several server processes (PostgreSQL): see sync.py ---------------------------
    def start_listening(self) -> None:
        self.sync.start_listening()

    async def catch_up_all(self) -> list[str]:
        return await self.sync.catch_up_all()

    async def refresh(self, room: Room, rebuild: bool = False) -> None:
        await self.sync.refresh(room, rebuild)

    async def seat_or_refresh(self, room: Room, token: str | None) -> int | None:
        return await self.sync.seat_or_refresh(room, token)

    async def sweep(self, idle: float, evict_after: float) -> list[str]:
        """Housekeeping: close the games nobody has played for ``idle`` seconds (kept as
        records), and drop from memory the rooms nobody has touched for ``evict_after``
        seconds that have no listener and no computer thinking (they are rebuilt from the
        store when next touched). Returns the ids closed."""
        closed = await self.db.call(self.store.close_idle, time.time() - idle)
        for game_id in closed:
            room = self.rooms.get(game_id)
            if room is not None:
                room.closed = True
                room.version += 1
                if room.computer_task:
                    room.computer_task.cancel()
                await views.broadcast(room)
        limit = time.monotonic() - evict_after
        for game_id, room in list(self.rooms.items()):
            busy = room.computer_task is not None and not room.computer_task.done()
            if room.touched < limit and not room.listeners and not busy \
                    and not room.lock.locked():
                del self.rooms[game_id]
        return closed

    async def resume_all(self) -> int:
        """Load every unfinished game (after a restart) so computer seats carry on."""
        ids = await self.db.call(self.store.unfinished)
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
        refuse_closed(room)
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
                await self.db.call(self.store.take_seat, room.id, seat, new_name,
                                    hash_secret(token), started)
            except SeatTaken:
                self.sync.refresh_soon(room)
                raise WebError(409, f"seat {seat + 1} was just taken") from None
            s.token_hash, s.name = hash_secret(token), new_name
            if started is not None:
                room.clock = clock_from_row(started)
            room.game.rename(seat, new_name)
            room.version += 1
        await views.broadcast(room)
        if started is not None:  # the game begins: the first movers hear of it (not the
            self.turned(room, {seat})  # person who just sat down, who is looking at it)
        return seat, token

    async def reissue(self, room: Room, seat: int) -> str:
        """A new token for a taken seat, handed to the account that owns it (the caller
        checks); the seat's old token opens nothing any more."""
        async with room.lock:
            token = secrets.token_urlsafe(24)
            if not await self.db.call(self.store.rekey_seat, room.id, seat, hash_secret(token)):
                raise WebError(409, f"seat {seat + 1} is not a person's taken seat")
            room.seats[seat].token_hash = hash_secret(token)
        return token

    # ----- acting ---------------------------------------------------------------
    async def act(self, room: Room, seat: int | None, message: dict[str, Any]) -> None:
        """A seat's action, as the game takes it (Kings: ``{"action": "play", "tiles":
        {...}, "claim": n}``; Cribbage: ``{"action": "discard", "cards": [...]}``; ...).
        Raises WebError and changes nothing when refused."""
        if seat is None:
            raise WebError(403, "spectators cannot act; join a seat with an invite link")
        began = time.perf_counter()
        message = checked_action(game_kind(room.kind), message)
        refuse_closed(room)
        async with room.lock:
            before = set(room.game.waiting())
            await self.apply_action(room, seat, message, recheck=True)
        await views.broadcast(room)
        metrics.MOVE_SECONDS.labels(game=room.kind).observe(time.perf_counter() - began)
        self.turned(room, before)
        self.computers.kick(room)

    def turned(self, room: Room, before: set[int]) -> None:
        for watch in self.turn_watchers:
            try:
                watch(room, before)
            except Exception:
                log.exception("a turn watcher failed for %s", room.id)

    async def apply_action(self, room: Room, seat: int, message: dict[str, Any],
                     recheck: bool = False) -> None:
        """Apply an action, store it (or take it back and refuse), then the actions computer
        seats take at once in answer (a Joker call). ``recheck``: an action the game here
        refuses is checked again once the room is brought up to date, when the store holds
        more of the game (a note from another process missed: "not your turn" was wrong)."""
        session = room.game
        try:
            change = session.apply(seat, message)  # WebError, nothing changed, when refused
        except WebError:
            if not (recheck and await self.sync.reload_if_behind(room)):
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
            await self.writer.write(write)
        except (IntegrityError, StaleGame):  # another process stored a turn or ending first
            session.take_back()
            self.sync.refresh_soon(room)
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
            await self.apply_action(room, other, action)

    def preview(self, room: Room, seat: int | None, move: Any) -> dict[str, Any]:
        return hints.preview(room, seat, move)

    async def hint(self, room: Room, seat: int | None, client: str = "?") -> dict[str, Any]:
        return await self.hints.hint(room, seat, client)

    # ----- what each seat sees: see views.py ------------------------------------------
    async def broadcast(self, room: Room) -> None:
        await views.broadcast(room)

    def state_message(self, room: Room, seat: int | None) -> str:
        return views.state_message(room, seat)

    def state_text(self, room: Room, seat: int | None) -> str:
        return views.state_text(room, seat)

    def state(self, room: Room, seat: int | None) -> dict[str, Any]:
        return views.state(room, seat)
