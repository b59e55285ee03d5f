"""The lobby: seeks, Play now, challenges, games to watch, people online, live.

A browser names itself with a random *visitor* secret it keeps (header
``X-Lobby-Visitor``, 16-100 characters): a guest's own seeks are told apart by it, and
stay while that browser is connected to ``/api/lobby/live``. A logged-in browser is
its account (whose name it plays under) and sends the page's ``X-CSRF-Token``.
Every answer is JSON; a refusal is ``{"error": "..."}`` with its status, and changes
nothing. See docs/web.md, "The lobby".
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from fastapi import APIRouter, Depends, Request, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict, Field

from kingscrib.web.accounts import sessions
from kingscrib.web.accounts.deps import session_account
from kingscrib.web.db.storage import hash_secret
from kingscrib.web.errors import WebError
from kingscrib.web.lobby import seeks
from kingscrib.web.lobby.live import Client, Lobby
from kingscrib.web.lobby.schemas import Gone, LobbyNow, Posted, SeatTaken
from kingscrib.web.play.deps import get_hub, note_origin, refuse_banned_name
from kingscrib.web.play.games import DEFAULT_GAME
from kingscrib.web.play.rooms import Hub
from kingscrib.web.play.sockets import POLICY, serve_counted
from kingscrib.web.server.edge import client_address

router = APIRouter(prefix="/api/lobby", tags=["lobby"])
log = logging.getLogger("kingscrib.web")

VISITOR_HEADER = "x-lobby-visitor"
QUEUE_LIMIT = 256  # messages waiting for a slow browser before it is dropped
# A browser gets at most one frame in this time: news after a quiet spell goes at once,
# a burst (ten pairings at once are some thirty messages to every browser) goes as a few
# frames. Each frame is a write to each of thousands of sockets, the lobby's main cost.
FRAME_GAP = 0.05


class Named(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(default=None, max_length=400, description=(
        "a guest's name (an account plays under its own)"))


class SeekBody(Named):
    game: str = Field(default=DEFAULT_GAME, max_length=16)
    players: int = Field(default=2, ge=1, le=8)
    rules: dict[str, Any] = Field(default_factory=dict, max_length=10)
    hints: bool = False
    clock_seconds: int | None = None
    clock_overtime: int | None = None
    rated: bool = False
    rating_min: int | None = None
    rating_max: int | None = None
    challenge: str | None = Field(default=None, max_length=400, description=(
        "a direct challenge: the user name of the account challenged (two players)"))


class PlayNow(Named):
    game: str = Field(default=DEFAULT_GAME, max_length=16)
    players: int = Field(default=2, ge=1, le=8)
    clock_seconds: int | None = None


class Ticket(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ticket: str | None = Field(default=None, max_length=200)


def lobby_of(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


def _visitor(raw: str | None) -> str:
    if not raw or not 16 <= len(raw) <= 100 or not raw.isascii() or not raw.isprintable():
        raise WebError(400, "the lobby needs the X-Lobby-Visitor header: 16 to 100 printable"
                            " characters this browser keeps")
    return hash_secret(raw)


async def _person(request: Request, hub: Hub, name: str | None) -> seeks.Person:
    """Who makes a lobby request: an account (CSRF-checked) or a guest with a name."""
    sessions.check_same_origin(request.headers)
    visitor = _visitor(request.headers.get(VISITOR_HEADER))
    account, token = await session_account(hub, request.cookies)
    # Seats waiting are counted per address too, whatever visitor secrets it sends.
    where = {"address_hash": hash_secret(f"address\0{client_address(request.scope)}"),
             "per_address": request.app.state.limits.settings.seeks_per_address}
    if account is not None and token is not None:
        sessions.check_csrf(token, request.headers)
        await note_origin(request, hub, account.id)  # (a rated seek's fair play)
        return seeks.Person(account.name, account.id, visitor, **where)
    await refuse_banned_name(hub, [name])
    return seeks.Person(seeks.guest_name(name), None, visitor, **where)


@router.get("")
async def look(request: Request, hub: Hub = Depends(get_hub)) -> LobbyNow:
    """The lobby now: the open seeks this browser may see, games to watch, people online."""
    lobby = lobby_of(request)
    account, _ = await session_account(hub, request.cookies)
    raw = request.headers.get(VISITOR_HEADER)
    client = Client(lambda _m: None, account.id if account else None,
                    hash_secret(raw) if raw else "")
    return LobbyNow.model_validate(lobby.snapshot(client))


@router.post("/seeks", status_code=201)
async def post_seek(body: SeekBody, request: Request,
                    hub: Hub = Depends(get_hub)) -> Posted:
    """A new seek (or a challenge, with ``challenge``); you take its first seat. Returns
    the seek and your ticket: keep it, it is your seat's token once the game starts."""
    person = await _person(request, hub, body.name)
    if body.challenge is not None and body.players != 2:
        raise WebError(400, "a challenge is a game for two players")
    wish = seeks.check_wish(body.game, body.players, body.rules, body.hints,
                            body.clock_seconds, body.clock_overtime, body.rated,
                            body.rating_min, body.rating_max, person)
    target = None if body.challenge is None else body.challenge.strip()
    if target == "":
        raise WebError(400, "name the player you challenge")
    seated = await lobby_of(request).db_call(seeks.post, hub.store, wish, person, False, target)
    await lobby_of(request).publish([{"type": "seek", **seated.seek}])
    return Posted(seek=seated.seek["seek"], ticket=seated.ticket, seat=0)


