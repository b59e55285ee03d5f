"""The websocket of a game: live updates out, actions in.

The client's first message is ``{"type": "hello", "token": "..."}`` (no token:
a spectator); the reply is ``{"type": "welcome"}`` then the whole game as
``{"type": "state", "state": {...}}``. Then ``{"type": "action", "action": ...}``,
``{"type": "preview", "tiles": {...}}``, ``{"type": "hint"}``, ``{"type": "ping"}``
and ``{"type": "sync"}`` (the whole state again); each gets a reply. Every change
reaches every listener as ``{"type": "update", "update": {...}}``: only what changed
since the last update (see ``Hub.broadcast``). Errors come back as ``{"type":
"error", "error": "...", "status": n}``.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from kingscrib.web.limits import TokenBucket
from kingscrib.web.rooms import Listener, WebError

router = APIRouter(tags=["live"])

MAX_MESSAGE = 4096  # characters
QUEUE_LIMIT = 64  # messages waiting for a slow client before it is dropped


@router.websocket("/api/games/{game_id}/ws")
async def game_socket(websocket: WebSocket, game_id: str) -> None:
    hub = websocket.app.state.hub
    settings = websocket.app.state.settings
    await websocket.accept()
    try:
        room = await hub.get(game_id)
    except WebError as e:
        await websocket.send_json({"type": "error", "error": e.message, "status": e.status})
        await websocket.close(code=4404)
        return
    queue: asyncio.Queue[dict[str, Any] | str | None] = asyncio.Queue()

    async def send(message: dict[str, Any] | str) -> None:
        if queue.qsize() > QUEUE_LIMIT:
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

    bucket = TokenBucket(settings.rate_per_second, settings.rate_burst)
    listener: Listener | None = None
    writing = asyncio.create_task(writer())
    try:
        while True:
            text = await websocket.receive_text()
            if not bucket.allow():
                await send({"type": "error", "status": 429,
                            "error": "too many messages: slow down"})
                continue
            if len(text) > MAX_MESSAGE:
                await send({"type": "error", "status": 413,
                            "error": f"message too long (over {MAX_MESSAGE} characters)"})
                continue
            try:
                message = json.loads(text)
                if not isinstance(message, dict):
                    raise ValueError
            except ValueError:
                await send({"type": "error", "status": 400, "error": "a message is a JSON object"})
                continue
            kind = message.get("type")
            ref = message.get("ref")
            try:
                if kind == "hello":
                    if listener is not None:
                        raise WebError(400, "hello is sent once")
                    token = message.get("token")
                    seat = room.seat_of(token if isinstance(token, str) else None)
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
                                "hint": await hub.hint(room, listener.seat)})
                elif kind == "sync":
                    await send(hub.state_message(room, listener.seat))
                elif kind == "ping":
                    await send({"type": "pong", "ref": ref})
                else:
                    raise WebError(400, f"unknown message type {kind!r}")
            except WebError as e:
                await send({"type": "error", "ref": ref, "status": e.status, "error": e.message})
    except (WebSocketDisconnect, ConnectionError, RuntimeError):
        pass
    finally:
        if listener is not None:
            room.listeners.discard(listener)
            await hub.broadcast(room)
        queue.put_nowait(None)
        writing.cancel()
