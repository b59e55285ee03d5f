"""Games: create, look, join, preview, hint, act, download the record."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Body, Depends, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import ValidationError

from kingscrib.web.accounts import sessions
from kingscrib.web.accounts import store as accounts
from kingscrib.web.accounts.deps import session_account
from kingscrib.web.errors import WebError
from kingscrib.web.play import last_known
from kingscrib.web.play.clocks import check_clock
from kingscrib.web.play.deps import (
    bearer,
    get_hub,
    own_if_logged_in,
    rated_seat_allowed,
    refuse_banned,
    refuse_banned_name,
    seat_for,
)
from kingscrib.web.play.endings import resign
from kingscrib.web.play.finish import game_over
from kingscrib.web.play.models import (
    HINTS,
    Created,
    CreateGame,
    CribbageHint,
    GameState,
    Joined,
    JoinGame,
    KingsHint,
    Preview,
    Tiles,
    action_spec,
)
from kingscrib.web.play.rooms import Hub
from kingscrib.web.server.edge import client_address

router = APIRouter(prefix="/api/games", tags=["games"])


@router.post("", response_model=Created, status_code=201)
async def create_game(body: CreateGame, request: Request,
                      hub: Hub = Depends(get_hub)) -> Created:
    """Start a game; the creator takes the first human seat. A game refused (bad input,
    another limit) is not counted against the address's games an hour."""
    await refuse_banned(request, hub, "create games")
    await refuse_banned_name(hub, [s.name for s in body.seats if s.kind == "human"])
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


@router.get("/{game_id}", response_model=GameState)
async def get_game(game_id: str, token: str | None = Depends(bearer),
                   hub: Hub = Depends(get_hub)) -> Response:
    """The game as the caller's seat sees it (a spectator without a token). Sent as the
    text the room keeps encoded (``views.state_text``): a poller costs little; it holds
    the fields of ``GameState``."""
    room = await hub.get(game_id)
    return Response(hub.state_text(room, await seat_for(hub, room, token)),
                    media_type="application/json")


@router.post("/{game_id}/join", response_model=Joined)
async def join_game(game_id: str, body: JoinGame, request: Request,
                    hub: Hub = Depends(get_hub)) -> Joined:
    await refuse_banned(request, hub, "join games")
    await refuse_banned_name(hub, [body.name])
    room = await hub.get(game_id)
    if room.rated:
        await rated_seat_allowed(request, hub, "take a seat in a rated game")
    account, _session = await session_account(hub, request.cookies)
    if account is not None:  # one account, one seat: it would play against itself
        held = await hub.db_call(accounts.seat_held, hub.store.engine, room.id, account.id)
        if held is not None:
            raise WebError(409, f"your account {account.name} holds seat {held + 1} of this"
                                " game already: an account plays one seat of a game")
    seat, token = await hub.join(room, body.invite, body.seat, body.name)
    await own_if_logged_in(request, hub, room.id, token)
    return Joined(seat=seat, token=token)


@router.post("/{game_id}/seat", response_model=Joined)
async def my_seat(game_id: str, request: Request, hub: Hub = Depends(get_hub)) -> Joined:
    """The logged-in account's seat of this game (a tournament's pairing, a seat taken
    on another browser) with a new token: seat tokens are kept hashed, so a seat is
    handed again by its account's session; the seat's older token opens nothing any
    more."""
    sessions.check_same_origin(request.headers)
    account, session = await session_account(hub, request.cookies)
    if account is None or session is None:
        raise WebError(401, "log in to take your seat")
    sessions.check_csrf(session, request.headers)
    await refuse_banned(request, hub, "play")
    room = await hub.get(game_id)
    seat = await hub.db_call(accounts.seat_held, hub.store.engine, room.id, account.id)
    if seat is None:
        raise WebError(404, f"your account {account.name} holds no seat of this game")
    token = await hub.reissue(room, seat)
    await last_known.seat_owners(hub, room.id)
    return Joined(seat=seat, token=token)


@router.post("/{game_id}/preview")
async def preview(game_id: str, body: Tiles, token: str | None = Depends(bearer),
                  hub: Hub = Depends(get_hub)) -> Preview:
    """What a play would score, hand by hand, without playing it."""
    room = await hub.get(game_id)
    return Preview.model_validate(hub.preview(room, await seat_for(hub, room, token),
                                              body.tiles))


@router.post("/{game_id}/hint")
async def hint(game_id: str, request: Request, token: str | None = Depends(bearer),
               hub: Hub = Depends(get_hub)) -> KingsHint | CribbageHint:
    """The best play for the caller's rack: for the seat to move, where hints are on."""
    room = await hub.get(game_id)
    return HINTS.validate_python(await hub.hint(room, await seat_for(hub, room, token),
                                                client_address(request.scope)))


@router.post("/{game_id}/actions")
async def act(game_id: str, body: dict[str, Any] = Body(), token: str | None = Depends(bearer),
              hub: Hub = Depends(get_hub)) -> GameState:
    """An action of the game (Kings: play, exchange, pass or call Joker; Cribbage:
    discard, play, go or claim); returns the game as the seat now sees it."""
    try:
        action = action_spec().model_validate(body)
    except ValidationError as e:
        raise RequestValidationError(e.errors()) from None
    room = await hub.get(game_id)
    seat = await seat_for(hub, room, token)
    await hub.act(room, seat, action.model_dump(exclude_none=True))
    return GameState.model_validate(hub.state(room, seat))


@router.post("/{game_id}/resign")
async def resign_game(game_id: str, token: str | None = Depends(bearer),
                      hub: Hub = Depends(get_hub)) -> GameState:
    """The caller resigns: the game ends and their side loses (docs/web.md)."""
    room = await hub.get(game_id)
    await resign(hub, room, await seat_for(hub, room, token))
    return GameState.model_validate(hub.state(room, room.seat_of(token)))


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
