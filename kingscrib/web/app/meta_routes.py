"""Server facts the page needs: computer levels, rule defaults."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from kingscrib.players import level_names
from kingscrib.web.app.health import OK, readiness
from kingscrib.web.play.games import DEFAULT_GAME, game_kind, game_names
from kingscrib.web.play.games.protocol import levels_shown
from kingscrib.web.play.models import Levels
from kingscrib.web.server.schemas import Health, Live, Readiness

router = APIRouter(prefix="/api", tags=["meta"])


def shown_as(game: str, level: str) -> str:
    """The level a list shows for ``level``: the one an alias plays as (``greedy``:
    ``medium``), else itself."""
    return level_names.describe(game, level).same_as or level


@router.get("/levels", response_model=Levels)
def levels() -> Levels:
    """Each game's computer levels (read from its player registry), weakest first and
    each once (an alias such as Kings' ``greedy``, the player ``medium`` is, is not
    listed; the API still takes it) and seats; at the top level, the default game's
    levels, rule defaults and seats."""
    games = {}
    for name in game_names():
        kind = game_kind(name)
        low, high = kind.seats_allowed()
        games[name] = {"title": kind.title, "levels": levels_shown(name, kind.levels()),
                       "default_level": shown_as(name, kind.default_level()),
                       "seats": {"min": low, "max": high}}
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
    return Levels(levels=levels_shown(DEFAULT_GAME, default.levels()), rules=default.check_rules({}, low),
                  players={"min": low, "max": high}, games=games, names=names,
                  gentle=gentle)


@router.get("/health")
def health(request: Request) -> Health:
    """The process serves (as ``/api/health/live``). ``processes``: the server processes
    sharing this one's database and alive (1 on SQLite)."""
    return Health(status="ok", processes=request.app.state.limits.processes)


@router.get("/health/live")
def health_live() -> Live:
    """200 while the process answers at all (restart it when this fails)."""
    return Live(status="ok")


@router.get("/health/ready", response_model=Readiness, response_model_exclude_unset=True,
            responses={503: {"model": Readiness,
                             "description": "not ready: the failing checks"}})
async def health_ready(request: Request, response: Response) -> Readiness:
    """200 when this process can serve games: the database answers, its schema is
    current and (PostgreSQL) the LISTEN connection is up; 503 naming what is not."""
    checks = await readiness(request.app.state.hub)
    failing = {name: said for name, said in checks.items() if said != OK}
    if not failing:
        return Readiness(status="ready", checks=checks)
    response.status_code = 503
    return Readiness(status="not ready", checks=checks,
                     error="not ready: " + "; ".join(f"{name}: {said}"
                                                     for name, said in failing.items()))