async def _accept(request: Request, hub: Hub, seek_id: str, person: seeks.Person
                  ) -> SeatTaken:
    seated = await lobby_of(request).db_call(seeks.accept, hub.store, seek_id, person)
    return await _seated(request, seek_id, seated)


async def _seated(request: Request, seek_id: str, seated: seeks.Seated) -> SeatTaken:
    """A seat just taken: the lobby told, and the game started when that filled it."""
    lobby = lobby_of(request)
    if not seated.full:
        await lobby.publish([{"type": "seek", **seated.seek}])
        return SeatTaken(seek=seated.seek["seek"], ticket=seated.ticket, seat=seated.seat,
                         game_id=None)
    game_id = await lobby.start_game(seek_id, seated.start)
    return SeatTaken(seek=None, ticket=seated.ticket, seat=seated.seat, game_id=game_id)


@router.post("/seeks/{seek_id}/accept")
async def accept(seek_id: str, body: Named, request: Request,
                 hub: Hub = Depends(get_hub)) -> SeatTaken:
    """Take the next seat of a seek. When that fills it the game starts: ``game_id``, and
    ``ticket`` is your seat's token (the others hear ``started`` on the live channel)."""
    person = await _person(request, hub, body.name)
    return await _accept(request, hub, seek_id[:32], person)


@router.delete("/seeks/{seek_id}")
async def leave(seek_id: str, request: Request, body: Ticket | None = None,
                hub: Hub = Depends(get_hub)) -> Gone:
    """Cancel your seek, leave a seat you took in another, or decline a challenge."""
    person = await _person(request, hub, "guest")
    how = await lobby_of(request).db_call(seeks.leave, hub.store, seek_id[:32], person,
                            body.ticket if body else None)
    lobby = lobby_of(request)
    if how == "left":
        await lobby.changed(seek_id)
    else:
        await lobby.publish([{"type": "gone", "id": seek_id, "reason": how}])
    return Gone(gone=how)


@router.post("/play-now")
async def play_now(body: PlayNow, request: Request,
                   hub: Hub = Depends(get_hub)) -> SeatTaken:
    """Pair with someone waiting for the same game, players and clock, or wait for one:
    ``game_id`` set (paired, the game has started) or ``seek`` (yours, posted)."""
    person = await _person(request, hub, body.name)
    wish = seeks.check_wish(body.game, body.players, {}, False, body.clock_seconds, None,
                            False, None, None, person)
    # Each try finds and takes a seat in one call to the store; a seek whose game could
    # not be made is gone after its try, so the next try takes another.
    for _ in range(20):
        seated = await lobby_of(request).db_call(seeks.pair, hub.store, wish, person)
        if seated is None:
            break
        with contextlib.suppress(WebError):
            return await _seated(request, seated.seek["seek"]["id"], seated)
    seated = await lobby_of(request).db_call(seeks.post, hub.store, wish, person, True)
    await lobby_of(request).publish([{"type": "seek", **seated.seek}])
    return SeatTaken(seek=seated.seek["seek"], ticket=seated.ticket, seat=0, game_id=None)


