"""Games: create, look, join, preview, hint, act, download the record."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Body, Depends, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import ValidationError

from kingscrib.web.errors import WebError
from kingscrib.web.play.clocks import check_clock
from kingscrib.web.play.endings import resign
from kingscrib.web.play.finish import game_over
from kingscrib.web.play.models import Created, CreateGame, Joined, JoinGame, Tiles, action_spec
from kingscrib.web.play.rooms import Hub
from kingscrib.web.server.deps import (
    bearer,
    get_hub,
    own_if_logged_in,
    rated_seat_allowed,
    refuse_banned,
    seat_for,
)
from kingscrib.web.server.edge import client_address

router = APIRouter(prefix="/api/games", tags=["games"])


@router.post("", response_model=Created, status_code=201)
async def create_game(body: CreateGame, request: Request,
                      hub: Hub = Depends(get_hub)) -> Created:
    """Start a game; the creator takes the first human seat. A game refused (bad input,
    another limit) is not counted against the address's games an hour."""
    await refuse_banned(request, hub, "create games")
    if body.rated:
        await rated_seat_allowed(request, hub, "create a rated game")
    async with request.app.state.limits.creating_game(client_address(request.scope)):
        clock = check_clock(body.clock_seconds, body.clock_overtime, body.game,
                            body.clock_days_per_move)
        room, seat, token, invite = await hub.create(
            [s.model_dump() for s in body.seats], body.rules, body.seed, body.game, body.hints,
            clock=clock, address=client_address(request.scope), rated=body.rated)
    await own_if_logged_in(request, hub, room.id, token)
    return Created(game_id=room.id, seat=seat, token=token, invite=invite,
                   state=hub.state(room, seat))


@router.get("/{game_id}", response_class=Response,
            responses={200: {"content": {"application/json": {"schema": {"type": "object"}}}}})
async def get_game(game_id: str, token: str | None = Depends(bearer),
                   hub: Hub = Depends(get_hub)) -> Response:
    """The game as the caller's seat sees it (a spectator without a token)."""
    room = await hub.get(game_id)
    return Response(hub.state_text(room, await seat_for(hub, room, token)),
                    media_type="application/json")


@router.post("/{game_id}/join", response_model=Joined)
async def join_game(game_id: str, body: JoinGame, request: Request,
                    hub: Hub = Depends(get_hub)) -> Joined:
    await refuse_banned(request, hub, "join games")
    room = await hub.get(game_id)
    if room.rated:
        await rated_seat_allowed(request, hub, "take a seat in a rated game")
    seat, token = await hub.join(room, body.invite, body.seat, body.name)
    await own_if_logged_in(request, hub, room.id, token)
    return Joined(seat=seat, token=token)


@router.post("/{game_id}/preview")
async def preview(game_id: str, body: Tiles, token: str | None = Depends(bearer),
                  hub: Hub = Depends(get_hub)) -> dict[str, Any]:
    """What a play would score, hand by hand, without playing it."""
    room = await hub.get(game_id)
    return hub.preview(room, await seat_for(hub, room, token), body.tiles)


@router.post("/{game_id}/hint")
async def hint(game_id: str, request: Request, token: str | None = Depends(bearer),
               hub: Hub = Depends(get_hub)) -> dict[str, Any]:
    """The best play for the caller's rack: for the seat to move, where hints are on."""
    room = await hub.get(game_id)
    return await hub.hint(room, await seat_for(hub, room, token), client_address(request.scope))


@router.post("/{game_id}/actions")
async def act(game_id: str, body: dict[str, Any] = Body(), token: str | None = Depends(bearer),
              hub: Hub = Depends(get_hub)) -> dict[str, Any]:
    """An action of the game (Kings: play, exchange, pass or call Joker; Cribbage:
    discard, play, go or claim); returns the game as the seat now sees it."""
    try:
        action = action_spec().model_validate(body)
    except ValidationError as e:
        raise RequestValidationError(e.errors()) from None
    room = await hub.get(game_id)
    seat = await seat_for(hub, room, token)
    await hub.act(room, seat, action.model_dump(exclude_none=True))
    return hub.state(room, seat)


@router.post("/{game_id}/resign")
async def resign_game(game_id: str, token: str | None = Depends(bearer),
                      hub: Hub = Depends(get_hub)) -> dict[str, Any]:
    """The caller resigns: the game ends and their side loses (docs/web.md)."""
    room = await hub.get(game_id)
    await resign(hub, room, await seat_for(hub, room, token))
    return hub.state(room, room.seat_of(token))


@router.get("/{game_id}/record")
async def record(game_id: str, hub: Hub = Depends(get_hub)) -> JSONResponse:
    """The game record (RULES.md Part 3), once the game is over or was closed for being
    left untouched (it shows every hand)."""
    room = await hub.get(game_id)
    if not (game_over(room) or room.closed or room.result is not None):
        raise WebError(409, "the record is available when the game is over")
    seats = [{"kind": s.kind, **({"level": s.level} if s.level else {})} for s in room.seats]
    data = room.game.record(seats)
    if room.result is not None:  # a resignation, a time-out or overtime penalties
        data["result"] = room.result
    return JSONResponse(data, headers={
        "Content-Disposition": f'attachment; filename="{room.kind}-{room.id}.json"'})
