"""Server facts the page needs: computer levels, rule defaults."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from kingscrib.web.games import DEFAULT_GAME, game_kind, game_names
from kingscrib.web.models import Levels

router = APIRouter(prefix="/api", tags=["meta"])


@router.get("/levels", response_model=Levels)
def levels() -> Levels:
    """Each game's computer levels (read from its player registry) and seats; at the top
    level, the default game's levels, rule defaults and seats."""
    games = {}
    for name in game_names():
        kind = game_kind(name)
        low, high = kind.seats_allowed()
        games[name] = {"title": kind.title, "levels": kind.levels(),
                       "default_level": kind.default_level(), "seats": {"min": low, "max": high}}
    default = game_kind(DEFAULT_GAME)
    low, high = default.seats_allowed()
    return Levels(levels=default.levels(), rules=default.check_rules({}, low),
                  players={"min": low, "max": high}, games=games)


@router.get("/health")
def health(request: Request) -> dict[str, Any]:
    """``processes``: the server processes sharing this one's database and alive
    (1 on SQLite)."""
    return {"status": "ok", "processes": request.app.state.limits.processes}