# ----- live -----------------------------------------------------------------------------
@router.websocket("/live")
async def live(websocket: WebSocket) -> None:
    """The lobby as it changes. Send ``{"type": "hello", "visitor": "..."}`` first; the
    answer is ``{"type": "lobby", "seeks", "games", "online", "quick"}``, then ``seek``
    (new or changed), ``gone`` (with ``reason``), ``started`` (``id``, ``game_id``),
    ``games``, ``online`` and ``quick`` (how many wait for Play now, by game, players and
    clock; their own seeks reach their own browsers only) as they happen. ``{"type": "ping"}`` gets ``pong``. A frame is one
    message, or an array of messages in order when several were waiting."""
    hub: Hub = websocket.app.state.hub
    lobby: Lobby = websocket.app.state.lobby
    try:
        sessions.check_same_origin(websocket.headers)
    except WebError as e:
        await websocket.close(code=POLICY, reason=e.message[:120])
        return
    await serve_counted(websocket, lambda: _serve(websocket, hub, lobby))


async def _serve(websocket: WebSocket, hub: Hub, lobby: Lobby) -> None:
    queue: asyncio.Queue[str | None] = asyncio.Queue()
    dropped = False

    def send(message: str) -> None:
        nonlocal dropped
        if queue.qsize() > QUEUE_LIMIT:
            dropped = True
            queue.put_nowait(None)
            return
        if not dropped:
            queue.put_nowait(message)

    async def writer() -> None:
        # What piled up since the last frame (at least FRAME_GAP ago) goes as one frame (a
        # JSON array): under load each browser costs the process one write per burst of
        # news, not one per message; when all is quiet a message goes at once, alone.
        loop = asyncio.get_running_loop()
        sent = -FRAME_GAP
        while True:
            batch = [await queue.get()]
            if (wait := sent + FRAME_GAP - loop.time()) > 0:
                await asyncio.sleep(wait)  # news of the last moment joins this frame
            while not queue.empty():
                batch.append(queue.get_nowait())
            ending = None in batch
            if ending:
                batch = batch[:batch.index(None)]
            texts = [m for m in batch if m is not None]
            if texts:
                await websocket.send_text(texts[0] if len(texts) == 1
                                          else "[" + ",".join(texts) + "]")
                sent = loop.time()
            if ending:
                break
        with contextlib.suppress(Exception):
            await websocket.close(code=POLICY, reason="too slow: the lobby's news piled up")

    client: Client | None = None
    writing = asyncio.create_task(writer())
    try:
        while True:
            raw = await websocket.receive_text()
            try:
                message = json.loads(raw) if len(raw) <= 1000 else None
            except ValueError:
                message = None
            if not isinstance(message, dict):
                send(json.dumps({"type": "error", "error": "a message is a JSON object"}))
                continue
            if message.get("type") == "ping":
                send('{"type":"pong"}')
            elif message.get("type") == "hello" and client is None:
                try:
                    visitor = _visitor(message.get("visitor")
                                       if isinstance(message.get("visitor"), str) else None)
                except WebError as e:
                    send(json.dumps({"type": "error", "error": e.message}))
                    continue
                account, _ = await session_account(hub, websocket.cookies)
                client = Client(send, account.id if account else None, visitor)
                lobby.join(client)
            else:
                send(json.dumps({"type": "error",
                                 "error": 'send {"type": "hello", "visitor": ...} once'}))
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        if client is not None:
            lobby.leave(client)
        queue.put_nowait(None)
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(writing, 1.0)
        writing.cancel()
