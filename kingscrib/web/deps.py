"""Shared pieces of the routers: the hub, the caller's seat."""

from __future__ import annotations

from fastapi import Header, Request

from kingscrib.web.rooms import Hub, Room


def get_hub(request: Request) -> Hub:
    return request.app.state.hub


def bearer(authorization: str | None = Header(default=None, max_length=200)) -> str | None:
    """The seat token of ``Authorization: Bearer <token>`` (None: a spectator)."""
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


async def seat_for(hub: Hub, room: Room, token: str | None) -> int | None:
    """The caller's seat (None: a spectator); 401 for a token of no seat of this game."""
    from kingscrib.web.rooms import WebError

    seat = await hub.seat_or_refresh(room, token)
    if token and seat is None:
        raise WebError(401, "this seat token does not open a seat of this game")
    return seat
