"""Tournaments and teams: create, list, look, join, withdraw, enter computers; the two
pages that show them. The director (:mod:`kingscrib.web.tournaments.director`) runs them.

Every write needs a logged-in account (its session cookie, the page's CSRF token and a
request from this site's pages), as the account's own writes do.
"""

from __future__ import annotations

import operator
import time
from typing import Any, Literal

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.engine import Engine

from kingscrib.players import level_names
from kingscrib.web import pages
from kingscrib.web.accounts import sessions
from kingscrib.web.accounts.routes import logged_in
from kingscrib.web.accounts.store import Account
from kingscrib.web.db.row_ids import BodyId, PathId
from kingscrib.web.errors import WebError
from kingscrib.web.play.clocks import check_clock
from kingscrib.web.play.games import game_kind, game_names
from kingscrib.web.play.rooms import Hub
from kingscrib.web.ratings import store as ratings
from kingscrib.web.server.deps import get_hub
from kingscrib.web.tournaments import store

router = APIRouter(tags=["tournaments"])
MAX_AHEAD = 30 * 24 * 3600  # a tournament starts within 30 days


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewTournament(_Strict):
    name: str = Field(min_length=1, max_length=60)
    game: str = Field(default="kings", max_length=16)
    format: Literal["round_robin", "swiss", "arena", "match"] = "swiss"
    rated: bool = False
    clock_seconds: int | None = None
    clock_overtime: int | None = None
    starts_in: int = Field(default=300, ge=0, le=MAX_AHEAD,
                           description="seconds from now until it starts")
    max_players: int = Field(default=16, ge=2, le=500)
    min_rating: int | None = Field(default=None, ge=0, le=4000)
    max_rating: int | None = Field(default=None, ge=0, le=4000)
    mirrored: bool = Field(default=False, description=(
        "each pairing plays two games on one deal seed, seats swapped"))
    partners: bool = Field(default=False, description=(
        "Cribbage for four: each entrant is a team of two partners, sitting opposite"))
    rounds: int | None = Field(default=None, ge=1, le=30, description="Swiss: rounds")
    minutes: int | None = Field(default=None, ge=1, le=600,
                                description="arena: minutes of pairing")
    no_show: int = Field(default=120, ge=5, le=3600, description=(
        "seconds a player has for their first move before the game is resigned for them"))
    team_best: int = Field(default=2, ge=1, le=20,
                           description="team standings: each team's best N count")
    team_a: int | None = Field(default=None, description="a team match: the two teams")
    team_b: int | None = None


class Entry(_Strict):
    team_id: BodyId | None = None


class ComputerEntry(_Strict):
    level: str = Field(max_length=40)


class NewTeam(_Strict):
    name: str = Field(min_length=1, max_length=40)


async def _writer(request: Request, hub: Hub) -> Account:
    """The logged-in caller of a write (same site, CSRF token checked)."""
    sessions.check_same_origin(request.headers)
    account, token = await logged_in(request, hub)
    sessions.check_csrf(token, request.headers)
    return account


async def _call(hub: Hub, fn: Any, *args: Any) -> Any:
    try:
        return await hub.db_call(fn, *args)
    except store.Refused as e:
        raise WebError(e.status, e.message) from None


async def _tournament(hub: Hub, tournament_id: int) -> dict[str, Any]:
    t = await hub.db_call(store.get, hub.store.engine, tournament_id)
    if t is None:
        raise WebError(404, "no such tournament")
    return t


def _rating_now(engine: Engine, account_id: int, game: str) -> float:
    found = ratings.rating_of(engine, account_id, game)
    return 1500.0 if found is None else found  # a newcomer's starting rating


# ----- pages -------------------------------------------------------------------------------
@router.get("/tournaments", include_in_schema=False)
async def tournaments_page() -> HTMLResponse:
    return pages.render("tournaments")


@router.get("/tournaments/{tournament_id}", include_in_schema=False)
async def tournament_page(tournament_id: PathId) -> HTMLResponse:
    return pages.render("tournament")


