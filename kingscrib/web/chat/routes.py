"""Chat in a game: its websocket, its history, writing, reporting, muting.

The websocket ``/api/games/{id}/chat/ws``: the first message is ``{"type": "hello",
"token": ...}`` (no token: a spectator), answered ``{"type": "chat_welcome", "room",
"you", "can_write", "players", "messages"}`` (``players`` false: a game of computers
only, no players' room); then ``{"type": "say", "text": ..., "ref": ...}``
gets ``{"type": "ok", "ref", "message"}`` or ``{"type": "error", "ref", "status",
"error"}``. Every message of the room arrives as ``{"type": "chat", "message": {...}}``,
a hidden one's removal as ``{"type": "chat_hidden", "id": n}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from fastapi import APIRouter, Depends, Request, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict, Field

from kingscrib.web import jsontext
from kingscrib.web.accounts import sessions
from kingscrib.web.accounts import store as accounts
from kingscrib.web.accounts.deps import logged_in_account, session_account
from kingscrib.web.chat import store as chat_store
from kingscrib.web.chat.rooms import ChatHub, Reader, Speaker, speaker
from kingscrib.web.chat.schemas import ChatMessage, ChatRoom, Mutes, Reported
from kingscrib.web.db.row_ids import PathId
from kingscrib.web.errors import WebError
from kingscrib.web.play.deps import bearer, get_hub
from kingscrib.web.play.rooms import Hub
from kingscrib.web.play.sockets import (
    TOO_BIG,
    UNSUPPORTED,
    error_reply,
    hello_token,
    message_ref,
    serve_counted,
    unknown_type,
)
from kingscrib.web.server.limits import TokenBucket

router = APIRouter(tags=["chat"])

MAX_FRAME = 4096  # characters of one websocket message
QUEUE_LIMIT = 64  # messages waiting for a slow reader before it is dropped


class Say(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(max_length=2000)


class Mute(BaseModel):
    model_config = ConfigDict(extra="forbid")
    # An account (a guest's seat is one game's: the browser keeps those mutes).
    sender: str = Field(pattern=r"^a\d{1,12}$")
    muted: bool = True


def chat_hub(request: Request) -> ChatHub:
    chat: ChatHub = request.app.state.chat
    return chat


async def _account_write(request: Request, hub: Hub) -> Any:
    """The logged-in account of a cookie-authenticated write (CSRF checked), or None."""
    account, token = await session_account(hub, request.cookies)
    if account is None or token is None:
        return None
    sessions.check_same_origin(request.headers)
    sessions.check_csrf(token, request.headers)
    return account


async def _caller(request: Request, hub: Hub, game_id: str, token: str | None) -> Speaker:
    if token is None:  # a spectator writing with the session cookie: CSRF checked
        if request.method != "GET":
            await _account_write(request, hub)
    return await speaker(hub, game_id, token, request.cookies)


@router.get("/api/games/{game_id}/chat")
async def read_chat(game_id: str, request: Request, token: str | None = Depends(bearer),
                    hub: Hub = Depends(get_hub)) -> ChatRoom:
    """The caller's room of the game's chat (players with a seat token, else spectators):
    its last messages, oldest first, and who the caller is there."""
    who = await _caller(request, hub, game_id, token)
    return ChatRoom.model_validate({
        "room": who.room, "you": who.sender, "can_write": who.sender is not None,
        "players": who.players, "messages": await chat_hub(request).history(game_id, who)})


@router.post("/api/games/{game_id}/chat", status_code=201)
async def write_chat(game_id: str, body: Say, request: Request,
                     token: str | None = Depends(bearer),
                     hub: Hub = Depends(get_hub)) -> ChatMessage:
    """Send a message to the caller's room (refused, nothing stored, when too long, with
    control characters, too fast, or from a banned account)."""
    who = await _caller(request, hub, game_id, token)
    return ChatMessage.model_validate(await chat_hub(request).say(game_id, who, body.text))


@router.post("/api/chat/{message_id}/report", status_code=201)
async def report(message_id: PathId, request: Request, hub: Hub = Depends(get_hub)
                 ) -> Reported:
    """Report a message to the moderators: by a logged-in account, or by a guest player
    of that game (their seat token in ``Authorization``)."""
    engine = hub.store.engine
    message = await hub.db_call(chat_store.find, engine, message_id)
    if message is None:
        raise WebError(404, "no such message (a moderator may have hidden it already)")
    account = await _account_write(request, hub)
    if account is not None:
        reporter, reporter_id = account.name, account.id
        if message.room == chat_store.ROOMS[0] and await hub.db_call(
                accounts.seat_held, engine, message.game_id, account.id) is None:
            raise WebError(403, "only this game's players see its players' chat: you cannot"
                                " report a message you could not read")
    else:
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        room = await hub.get(message.game_id)
        seat = room.seat_of(token.strip()) if scheme.lower() == "bearer" else None
        if seat is None or message.room != chat_store.ROOMS[0]:
            raise WebError(403, "log in, or hold a seat of this game, to report a message")
        reporter, reporter_id = f"guest at seat {seat + 1}: {room.seats[seat].name}", None
    report_id = await hub.db_call(chat_store.report, engine, message_id, reporter[:80],
                                  reporter_id)
    if report_id is None:
        raise WebError(409, "you reported this message already: the moderators will see it")
    return Reported(report=report_id)


@router.get("/api/account/chat-mutes")
async def read_mutes(request: Request, hub: Hub = Depends(get_hub)) -> Mutes:
    """The senders this account muted (a guest's mutes stay in its browser)."""
    account = await logged_in_account(request, hub)
    return Mutes(muted=await hub.db_call(chat_store.mutes, hub.store.engine, account.id))


@router.put("/api/account/chat-mutes")
async def set_mute(body: Mute, request: Request, hub: Hub = Depends(get_hub)
                   ) -> Mutes:
    """Mute (or unmute) a sender, for this account only."""
    account = await _account_write(request, hub)
    if account is None:
        raise WebError(401, "you are not logged in")
    if body.sender == f"a{account.id}":
        raise WebError(400, "you cannot mute yourself")
    if not await hub.db_call(chat_store.mute, hub.store.engine, account.id, body.sender,
                             body.muted):
        raise WebError(429, f"you muted {chat_store.MAX_MUTES} senders, the most an account"
                            " may: unmute one first")
    return Mutes(muted=await hub.db_call(chat_store.mutes, hub.store.engine, account.id))


# ----- the websocket ----------------------------------------------------------------
@router.websocket("/api/games/{game_id}/chat/ws")
async def chat_socket(websocket: WebSocket, game_id: str) -> None:
    await serve_counted(websocket, lambda: _serve(websocket, game_id))


async def _serve(websocket: WebSocket, game_id: str) -> None:
    hub: Hub = websocket.app.state.hub
    chat: ChatHub = websocket.app.state.chat
    settings = websocket.app.state.settings.limits
    bucket = TokenBucket(settings.rate_per_second, settings.rate_burst)
    queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
    reader: Reader | None = None
    who: Speaker | None = None

    async def send(message: dict[str, Any]) -> None:
        if queue.qsize() > QUEUE_LIMIT:
            raise ConnectionError("too slow")
        queue.put_nowait(message)

    async def writer() -> None:
        while (message := await queue.get()) is not None:
            await websocket.send_text(json.dumps(message, separators=(",", ":")))

    writing = asyncio.create_task(writer())
    try:
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            text = frame.get("text")
            if text is None:
                await websocket.close(code=UNSUPPORTED, reason="messages are JSON text, not binary")
                break
            if len(text) > MAX_FRAME:
                await websocket.close(code=TOO_BIG, reason=f"message over {MAX_FRAME} characters")
                break
            if not bucket.allow():
                await send({"type": "error", "status": 429, "error": "too many messages: slow down"})
                continue
            try:
                message = jsontext.loads(text)
            except (ValueError, jsontext.TooDeep):
                message = None
            ref = message_ref(message)
            try:
                if not isinstance(message, dict):
                    raise WebError(400, "a message is a JSON object")
                kind = message.get("type")
                if kind == "hello":
                    if reader is not None:
                        raise WebError(400, "hello is sent once")
                    token = hello_token(message)
                    same_site = True
                    try:
                        sessions.check_same_origin(websocket.headers)
                    except WebError:
                        same_site = False  # another site's page: read only, as a guest
                    who = await speaker(hub, game_id, token or None, websocket.cookies,
                                        same_site)
                    reader = Reader(who.room, send)
                    chat.join(game_id, reader)
                    await send({"type": "chat_welcome", "room": who.room, "you": who.sender,
                                "can_write": who.sender is not None,
                                "players": who.players,
                                "messages": await chat.history(game_id, who)})
                elif who is None:
                    raise WebError(400, 'send {"type": "hello", "token": ...} first')
                elif kind == "say":
                    said = await chat.say(game_id, who, message.get("text"))
                    await send({"type": "ok", "ref": ref, "message": said})
                elif kind == "ping":
                    await send({"type": "pong", "ref": ref})
                else:
                    raise unknown_type(kind)
            except WebError as e:
                await send(error_reply(ref, e))
    except (WebSocketDisconnect, ConnectionError, RuntimeError):
        pass  # gone, or too slow
    finally:
        if reader is not None:
            chat.leave(game_id, reader)
        queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writing, 1.0)
        writing.cancel()


