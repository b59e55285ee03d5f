"""Server facts the page needs: computer levels, rule defaults."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from kingscrib.players import level_names
from kingscrib.web.play.games import DEFAULT_GAME, game_kind, game_names
from kingscrib.web.play.models import Levels
from kingscrib.web.server.health import OK, readiness

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
    # What the page shows of each level (kingscrib.players.level_names), and the gentle level a
    # newcomer's lobby preselects.
    names = {name: {level: {"title": level_names.title(name, level),
                            "line": level_names.describe(name, level).line}
                    for level in game_kind(name).levels()} for name in game_names()}
    gentle = {name: level_names.GENTLE_DEFAULT
              if level_names.GENTLE_DEFAULT in game_kind(name).levels()
              else game_kind(name).default_level() for name in game_names()}
    return Levels(levels=default.levels(), rules=default.check_rules({}, low),
                  players={"min": low, "max": high}, games=games, names=names,
                  gentle=gentle)


@router.get("/health")
def health(request: Request) -> dict[str, Any]:
    """The process serves (as ``/api/health/live``). ``processes``: the server processes
    sharing this one's database and alive (1 on SQLite)."""
    return {"status": "ok", "processes": request.app.state.limits.processes}


@router.get("/health/live")
def health_live() -> dict[str, str]:
    """200 while the process answers at all (restart it when this fails)."""
    return {"status": "ok"}


@router.get("/health/ready", responses={503: {"description": "not ready: the failing checks"}})
async def health_ready(request: Request) -> JSONResponse:
    """200 when this process can serve games: the database answers, its schema is
    current and (PostgreSQL) the LISTEN connection is up; 503 naming what is not."""
    checks = await readiness(request.app.state.hub)
    failing = {name: said for name, said in checks.items() if said != OK}
    if not failing:
        return JSONResponse({"status": "ready", "checks": checks})
    return JSONResponse({"status": "not ready", "checks": checks,
                         "error": "not ready: " + "; ".join(f"{name}: {said}"
                                                            for name, said in failing.items())},
                        status_code=503)