# ----- tournaments ------------------------------------------------------------------------
@router.get("/api/tournaments")
async def list_tournaments(hub: Hub = Depends(get_hub)) -> dict[str, Any]:
    """Upcoming, running and finished tournaments."""
    found = await hub.db_call(store.listing, hub.store.engine)
    return {state: [_summary(t) for t in rows] for state, rows in found.items()}


def _summary(t: dict[str, Any]) -> dict[str, Any]:
    keep = ("id", "name", "game", "format", "rated", "clock_seconds", "clock_overtime",
            "starts", "max_players", "min_rating", "max_rating", "mirrored", "rounds",
            "minutes", "no_show", "team_best", "state", "finished", "note", "players",
            "partners")
    return {k: t[k] for k in keep if k in t}


@router.post("/api/tournaments", status_code=201)
async def create_tournament(body: NewTournament, request: Request,
                            hub: Hub = Depends(get_hub)) -> dict[str, Any]:
    """A new tournament; it starts at its time with whoever joined by then."""
    account = await _writer(request, hub)
    if body.game not in game_names():
        raise WebError(400, f"unknown game {body.game!r}; choose from {', '.join(game_names())}")
    low, high = game_kind(body.game).seats_allowed()
    if not low <= 2 <= high:
        raise WebError(400, "tournaments are of two-player games")
    clock = check_clock(body.clock_seconds, body.clock_overtime, body.game)
    if body.min_rating is not None and body.max_rating is not None \
            and body.min_rating > body.max_rating:
        raise WebError(400, "min_rating is above max_rating")
    if body.partners and (body.game != "classic" or body.format == "match"):
        raise WebError(400, "partnerships are for Cribbage (four seats), and not in a team"
                            " match")
    if body.format == "arena" and body.minutes is None:
        raise WebError(400, "an arena needs its length: minutes")
    if body.format == "swiss" and body.rounds is None:
        raise WebError(400, "a Swiss tournament needs its number of rounds")
    engine = hub.store.engine
    members: list[tuple[int, list[tuple[int, str]]]] = []
    if body.format == "match":
        if body.team_a is None or body.team_b is None or body.team_a == body.team_b:
            raise WebError(400, "a team match needs two different teams: team_a and team_b")
        for team in (body.team_a, body.team_b):
            found = await hub.db_call(store.members, engine, team)
            if not found:
                raise WebError(400, f"team {team} has no members (or does not exist)")
            members.append((team, found))
    elif body.team_a is not None or body.team_b is not None:
        raise WebError(400, "team_a and team_b are for a team match only")
    values = body.model_dump(exclude={"starts_in", "clock_seconds", "clock_overtime"})
    values.update(starts=time.time() + body.starts_in, creator_id=account.id,
                  clock_seconds=clock and clock[0], clock_overtime=clock and clock[1],
                  name=body.name.strip() or "Tournament")
    if body.format == "match":
        values["max_players"] = max(body.max_players, sum(len(m) for _, m in members))
    tournament_id = await hub.db_call(store.create, engine, values)
    for team, people in members:
        for account_id, name in people:
            await _call(hub, store.add_entrant, engine, tournament_id, name, account_id, None,
                        await hub.db_call(_rating_now, engine, account_id, body.game), team)
    return {"id": tournament_id}


