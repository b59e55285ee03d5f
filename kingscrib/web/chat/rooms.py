"""Live chat in each game: one room for its players, another for its spectators.

Who writes where: a seated player (their seat token; an account's seat also needs its
session) writes and reads the players' room; anyone else reads the spectators' room,
and writes in it when logged in (a guest spectator only reads: a name to ban is needed
before a stranger may write). Players do not see the spectators' room during a game, as
on lichess, so nobody can be coached from the gallery.

A message is checked (:mod:`kingscrib.web.chat.text`), limited per sender
(:data:`BURST` at once, then one each :data:`EVERY` seconds), stored in its own table
(:mod:`kingscrib.web.chat.store`, never in the game) and then pushed to the readers of
its room in this process and, on PostgreSQL, to the other server processes by
``NOTIFY kingscrib_chat`` (each delivers to its own readers). A moderator's hiding of a
message goes the same way.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import text as sql
from sqlalchemy.engine import Engine

from kingscrib.web.accounts import moderation, sessions
from kingscrib.web.chat import store as chat_store
from kingscrib.web.chat.text import chat_text
from kingscrib.web.db.storage import CONNECT_TIMEOUT, NOTE_LIMIT, Store, hash_secret
from kingscrib.web.errors import WebError
from kingscrib.web.play import last_known
from kingscrib.web.play.rooms import Hub
from kingscrib.web.server.limits import Buckets

log = logging.getLogger("kingscrib.web")

CHANNEL = "kingscrib_chat"
BURST, EVERY = 5, 2.0  # messages a sender may send at once; then one per EVERY seconds
PLAYERS, SPECTATORS = chat_store.ROOMS

Send = Callable[[dict[str, Any]], Awaitable[None]]


@dataclass(eq=False)
class Reader:
    """Someone reading a game's chat: which room, and how to reach them."""

    room: str
    send: Send


@dataclass
class Speaker:
    """Who is at a game's chat: their room, and (``sender`` not None) as whom they write."""

    room: str
    sender: str | None
    name: str = ""
    account_id: int | None = None
    players: bool = True  # the game has a person's seat (a players' room apart)


async def speaker(hub: Hub, game_id: str, token: str | None, cookies: Mapping[str, str],
                  same_origin: bool = True) -> Speaker:
    """Who the caller is at this game's chat. ``token``: a seat token (the players'
    room); a spectator writes only with an account's session, and only from this site's
    pages (``same_origin``: a websocket carries the cookie whoever opens it)."""
    from kingscrib.web.play.deps import guard_seat

    room = await hub.get(game_id)
    if token:
        await guard_seat(hub, cookies, room.id, token)
        seat = await hub.seat_or_refresh(room, token)
        if seat is None:
            raise WebError(401, "this seat token does not open a seat of this game")
        owner = (await last_known.seat_owners(hub, room.id)).get(hash_secret(token))
        return Speaker(PLAYERS, f"a{owner}" if owner else f"g{seat}", room.seats[seat].name,
                       owner)
    session = cookies.get(sessions.COOKIE)
    account = (await hub.db_call(sessions.account_of, hub.store.engine, session)
               if session and same_origin else None)
    players = room.people > 0
    if account is None:
        return Speaker(SPECTATORS, None, players=players)
    return Speaker(SPECTATORS, f"a{account.id}", account.name, account.id, players)


