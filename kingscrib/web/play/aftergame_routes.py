"""After a game: its rematch (``kingscrib.web.play.rematch``) and replays of records."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request

from kingscrib.web.play import reviews
from kingscrib.web.play.cancel import cancel
from kingscrib.web.play.models import AskAnalysis
from kingscrib.web.play.rematch import rematch, rematch_of
from kingscrib.web.play.replay import replay_of_record, replay_of_session
from kingscrib.web.play.rooms import Hub
from kingscrib.web.server.deps import bearer, get_hub, own_if_logged_in, seat_for
from kingscrib.web.server.edge import client_address

router = APIRouter(prefix="/api/games", tags=["games"])


@router.get("/{game_id}/rematch")
async def get_rematch(game_id: str, hub: Hub = Depends(get_hub)) -> dict[str, Any]:
    """``{"rematch": {"game_id": ...}}`` once someone started a rematch, else null."""
    room = await hub.get(game_id)
    return {"rematch": await rematch_of(hub, room.id)}


@router.post("/{game_id}/rematch")
async def post_rematch(game_id: str, request: Request, token: str | None = Depends(bearer),
                       hub: Hub = Depends(get_hub)) -> dict[str, Any]:
    """A player of the finished game asks for the rematch (started if need be, counted
    against the caller's games an hour) and is seated in it: ``{"game_id", "seat",
    "token", "invite"}``."""
    room = await hub.get(game_id)
    seat = await seat_for(hub, room, token)
    seated = await rematch(hub, room, seat, request.app.state.limits,
                           client_address(request.scope))
    await own_if_logged_in(request, hub, seated["game_id"], seated.get("token"))
    return seated


@router.post("/replay", include_in_schema=True)
async def replay_record(record: dict[str, Any], request: Request,
                        hub: Hub = Depends(get_hub)) -> dict[str, Any]:
    """A ``kingscrib-game/1`` record, checked by the engine, as the turns the page shows."""
    steps: dict[str, Any] = await hub.work.review(replay_of_record, record,
                                                  address=client_address(request.scope))
    return steps


@router.get("/{game_id}/replay")
async def get_replay(game_id: str, request: Request,
                     hub: Hub = Depends(get_hub)) -> dict[str, Any]:
    """A game step by step up to now, as everyone saw the table after each action, for
    games that offer it (Kings replays read the game's own state, which holds every turn)."""
    room = await hub.get(game_id)
    return await replay_of_session(hub, room.game, client_address(request.scope), room.id,
                                   room.seats)


@router.get("/{game_id}/analysis")
async def get_analysis(game_id: str, hub: Hub = Depends(get_hub)) -> dict[str, Any]:
    """The analysis of a finished game: done (its turns), running (progress) or none."""
    room = await hub.get(game_id)
    return await reviews.status(hub, room)


@router.post("/{game_id}/analysis", status_code=202)
async def post_analysis(game_id: str, request: Request, body: AskAnalysis | None = None,
                        token: str | None = Depends(bearer),
                        hub: Hub = Depends(get_hub)) -> dict[str, Any]:
    """Start analysing a finished game in the background: a player of the game (seat
    token) may, or the creator of a game of computers only (``{"invite": ...}``)."""
    room = await hub.get(game_id)
    return await reviews.start(hub, room, client_address(request.scope),
                               await seat_for(hub, room, token),
                               body.invite if body is not None else None)


@router.delete("/{game_id}")
async def cancel_game(game_id: str, token: str | None = Depends(bearer),
                      hub: Hub = Depends(get_hub)) -> dict[str, Any]:
    """Cancel a game whose invited person never came (no person has played yet)."""
    room = await hub.get(game_id)
    await cancel(hub, room, await seat_for(hub, room, token))
    return {"cancelled": game_id}