@router.get("/api/tournaments/{tournament_id}")
async def look(tournament_id: PathId, request: Request,
               hub: Hub = Depends(get_hub)) -> dict[str, Any]:
    """Everything the tournament page shows: players, rounds and their games (with links),
    standings with tie-breaks, team standings; for a logged-in entrant, their seat tokens
    of the games they are playing."""
    t = await _tournament(hub, tournament_id)
    engine = hub.store.engine
    entrants = await hub.db_call(store.entrants, engine, tournament_id)
    games = await hub.db_call(store.games_of, engine, tournament_id)
    rounds = await hub.db_call(store.rounds_of, engine, tournament_id)
    table = store.table(entrants, games, rounds, t["mirrored"])
    names = {e["number"]: e["name"] for e in entrants}
    partners_of = await hub.db_call(store.account_names, engine, [
        x for e in entrants if e["partner_id"] is not None
        for x in (e["account_id"], e["partner_id"]) if x is not None])
    account = await hub.db_call(sessions.account_of, engine,
                                request.cookies.get(sessions.COOKIE))
    mine = next((e["number"] for e in entrants if account is not None
                 and account.id in (e["account_id"], e["partner_id"])), None)
    partner = any(account is not None and e["partner_id"] == account.id for e in entrants)
    by_round: dict[int, dict[str, Any]] = {
        r["number"]: {"number": r["number"], "bye": names.get(r["bye"]), "games": []}
        for r in rounds}
    yours = []
    for g in games:
        by_round.setdefault(g["round"], {"number": g["round"], "bye": None, "games": []})
        by_round[g["round"]]["games"].append({
            "a": names[g["a"]], "b": names[g["b"]], "leg": g["leg"], "game_id": g["game_id"],
            "points_a": g["points_a"], "margin": g["margin"],
            "forfeit": names.get(g["forfeit"])})
        if mine is not None and g["game_id"] and g["points_a"] is None and mine in (g["a"],
                                                                                  g["b"]):
            first = g["a"] == mine
            token = g[("token_a" if first else "token_b") + ("2" if partner else "")]
            seat = (0 if first else 1) if g["leg"] == 0 else (1 if first else 0)
            yours.append({"game_id": g["game_id"], "seat": seat + 2 * partner,
                          "token": token})
    rows = [{"place": i + 1, "name": names.get(s.entrant, "?"), "points": s.points,
             "buchholz": s.buchholz, "sonneborn_berger": s.sonneborn_berger,
             "spread": s.spread, "wins": s.wins, "draws": s.draws, "losses": s.losses,
             "byes": s.byes} for i, s in enumerate(table.rows)]
    teams = store.team_table(table.rows, entrants, t["team_best"])
    for row in teams:
        row["counted"] = [names[n] for n in row["counted"]]
    return {
        "tournament": {**_summary(t), "creator": t["creator_id"] == (account and account.id)},
        "players": [{"name": e["name"], "computer": e["level"] is not None,
                     "members": [partners_of[x] for x in (e["account_id"], e["partner_id"])
                                 if e["partner_id"] is not None and x in partners_of],
                     "level": e["level"], "team": e["team"],
                     "rating": None if e["rating"] is None else round(e["rating"]),
                     "withdrawn": e["withdrawn"] is not None} for e in entrants],
        "rounds": [by_round[n] for n in sorted(by_round)],
        "standings": rows, "teams": teams,
        "you": None if account is None else {"name": account.name, "entered": mine is not None,
                                             "playing": yours},
    }


@router.post("/api/tournaments/{tournament_id}/join")
async def join(tournament_id: PathId, request: Request, body: Entry | None = None,
               hub: Hub = Depends(get_hub)) -> dict[str, Any]:
    """The caller enters (before the start), within the rating bounds and player limit;
    ``team_id``: one of the caller's teams, for the team standings."""
    account = await _writer(request, hub)
    t = await _tournament(hub, tournament_id)
    engine = hub.store.engine
    team_id = body.team_id if body else None
    if team_id is not None and not await hub.db_call(store.in_team, engine, team_id,
                                                     account.id):
        raise WebError(403, "you can enter only with a team you are a member of")
    if t["partners"]:
        return await _join_as_partners(hub, t, account, team_id)
    rating = await hub.db_call(_rating_now, engine, account.id, t["game"])
    if t["min_rating"] is not None and rating < t["min_rating"]:
        raise WebError(403, f"your rating ({round(rating)}) is below this tournament's"
                            f" least, {t['min_rating']}")
    if t["max_rating"] is not None and rating > t["max_rating"]:
        raise WebError(403, f"your rating ({round(rating)}) is above this tournament's"
                            f" most, {t['max_rating']}")
    number = await _call(hub, store.add_entrant, engine, tournament_id, account.name,
                         account.id, None, rating, team_id)
    return {"entrant": number}