@dataclass
class ChatHub:
    """The readers of every game's chat held by this process, and the senders' limits."""

    hub: Hub
    readers: dict[str, set[Reader]] = field(default_factory=dict)
    limits: Buckets = field(default_factory=lambda: Buckets(1 / EVERY, BURST))
    _stop: threading.Event | None = None

    # ----- readers ----------------------------------------------------------------
    def join(self, game_id: str, reader: Reader) -> None:
        self.readers.setdefault(game_id, set()).add(reader)

    def leave(self, game_id: str, reader: Reader) -> None:
        held = self.readers.get(game_id)
        if held is not None:
            held.discard(reader)
            if not held:
                del self.readers[game_id]

    async def history(self, game_id: str, who: Speaker) -> list[dict[str, Any]]:
        found = await self.hub.db_call(chat_store.history, self.hub.store.engine, game_id,
                                       who.room)
        return [m.public() for m in found]

    # ----- writing ----------------------------------------------------------------
    async def say(self, game_id: str, who: Speaker, raw: Any) -> dict[str, Any]:
        """Store and deliver a message; WebError, nothing stored, when it is refused."""
        if who.sender is None:
            raise WebError(403, "log in to write in the spectators' chat (guests may read it)")
        text = chat_text(raw)
        engine = self.hub.store.engine
        if who.account_id is not None and await self.hub.db_call(
                moderation.is_banned, engine, who.account_id):
            raise WebError(403, "your account is banned: it cannot chat")
        key = who.sender if who.sender.startswith("a") else f"{game_id} {who.sender}"
        if not self.limits.allow(key):
            raise WebError(429, f"you are sending messages too fast: at most {BURST} at once,"
                                f" then one every {EVERY:g} seconds")
        message = await self.hub.db_call(chat_store.add, engine, game_id, who.room,
                                         who.sender, who.name, who.account_id, text)
        public = message.public()
        await self.publish(game_id, {"type": "chat", "message": public})
        return public

    async def hidden(self, message: chat_store.Message) -> None:
        """A moderator hid a message: every reader of its room drops it."""
        await self.publish(message.game_id, {"type": "chat_hidden", "id": message.id,
                                             "room": message.room})

    async def publish(self, game_id: str, event: dict[str, Any]) -> None:
        await self.deliver(game_id, event)
        if self.hub.store.shared:
            payload = (f"{self.hub.store.instance} {game_id} "
                       f"{json.dumps(event, separators=(',', ':'))}")
            if len(payload.encode("utf-8")) <= NOTE_LIMIT:  # 300 characters always fit
                await self.hub.db_call(_notify, self.hub.store.engine, payload)

    async def deliver(self, game_id: str, event: dict[str, Any]) -> None:
        room = event.get("room") or event["message"]["room"]
        for reader in list(self.readers.get(game_id, ())):
            if reader.room != room:
                continue
            try:
                await reader.send(event)
            except Exception:
                self.leave(game_id, reader)

    # ----- other server processes (PostgreSQL) -------------------------------------
    def start(self) -> None:
        if not self.hub.store.shared:
            return
        loop = asyncio.get_running_loop()
        self._stop = threading.Event()

        def on_note(game_id: str, event: dict[str, Any]) -> None:
            if not loop.is_closed():
                loop.call_soon_threadsafe(
                    lambda: asyncio.ensure_future(self.deliver(game_id, event)))

        threading.Thread(target=_listen, args=(self.hub.store, on_note, self._stop),
                         name="kingscrib-chat-listen", daemon=True).start()

    def stop(self) -> None:
        if self._stop is not None:
            self._stop.set()


def _notify(engine: Engine, payload: str) -> None:
    with engine.begin() as conn:
        conn.execute(sql("SELECT pg_notify(:channel, :payload)"),
                     {"channel": CHANNEL, "payload": payload})


def _listen(store: Store, on_note: Callable[[str, dict[str, Any]], None],
            stop: threading.Event) -> None:
    """Hand the other processes' chat events to ``on_note`` until ``stop`` (a thread of
    its own; it listens again after a lost connection: events meanwhile are missed,
    and a page that reconnects reads the history)."""
    import psycopg

    url = "postgresql://" + store.url.split("://", 1)[1]
    mine = store.instance + " "
    while not stop.is_set():
        try:
            with psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT,
                                 application_name="kingscrib-chat", keepalives=1) as conn:
                conn.execute(f"LISTEN {CHANNEL}")
                while not stop.is_set():
                    for note in conn.notifies(timeout=0.5):
                        if note.payload.startswith(mine):
                            continue
                        try:
                            _origin, game_id, data = note.payload.split(" ", 2)
                            on_note(game_id, json.loads(data))
                        except ValueError:
                            log.warning("a chat note could not be read")
        except psycopg.Error:
            stop.wait(1.0)
