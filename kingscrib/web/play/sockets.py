"""What the websocket routes (a game's, its chat's, the lobby's) share: the close codes,
and admitting a socket against its address's limit of open sockets."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import WebSocket

from kingscrib.web.errors import WebError

# Close codes (RFC 6455): the client broke a rule, sent binary, invalid text, too much;
# the server cannot take it now.
POLICY, UNSUPPORTED, INVALID_TEXT, TOO_BIG, TRY_AGAIN = 1008, 1003, 1007, 1009, 1013


def client_address(websocket: WebSocket) -> str:
    return websocket.client.host if websocket.client else "?"


async def serve_counted(websocket: WebSocket, serve: Callable[[], Awaitable[None]]) -> None:
    """Accept the socket and ``serve`` it while it counts against its address's open
    sockets; close it at once when the count cannot be read (busy) or is full."""
    limits = websocket.app.state.limits
    address = client_address(websocket)
    await websocket.accept()
    try:
        allowed = await limits.open_socket(address)
    except Exception:
        await websocket.close(code=TRY_AGAIN, reason="the server is busy: try again")
        return
    if not allowed:
        await websocket.close(code=POLICY, reason="too many open websockets from your address")
        return
    try:
        await serve()
    finally:
        await limits.close_socket(address)


def message_ref(message: Any) -> int | str | None:
    """The ``ref`` a client gave its message, echoed in the reply (a short number or text;
    anything else is dropped)."""
    ref = message.get("ref") if isinstance(message, dict) else None
    return ref if isinstance(ref, int | str) and len(str(ref)) <= 40 else None


def hello_token(message: dict[str, Any]) -> str | None:
    """The seat token of a ``hello`` message (none or empty: a guest or spectator)."""
    token = message.get("token")
    if token is not None and not (isinstance(token, str) and len(token) <= 200):
        raise WebError(400, "token is the seat's secret text")
    return token


def unknown_type(kind: Any) -> WebError:
    return WebError(400, f"unknown message type {str(kind)[:40]!r}")


def error_reply(ref: int | str | None, e: WebError) -> dict[str, Any]:
    return {"type": "error", "ref": ref, "status": e.status, "error": e.message}


__all__ = ["INVALID_TEXT", "POLICY", "TOO_BIG", "TRY_AGAIN", "UNSUPPORTED", "client_address",
           "error_reply", "hello_token", "message_ref", "serve_counted", "unknown_type"]