async def _join_as_partners(hub: Hub, t: dict[str, Any], account: Account,
                            team_id: int | None) -> dict[str, Any]:
    """A partnership enters as a team of exactly two accounts, the caller one of them."""
    engine = hub.store.engine
    if team_id is None:
        raise WebError(400, "this tournament is for partnerships: enter with your team of"
                            " two (team_id)")
    members = await hub.db_call(store.members, engine, team_id)
    if len(members) != 2:
        raise WebError(400, f"a partnership is a team of two; this team has {len(members)}")
    partner = next(m for m in members if m[0] != account.id)
    ratings_now = [await hub.db_call(_rating_now, engine, m[0], t["game"]) for m in members]
    rating = sum(ratings_now) / 2  # the partnership's: its players' mean
    for bound, words, out in ((t["min_rating"], "below", operator.lt),
                              (t["max_rating"], "above", operator.gt)):
        if bound is not None and out(rating, bound):
            raise WebError(403, f"your partnership's rating ({round(rating)}) is {words} this"
                                f" tournament's bound, {bound}")
    team = next(x for x in await hub.db_call(store.team_list, engine) if x["id"] == team_id)
    number = await _call(hub, store.add_entrant, engine, t["id"], team["name"], account.id,
                         None, rating, team_id, False, partner[0])
    return {"entrant": number}


@router.post("/api/tournaments/{tournament_id}/withdraw")
async def withdraw(tournament_id: PathId, request: Request,
                   hub: Hub = Depends(get_hub)) -> dict[str, Any]:
    """The caller leaves: not paired again; the games played keep their results."""
    account = await _writer(request, hub)
    await _tournament(hub, tournament_id)
    found = await hub.db_call(store.entrant_of, hub.store.engine, tournament_id, account.id)
    if found is None or found["withdrawn"] is not None:
        raise WebError(409, "you are not playing in this tournament")
    await _call(hub, store.withdraw, hub.store.engine, tournament_id, found["number"])
    return {"withdrawn": True}


@router.post("/api/tournaments/{tournament_id}/computers")
async def enter_computer(tournament_id: PathId, body: ComputerEntry, request: Request,
                         hub: Hub = Depends(get_hub)) -> dict[str, Any]:
    """The creator enters a computer level (its friendly title or technical name)."""
    account = await _writer(request, hub)
    t = await _tournament(hub, tournament_id)
    if t["creator_id"] != account.id:
        raise WebError(403, "only the tournament's creator can enter computers")
    level = level_names.resolve(t["game"], body.level)
    if level not in game_kind(t["game"]).levels():
        raise WebError(400, f"unknown computer level {body.level!r}")
    entrants = await hub.db_call(store.entrants, hub.store.engine, tournament_id)
    same = sum(e["level"] == level for e in entrants)
    title = level_names.title(t["game"], level)
    name = title if not same else f"{title} {same + 1}"
    rating = ratings.level_rating(t["game"], level).rating
    number = await _call(hub, store.add_entrant, hub.store.engine, tournament_id, name[:40],
                         None, level, rating)
    return {"entrant": number, "name": name}


# ----- teams -------------------------------------------------------------------------------
@router.get("/api/teams")
async def list_teams(hub: Hub = Depends(get_hub)) -> dict[str, Any]:
    teams = await hub.db_call(store.team_list, hub.store.engine)
    return {"teams": [{"id": t["id"], "name": t["name"],
                       "members": [m["name"] for m in t["members"]]} for t in teams]}


@router.post("/api/teams", status_code=201)
async def create_team(body: NewTeam, request: Request,
                      hub: Hub = Depends(get_hub)) -> dict[str, Any]:
    """A new team; its creator is its first member."""
    from kingscrib.web.accounts.store import user_name

    account = await _writer(request, hub)
    name = user_name(body.name)  # the same checks as a user name (no invisible characters)
    return {"id": await _call(hub, store.create_team, hub.store.engine, name, account.id)}


@router.post("/api/teams/{team_id}/join")
async def join_team(team_id: PathId, request: Request,
                    hub: Hub = Depends(get_hub)) -> dict[str, Any]:
    account = await _writer(request, hub)
    await _call(hub, store.join_team, hub.store.engine, team_id, account.id)
    return {"joined": team_id}


@router.post("/api/teams/{team_id}/leave")
async def leave_team(team_id: PathId, request: Request,
                     hub: Hub = Depends(get_hub)) -> dict[str, Any]:
    account = await _writer(request, hub)
    await _call(hub, store.leave_team, hub.store.engine, team_id, account.id)
    return {"left": team_id}
