"""After a game: its rematch (``kingscrib.web.play.rematch``) and replays of records."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request

from kingscrib.web.play import reviews
from kingscrib.web.play.cancel import cancel
from kingscrib.web.play.deps import bearer, get_hub, own_if_logged_in, seat_for
from kingscrib.web.play.models import (
    Analysis,
    AskAnalysis,
    Cancelled,
    Rematched,
    RematchOf,
    Replay,
)
from kingscrib.web.play.rematch import rematch, rematch_of
from kingscrib.web.play.replay import replay_of_record, replay_of_session
from kingscrib.web.play.rooms import Hub
from kingscrib.web.server.edge import client_address

router = APIRouter(prefix="/api/games", tags=["games"])


@router.get("/{game_id}/rematch")
async def get_rematch(game_id: str, hub: Hub = Depends(get_hub)) -> RematchOf:
    """``{"rematch": {"game_id": ...}}`` once someone started a rematch, else null."""
    room = await hub.get(game_id)
    return RematchOf.model_validate({"rematch": await rematch_of(hub, room.id)})


@router.post("/{game_id}/rematch")
async def post_rematch(game_id: str, request: Request, token: str | None = Depends(bearer),
                       hub: Hub = Depends(get_hub)) -> Rematched:
    """A player of the finished game asks for the rematch (started if need be, counted
    against the caller's games an hour) and is seated in it: ``{"game_id", "seat",
    "token", "invite"}``."""
    room = await hub.get(game_id)
    seat = await seat_for(hub, room, token)
    seated = await rematch(hub, room, seat, request.app.state.limits,
                           client_address(request.scope))
    await own_if_logged_in(request, hub, seated["game_id"], seated.get("token"))
    return Rematched.model_validate(seated)


@router.post("/replay", include_in_schema=True)
async def replay_record(record: dict[str, Any], request: Request,
                        hub: Hub = Depends(get_hub)) -> Replay:
    """A ``kingscrib-game/1`` record, checked by the engine, as the turns the page shows."""
    steps: dict[str, Any] = await hub.work.review(replay_of_record, record,
                                                  address=client_address(request.scope))
    return Replay.model_validate(steps)


@router.get("/{game_id}/replay")
async def get_replay(game_id: str, request: Request,
                     hub: Hub = Depends(get_hub)) -> Replay:
    """A game step by step up to now, as everyone saw the table after each action, for
    games that offer it (Kings replays read the game's own state, which holds every turn)."""
    room = await hub.get(game_id)
    return Replay.model_validate(await replay_of_session(
        hub, room.game, client_address(request.scope), room.id, room.seats))


@router.get("/{game_id}/analysis", response_model_exclude_unset=True)
async def get_analysis(game_id: str, hub: Hub = Depends(get_hub)) -> Analysis:
    """The analysis of a finished game: done (its turns), running (progress) or none."""
    room = await hub.get(game_id)
    return Analysis.model_validate(await reviews.status(hub, room))


@router.post("/{game_id}/analysis", status_code=202, response_model_exclude_unset=True)
async def post_analysis(game_id: str, request: Request, body: AskAnalysis | None = None,
                        token: str | None = Depends(bearer),
                        hub: Hub = Depends(get_hub)) -> Analysis:
    """Start analysing a finished game in the background: a player of the game (seat
    token) may, or the creator of a game of computers only (``{"invite": ...}``)."""
    room = await hub.get(game_id)
    return Analysis.model_validate(await reviews.start(
        hub, room, client_address(request.scope), await seat_for(hub, room, token),
        body.invite if body is not None else None))


@router.delete("/{game_id}")
async def cancel_game(game_id: str, token: str | None = Depends(bearer),
                      hub: Hub = Depends(get_hub)) -> Cancelled:
    """Cancel a game whose invited person never came (no person has played yet)."""
    room = await hub.get(game_id)
    await cancel(hub, room, await seat_for(hub, room, token))
    return Cancelled(cancelled=game_id)
