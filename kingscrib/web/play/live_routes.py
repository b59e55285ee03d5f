"""The websocket of a game: live updates out, actions in.

The client's first message is ``{"type": "hello", "token": "..."}`` (no token:
a spectator); the reply is ``{"type": "welcome"}`` then the whole game as
``{"type": "state", "state": {...}}``. Then ``{"type": "action", "action": ...}``,
``{"type": "preview", "tiles": {...}}``, ``{"type": "hint"}``, ``{"type": "resign"}``,
``{"type": "ping"}``
and ``{"type": "sync"}`` (the whole state again); each gets a reply. Every change
reaches every listener as ``{"type": "update", "update": {...}}``: only what changed
since the last update (see ``Hub.broadcast``). Errors come back as ``{"type":
"error", "error": "...", "status": n}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from kingscrib.web import jsontext
from kingscrib.web.errors import WebError
from kingscrib.web.play.deps import guard_seat
from kingscrib.web.play.endings import resign
from kingscrib.web.play.room import Listener
from kingscrib.web.play.rooms import Hub
from kingscrib.web.play.sockets import (
    INVALID_TEXT,
    POLICY,
    TOO_BIG,
    TRY_AGAIN,
    UNSUPPORTED,
    client_address,
    error_reply,
    hello_token,
    message_ref,
    unknown_type,
)
from kingscrib.web.server import metrics
from kingscrib.web.server.limits import AddressLimits, LimitSettings, TokenBucket

router = APIRouter(tags=["live"])

MAX_MESSAGE = 4096  # characters
QUEUE_LIMIT = 64  # messages waiting for a slow client before it is dropped
FLOOD = 20  # messages refused in a row for their rate before the socket is closed
log = logging.getLogger("kingscrib.web")


@router.websocket("/api/games/{game_id}/ws")
async def game_socket(websocket: WebSocket, game_id: str) -> None:
    hub = websocket.app.state.hub
    settings = websocket.app.state.settings
    limits: AddressLimits = websocket.app.state.limits
    address = client_address(websocket)
    await websocket.accept()
    try:
        allowed = await limits.open_socket(address)
    except WebError as e:  # the shared count's database cannot be reached (PostgreSQL)
        await websocket.send_json({"type": "error", "error": e.message, "status": e.status})
        await websocket.close(code=TRY_AGAIN, reason="the database cannot be reached: try again")
        return
    except Exception:  # the shared count (PostgreSQL) could not be read
        log.exception("could not count a websocket")
        await websocket.close(code=TRY_AGAIN, reason="the server is busy: try again")
        return
    if not allowed:
        await websocket.close(code=POLICY, reason="too many open websockets from your address")
        return
    metrics.WEBSOCKETS.inc()
    try:
        await _serve(websocket, hub, settings.limits, limits, address, game_id)
    finally:
        metrics.WEBSOCKETS.dec()
        await limits.close_socket(address)


async def _serve(websocket: WebSocket, hub: Hub, limit: LimitSettings, limits: AddressLimits,
                 address: str, game_id: str) -> None:
    try:
        room = await hub.get(game_id)
    except WebError as e:
        await websocket.send_json({"type": "error", "error": e.message, "status": e.status})
        await websocket.close(code=TRY_AGAIN if e.status == 503 else 4404)
        return
    queue: asyncio.Queue[dict[str, Any] | str | None] = asyncio.Queue()
    closing: list[asyncio.Task[None]] = []

    async def close(code: int, reason: str) -> None:
        writing.cancel()
        with contextlib.suppress(Exception):
            await websocket.close(code=code, reason=reason)

    async def send(message: dict[str, Any] | str) -> None:
        if closing:
            raise ConnectionError("closing")
        if queue.qsize() > QUEUE_LIMIT:
            closing.append(asyncio.ensure_future(
                close(POLICY, "too slow: the messages sent to you piled up")))
            raise ConnectionError("client too slow")
        queue.put_nowait(message)

    async def writer() -> None:
        while True:
            message = await queue.get()
            if message is None:
                return
            if not isinstance(message, str):
                message = json.dumps(message, separators=(",", ":"))
            await websocket.send_text(message)

    bucket = TokenBucket(limit.rate_per_second, limit.rate_burst)
    refused = 0  # messages refused in a row for their rate
    listener: Listener | None = None
    writing = asyncio.create_task(writer())
    try:
        while not closing:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            text = frame.get("text")
            if text is None:
                await close(UNSUPPORTED, "messages are JSON text, not binary")
                break
            allowed = bucket.allow()
            if not allowed:
                metrics.refused("rate_per_second")
            if not (allowed and limits.allow_request(address)):
                refused += 1
                if refused >= FLOOD:
                    await close(POLICY, "too many messages: slow down")
                    break
                if queue.qsize() < QUEUE_LIMIT // 2:
                    await send({"type": "error", "status": 429,
                                "error": "too many messages: slow down"})
                continue
            refused = 0
            if len(text) > MAX_MESSAGE:
                metrics.refused("max_message")
                await close(TOO_BIG, f"message over {MAX_MESSAGE} characters")
                break
            try:
                message = jsontext.loads(text)
            except jsontext.BadText as e:
                await close(INVALID_TEXT, f"invalid text: {e}"[:120])
                break
            except jsontext.TooDeep as e:
                await close(TOO_BIG, str(e))
                break
            except ValueError:
                message = None
            if not isinstance(message, dict):
                await send({"type": "error", "status": 400, "error": "a message is a JSON object"})
                continue
            kind = message.get("type")
            ref = message_ref(message)
            try:
                if kind == "hello":
                    if listener is not None:
                        raise WebError(400, "hello is sent once")
                    token = hello_token(message)
                    if token:  # an account's seat: only with its session
                        await guard_seat(hub, websocket.cookies, room.id, token)
                    seat = await hub.seat_or_refresh(room, token)
                    if token and seat is None:
                        raise WebError(401, "this seat token does not open a seat of this game")
                    listener = Listener(seat, send)
                    room.listeners.add(listener)
                    await send({"type": "welcome", "seat": seat})
                    await send(hub.state_message(room, seat))
                    await hub.broadcast(room)  # everyone sees who is online
                    continue
                if listener is None:
                    raise WebError(400, 'send {"type": "hello", "token": ...} first')
                if kind == "action":
                    body = {k: v for k, v in message.items() if k not in ("type", "ref")}
                    await hub.act(room, listener.seat, body)
                    await send({"type": "ok", "ref": ref, "version": room.version})
                elif kind == "preview":
                    await send({"type": "preview", "ref": ref,
                                "preview": hub.preview(room, listener.seat, message.get("tiles"))})
                elif kind == "hint":
                    await send({"type": "hint", "ref": ref,
                                "hint": await hub.hint(room, listener.seat, address)})
                elif kind == "resign":
                    await resign(hub, room, listener.seat)
                    await send({"type": "ok", "ref": ref, "version": room.version})
                elif kind == "sync":
                    await send(hub.state_message(room, listener.seat))
                elif kind == "ping":
                    await send({"type": "pong", "ref": ref})
                else:
                    raise unknown_type(kind)
            except WebError as e:
                await send(error_reply(ref, e))
    except (WebSocketDisconnect, ConnectionError, RuntimeError):
        pass
    finally:
        if listener is not None:
            room.listeners.discard(listener)
            await hub.broadcast(room)
        queue.put_nowait(None)
        if closing:
            await asyncio.gather(*closing, return_exceptions=True)
        writing.cancel()
