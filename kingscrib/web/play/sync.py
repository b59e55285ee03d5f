"""Several server processes on one PostgreSQL: each follows the others' changes.

A process holds rooms as a cache; the stored turns are the truth. Every write sends a
note (``NOTIFY``) with the new turn; :class:`GameSync` listens, applies a noted turn to
a room held here (or reads the game from the store when in any doubt), and catches up
every room when its listening connection is made again."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Awaitable, Callable

from kingscrib.web.db.storage import Store, StoredGame, hash_secret
from kingscrib.web.play import views
from kingscrib.web.play.background import Background
from kingscrib.web.play.db_thread import DbThread
from kingscrib.web.play.room import Room, apply_noted, catch_up, stored_version
from kingscrib.web.server import metrics

log = logging.getLogger("kingscrib.web")


class GameSync:
    """Brings the rooms held here up to what the store holds."""

    def __init__(self, store: Store, db: DbThread, rooms: dict[str, Room],
                 rebuild: Callable[[StoredGame], Awaitable[Room]],
                 kick: Callable[[Room], None], background: Background) -> None:
        self.store = store
        self.db = db
        self.rooms = rooms
        self.rebuild = rebuild  # a room replayed whole from what the store holds
        self.kick = kick  # the room's computer seats, when it waits for them
        self.background = background
        self._stop: threading.Event | None = None
        self._listener: threading.Thread | None = None

    def start_listening(self) -> None:
        """Follow the other processes' changes (PostgreSQL): each note refreshes the room
        of that game, if this process holds it, and pushes the new state to its sockets."""
        if not self.store.shared:
            return
        loop = asyncio.get_running_loop()
        self._stop = threading.Event()

        stop = self._stop

        def on_note(game_id: str, turn: str) -> None:
            try:
                if not loop.is_closed():  # a note may still arrive while the server stops
                    loop.call_soon_threadsafe(self.noted, game_id, turn)
                    return
            except RuntimeError:  # the event loop closed meanwhile
                pass
            stop.set()  # the event loop is gone (shutting down): stop listening

        def on_connect(again: bool) -> None:
            metrics.listener_up(again)
            try:
                if not loop.is_closed():
                    loop.call_soon_threadsafe(self._reconnected)
                    return
            except RuntimeError:
                pass
            stop.set()

        self._listener = threading.Thread(target=self.store.listen, name="kingscrib-listen",
                                          args=(on_note, stop, on_connect, metrics.listener_down),
                                          daemon=True)
        self._listener.start()

    def stop_listening(self) -> None:
        if self._stop is not None:
            self._stop.set()

    def _reconnected(self) -> None:
        self.background.start(self._catch_up_retrying())

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
        stored = await self.db.call(self.store.versions, [r.id for r in rooms])
        behind = [r for r in rooms if r.id in stored and stored_version(r) != stored[r.id]]
        for room in behind:
            self.noted(room.id)
        return [r.id for r in behind]

    def noted(self, game_id: str, turn: str = "") -> None:
        """Another process changed a game (``turn``: "" or "<n> <turn as JSON>", the new
        turn it stored, perhaps followed by a newline and the game's clocks row). A room
        nobody here listens to and no computer here plays is only marked stale; otherwise
        the room applies the turn, or reads the store."""
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
        self.background.start(self._follow(room, turn))

    def refresh_soon(self, room: Room) -> None:
        """Bring a room up to date from the store, in the background (a move of ours was
        refused because another process stored that turn first)."""
        self.background.start(self.refresh(room))

    async def _follow(self, room: Room, note: str) -> None:
        """Apply a turn stored through another process; any doubt (a turn missed, a Joker
        call, a turn that does not follow) reads the whole game from the store instead."""
        n_text, _, data = note.partition(" ")
        async with room.lock:
            applied = (not room.stale and n_text.isdigit() and bool(data)
                       and apply_noted(room, int(n_text), data))
        if applied is None:  # this room has that turn already
            return
        if not applied:
            await self.refresh(room)
            return
        room.game.forget_views()
        room.hint_cache = {}
        await views.broadcast(room)
        self.kick(room)

    async def refresh(self, room: Room, rebuild: bool = False) -> None:
        """Bring a room up to what the store holds (another process changed the game) and
        push the change to every listener. ``rebuild``: replay the game whole (the room
        may be half changed)."""
        async with room.lock:
            await self.reload(room, rebuild)
        self.kick(room)

    async def reload(self, room: Room, rebuild: bool = False) -> None:
        """:meth:`refresh` under the room's lock. A computer seat thinking meanwhile is
        left to finish: it acts only on the game it thought about (see computers.py)."""
        room.stale = False
        stored = await self.db.call(self.store.load, room.id)
        if stored is None:
            return
        caught_up = not rebuild and catch_up(room, stored)
        if not caught_up:  # more than new turns: replay it all
            fresh = await self.rebuild(stored)
            room.game, room.seats, room.version = fresh.game, fresh.seats, fresh.version
            room.clock, room.result, room.guarded = fresh.clock, fresh.result, fresh.guarded
        room.closed, room.hints_allowed = stored.closed is not None, stored.hints
        room.game.forget_views()
        room.hint_cache = {}
        if caught_up:
            await views.broadcast(room)  # what changed since the last push
            return
        room.sent_version = room.version  # the whole state goes out
        for listener in list(room.listeners):
            try:
                await listener.send(views.state_message(room, listener.seat))
            except Exception:
                room.listeners.discard(listener)

    async def reload_if_behind(self, room: Room) -> bool:
        """Under the room's lock: reload the room when the store holds more of the game
        (a note missed); True when it did (PostgreSQL only)."""
        if not self.store.shared:
            return False
        try:
            stored = await self.db.call(self.store.versions, [room.id])
            if stored.get(room.id, stored_version(room)) == stored_version(room):
                return False
            await self.reload(room)  # changes nothing until the game is read
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
        if await self.db.call(self.store.seat_with_token, room.id, hash_secret(token)) is None:
            return None
        await self.refresh(room)
        return room.seat_of(token)
