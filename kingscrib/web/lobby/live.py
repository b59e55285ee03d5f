"""The live lobby of one server process: its connected browsers, the open seeks they
see, the games to watch, how many people are online; a seek's game started.

Every change (a seek posted, filled seat by seat, gone, started) is stored first
(:mod:`kingscrib.web.lobby.seeks`), then sent to this process's browsers at once and, on
PostgreSQL, to the other processes as ``NOTIFY kingscrib_lobby, '<process> <event>'``
(the event as JSON), which send it on to theirs. Each process keeps the open seeks in
memory, so a browser connecting costs no query; after the listening connection is made
again (notes may have been lost) the seeks are read from the store and sent whole.

Online: each process counts its lobby connections and says so on the channel when the
count changes (at most once a second) and every few seconds; the total is the sum of the
counts heard lately, the same for every process.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Connection

from kingscrib.web.db.storage import CONNECT_TIMEOUT, NOTE_LIMIT
from kingscrib.web.errors import WebError
from kingscrib.web.lobby import seeks
from kingscrib.web.play import last_known
from kingscrib.web.play.clocks import check_clock
from kingscrib.web.play.rooms import Hub

log = logging.getLogger("kingscrib.web")

CHANNEL = "kingscrib_lobby"
TICK = 1.0  # seconds between two looks at the online count
KEEP_EVERY = 5.0  # seconds between two "these browsers are still here" marks
GRACE = 30.0  # seconds a seat holder may be away (a reload, a lost connection)
WATCH_EVERY = 10.0  # seconds between two readings of the games to watch
WATCH_SOON = 2.0  # after a game starts: the games started meanwhile go in one reading
SAY_COUNT_EVERY = 5.0  # seconds between two announcements of this process's count
COUNT_STALE = 3 * SAY_COUNT_EVERY  # a process not heard from for this long counts 0
SNAPSHOT_SEEKS = 100  # open seeks a browser is sent when it comes (the oldest; "more" counts the rest)


@dataclass(eq=False)
class Client:
    """A browser connected to the lobby: how to reach it (``send`` never waits), and who
    it is (the account, the hash of its visitor secret)."""

    send: Callable[[str], None]
    account_id: int | None
    visitor_hash: str


def _text(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


def _sees(audience: dict[str, Any] | None, client: Client) -> bool:
    if audience is None:
        return True
    return (client.account_id is not None and client.account_id in audience["accounts"]) \
        or client.visitor_hash in audience["visitors"]


class Lobby:
    def __init__(self, hub: Hub, grace: float = GRACE) -> None:
        self.hub = hub
        self.store = hub.store
        self.grace = grace
        self.clients: set[Client] = set()
        self.seeks: dict[str, dict[str, Any]] = {}  # id -> {"seek", "to"}
        self._readings: list[list[dict[str, Any]]] = []  # events met while seeks are read
        self.watch: list[dict[str, Any]] = []
        self.counts: dict[str, tuple[int, float]] = {}  # other processes: (count, heard)
        self._said: tuple[int, float] = (-1, 0.0)
        self._shown_online = -1
        self._shown_quick: list[dict[str, Any]] = []
        self._watch_due = False  # a reading of the games to watch is on its way
        self._tasks: list[asyncio.Task[None]] = []
        self._stop = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        # On PostgreSQL the lobby's store calls have a thread of their own: a pairing or
        # a seek's note to the other processes does not queue behind the games' turns and
        # clocks (SQLite keeps its one writing thread).
        self._thread = (ThreadPoolExecutor(1, thread_name_prefix="kingscrib-lobby-db")
                        if self.store.shared else None)

    # ----- running ------------------------------------------------------------------
    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        await self._read_all()
        if self.store.shared:
            threading.Thread(target=self._listen, name="kingscrib-lobby-listen",
                             daemon=True).start()
        self._tasks.append(asyncio.create_task(self._keep_going()))

    async def stop(self) -> None:
        self._stop.set()
        for task in self._tasks:
            task.cancel()
        if self._thread is not None:
            self._thread.shutdown(wait=False)

    async def db_call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """A store call of the lobby's, in its own thread on PostgreSQL."""
        return await self.hub.db_call(fn, *args, thread=self._thread)

    async def _read_all(self) -> None:
        """Every open seek read afresh from the store. The events applied while it is read
        are applied again after it (in order): a seek started or gone meanwhile must not
        come back from a reading taken before, nor one posted meanwhile be lost."""
        meanwhile: list[dict[str, Any]] = []
        self._readings.append(meanwhile)
        try:
            found = await self.db_call(seeks.open_seeks, self.store)
        finally:
            self._readings.remove(meanwhile)
        self.seeks = {entry["seek"]["id"]: entry for entry in found}
        for event in meanwhile:
            self._update(event)
        self.watch = await self.db_call(seeks.games_to_watch, self.store)

    async def _keep_going(self) -> None:
        kept = swept = watched = 0.0
        while True:
            await asyncio.sleep(min(TICK, self.grace / 6))
            now = time.time()
            try:
                if self.store.shared:
                    await self._say_count(now)
                self._show_online()
                self._show_quick()
                if now - kept >= min(KEEP_EVERY, self.grace / 4):  # marks within the grace
                    kept = now
                    here = sorted({c.visitor_hash for c in self.clients})
                    await self.db_call(seeks.keep_alive, self.store, here, now)
                if now - swept >= self.grace / 3:
                    swept = now
                    await self._sweep(now)
                if now - watched >= WATCH_EVERY:
                    watched = now
                    await self._read_watch()
            except Exception as e:
                from kingscrib.web.server import outage

                if not outage.reported(e):
                    log.exception("the lobby's housekeeping failed")

    async def _sweep(self, now: float) -> None:
        gone, changed = await self.db_call(seeks.sweep, self.store, now - self.grace,
                                               now - 60.0)
        await self.publish([{"type": "gone", "id": i, "reason": "left"} for i in gone])
        for seek_id in changed:
            await self.changed(seek_id)

    async def _read_watch(self) -> None:
        watch = await self.db_call(seeks.games_to_watch, self.store)
        if watch != self.watch:
            self.watch = watch
            self._push({"type": "games", "games": watch})

    # ----- online -------------------------------------------------------------------
    def online(self, now: float | None = None) -> int:
        now = now or time.time()
        return len(self.clients) + sum(n for n, heard in self.counts.values()
                                       if heard > now - COUNT_STALE)

    async def _say_count(self, now: float) -> None:
        count = len(self.clients)
        if count != self._said[0] or now - self._said[1] >= SAY_COUNT_EVERY:
            self._said = (count, now)
            await self.db_call(self._notify, [{"type": "count", "n": count}])

    def _show_online(self) -> None:
        count = self.online()
        if count != self._shown_online:
            self._shown_online = count
            self._push({"type": "online", "count": count})

    # ----- Play now ----------------------------------------------------------------
    def quick(self) -> list[dict[str, Any]]:
        """How many wait for Play now, by game, players and clock (their seeks are shown
        to their own browsers only)."""
        waiting: dict[tuple[str, int, int | None], int] = {}
        for entry in self.seeks.values():
            seek = entry["seek"]
            if seek.get("quick"):
                key = (seek["game"], seek["players"], seek["clock_seconds"])
                waiting[key] = waiting.get(key, 0) + len(seek["seats"])
        return [{"game": game, "players": players, "clock_seconds": clock, "waiting": n}
                for (game, players, clock), n in sorted(
                    waiting.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2] or 0))]

    def _show_quick(self) -> None:
        """Tell every browser when the Play now counts changed (at most once a tick: a
        burst of pairings is one message)."""
        quick = self.quick()
        if quick != self._shown_quick:
            self._shown_quick = quick
            self._push({"type": "quick", "quick": quick})

    # ----- browsers -----------------------------------------------------------------
    def join(self, client: Client) -> None:
        self.clients.add(client)
        client.send(_text(self.snapshot(client)))

    def leave(self, client: Client) -> None:
        self.clients.discard(client)

    def snapshot(self, client: Client) -> dict[str, Any]:
        """What a browser is shown first: the challenges to it, then the oldest open seeks
        up to :data:`SNAPSHOT_SEEKS` in all (``more``: how many more are open; the
        changes that follow come as they happen)."""
        seen = [e for e in self.seeks.values() if _sees(e["to"], client)]
        mine = [e["seek"] for e in seen if e["to"] is not None]
        others = [e["seek"] for e in seen if e["to"] is None]
        shown = (mine + others)[:SNAPSHOT_SEEKS]
        return {"type": "lobby", "online": self.online(), "games": self.watch,
                "seeks": shown, "more": len(seen) - len(shown), "quick": self.quick()}

    def _push(self, message: dict[str, Any], audience: dict[str, Any] | None = None) -> None:
        """Send a message to this process's browsers (those the audience names)."""
        body = _text(message)
        for client in list(self.clients):
            if _sees(audience, client):
                client.send(body)

    # ----- events -------------------------------------------------------------------
    async def publish(self, events: list[dict[str, Any]]) -> None:
        """Events of this process: shown here at once, then sent to the other processes."""
        if not events:
            return
        for event in events:
            self._apply(event)
        if self.store.shared:
            await self.db_call(self._notify, events)

    async def changed(self, seek_id: str) -> None:
        """A seek changed (a seat taken or left): read it and tell everyone."""
        entry = await self.db_call(seeks.reload, self.store, seek_id)
        if entry is None:
            await self.publish([{"type": "gone", "id": seek_id, "reason": "taken"}])
        else:
            await self.publish([{"type": "seek", **entry}])

    def _apply(self, event: dict[str, Any]) -> None:
        kind = event["type"]
        entry = self._update(event)
        if kind == "seek":
            self._push({"type": "seek", "seek": event["seek"]}, event["to"])
        elif kind in ("gone", "started"):
            self._push(event, entry["to"] if entry else None)  # a challenge: its two only
            if kind == "started":
                self._watch_soon()

    def _update(self, event: dict[str, Any]) -> dict[str, Any] | None:
        """The open seeks after an event (noted for the readings under way); the entry a
        seek's end took away."""
        for meanwhile in self._readings:
            meanwhile.append(event)
        if event["type"] == "seek":
            self.seeks[event["seek"]["id"]] = {"seek": event["seek"], "to": event["to"]}
            return None
        if event["type"] in ("gone", "started"):
            return self.seeks.pop(event["id"], None)
        return None

    def _watch_soon(self) -> None:
        """Read the games to watch shortly: one reading for every game started meanwhile,
        which would otherwise each be a query in every process, in the store's one thread
        that pairings wait for."""
        if self._watch_due:
            return
        self._watch_due = True

        async def read() -> None:
            await asyncio.sleep(WATCH_SOON)
            self._watch_due = False
            await self._read_watch()

        self._tasks.append(asyncio.ensure_future(read()))
        self._tasks[:] = [t for t in self._tasks if not t.done()]

    def _notify(self, events: list[dict[str, Any]]) -> None:
        """Send events to the other processes (in the store's thread); an event too long for
        a note goes as "read seek <id>" and is read from the store there."""
        with self.store.engine.begin() as conn:
            self._send_notes(conn, events)

    def _send_notes(self, conn: Connection, events: list[dict[str, Any]]) -> None:
        """The notes of events, sent when ``conn``'s transaction commits."""
        instance = self.store.instance
        notes = []
        for event in events:
            note = f"{instance} {_text(event)}"
            if len(note.encode("utf-8")) > NOTE_LIMIT:
                note = f"{instance} " + _text({"type": "read", "id": event["seek"]["id"]})
            notes.append(note)
        conn.execute(text("SELECT pg_notify(:channel, note)"
                          " FROM unnest(CAST(:notes AS text[])) AS note"),
                     {"channel": CHANNEL, "notes": notes})

    def _noted(self, instance: str, event: dict[str, Any]) -> None:
        """An event of another process."""
        if event.get("type") == "count":
            self.counts[instance] = (int(event["n"]), time.time())
        elif event.get("type") == "read":
            self._tasks.append(asyncio.ensure_future(self.changed(event["id"])))
        else:
            self._apply(event)

    def _listen(self) -> None:
        """The other processes' events (PostgreSQL; a thread of its own, connecting again
        after a lost connection, then reading every open seek afresh)."""
        import psycopg

        url = "postgresql://" + self.store.url.split("://", 1)[1]
        mine = self.store.instance + " "
        loop = self._loop
        assert loop is not None
        while not self._stop.is_set():
            try:
                with psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT,
                                     application_name="kingscrib-lobby", keepalives=1,
                                     keepalives_idle=10, keepalives_interval=5,
                                     keepalives_count=3) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    loop.call_soon_threadsafe(self._again)
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            if note.payload.startswith(mine):
                                continue
                            instance, _, body = note.payload.partition(" ")
                            with contextlib.suppress(ValueError):
                                loop.call_soon_threadsafe(self._noted, instance,
                                                          json.loads(body))
            except psycopg.Error:
                self._stop.wait(1.0)
            except RuntimeError:  # the event loop closed: the server is stopping
                return

    def _again(self) -> None:
        """Listening (again): what changed meanwhile is read from the store and every
        browser here gets the lobby whole."""
        async def resend() -> None:
            with contextlib.suppress(Exception):
                await self._read_all()
                for client in list(self.clients):
                    client.send(_text(self.snapshot(client)))

        self._tasks.append(asyncio.ensure_future(resend()))

    # ----- a full seek's game -------------------------------------------------------
    async def start_game(self, seek_id: str, info: dict[str, Any] | None = None) -> str:
        """Make the game of a seek whose last seat was just taken here: every seat is its
        holder's (their ticket is the seat's token). ``info``: what the game is made of
        (:func:`seeks.start_of`), when read already. Returns the game's id."""
        if info is None:
            info = await self.db_call(seeks.start_of, self.store, seek_id)
        try:
            clock = check_clock(info["clock_seconds"], info["clock_overtime"], info["game"])
            room, _seat, _token, _invite = await self.hub.create(
                [{"kind": "human", "name": s["name"]} for s in info["seats"]], info["rules"],
                None, info["game"], info["hints"], clock=clock,
                seated=[s["ticket_hash"] for s in info["seats"]], rated=info["rated"])
        except WebError:
            await self.db_call(seeks.unstart, self.store, seek_id)
            await self.publish([{"type": "gone", "id": seek_id, "reason": "failed"}])
            raise
        owners = [(i, s["account_id"]) for i, s in enumerate(info["seats"])
                  if s["account_id"] is not None]
        event = {"type": "started", "id": seek_id, "game_id": room.id}
        await self.db_call(self._record_start, seek_id, room.id, owners, event)
        self._apply(event)
        if owners:
            await last_known.seat_owners(self.hub, room.id)
        return room.id

    def _record_start(self, seek_id: str, game_id: str, owners: list[tuple[int, int]],
                      event: dict[str, Any]) -> None:
        """The seek's game noted, and the other processes told, in one transaction: one
        call to the store's thread (each call waits behind the others' work), one commit."""
        seeks.started(self.store, seek_id, game_id, owners,
                      (lambda conn: self._send_notes(conn, [event])) if self.store.shared
                      else None)

