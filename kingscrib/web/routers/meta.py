"""Server facts the page needs: computer levels, rule defaults."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from kingscrib.kings.game import MAX_PLAYERS, MIN_PLAYERS
from kingscrib.kings.rules import RuleSet
from kingscrib.players.kings import PLAYERS
from kingscrib.web.games import KINDS, game_kind
from kingscrib.web.models import Levels

router = APIRouter(prefix="/api", tags=["meta"])


@router.get("/levels", response_model=Levels)
def levels() -> Levels:
    """The computer levels (read from the player registry) and the rule defaults."""
    games = {}
    for name in KINDS:
        kind = game_kind(name)
        low, high = kind.seats_allowed()
        games[name] = {"title": kind.title, "levels": kind.levels(),
                       "default_level": kind.default_level(), "seats": {"min": low, "max": high}}
    return Levels(levels=list(PLAYERS), rules=RuleSet().to_json(),
                  players={"min": MIN_PLAYERS, "max": MAX_PLAYERS}, games=games)


@router.get("/health")
def health(request: Request) -> dict[str, Any]:
    """``processes``: the server processes sharing this one's database and alive
    (1 on SQLite)."""
    return {"status": "ok", "processes": request.app.state.limits.processes}
