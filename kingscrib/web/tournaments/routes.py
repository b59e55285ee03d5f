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
from kingscrib.web.accounts.names import checked_name
from kingscrib.web.accounts.routes import logged_in
from kingscrib.web.accounts.store import Account
from kingscrib.web.accounts.text_rules import checked_text
from kingscrib.web.db.row_ids import BodyId, PathId
from kingscrib.web.errors import WebError
from kingscrib.web.play.clocks import check_clock
from kingscrib.web.play.deps import get_hub, refuse_banned
from kingscrib.web.play.games import game_kind, game_name
from kingscrib.web.play.rooms import Hub
from kingscrib.web.ratings import store as ratings
from kingscrib.web.tournaments import store, views
from kingscrib.web.tournaments.schemas import (
    Entered,
    JoinedTeam,
    LeftTeam,
    Listing,
    NewId,
    Teams,
    TournamentPage,
    Withdrawn,
)

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
    await refuse_banned(request, hub, "enter tournaments nor teams")
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
async def list_tournaments(hub: Hub = Depends(get_hub)) -> Listing:
    """Upcoming, running and finished tournaments."""
    return views.listing(await hub.db_call(store.listing, hub.store.engine))


@router.post("/api/tournaments", status_code=201)
async def create_tournament(body: NewTournament, request: Request,
                            hub: Hub = Depends(get_hub)) -> NewId:
    """A new tournament; it starts at its time with whoever joined by then."""
    account = await _writer(request, hub)
    name = checked_text(body.name, "a tournament name", 60)
    body.game = game_name(body.game)  # "classic" is read as "cribbage"
    low, high = game_kind(body.game).seats_allowed()
    if not low <= 2 <= high:
        raise WebError(400, "tournaments are of two-player games")
    clock = check_clock(body.clock_seconds, body.clock_overtime, body.game)
    if body.min_rating is not None and body.max_rating is not None \
            and body.min_rating > body.max_rating:
        raise WebError(400, "min_rating is above max_rating")
    if body.partners and (body.game != "cribbage" or body.format == "match"):
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
                  name=name)
    if body.format == "match":
        values["max_players"] = max(body.max_players, sum(len(m) for _, m in members))
    tournament_id = await _call(hub, store.create, engine, values,
                                request.app.state.limits.settings.tournaments_per_hour)
    for team, people in members:
        for account_id, name in people:
            await _call(hub, store.add_entrant, engine, tournament_id, name, account_id, None,
                        await hub.db_call(_rating_now, engine, account_id, body.game), team)
    return NewId(id=tournament_id)


@router.get("/api/tournaments/{tournament_id}", response_model_exclude_unset=True)
async def look(tournament_id: PathId, request: Request,
               hub: Hub = Depends(get_hub)) -> TournamentPage:
    """Everything the tournament page shows: players, rounds and their games (with links),
    standings with tie-breaks, team standings; for a logged-in entrant, their seats of
    the games they are playing (``POST /api/games/{id}/seat`` hands each seat's token)."""
    rows = await hub.db_call(views.page_rows, hub.store.engine, tournament_id)
    if rows is None:
        raise WebError(404, "no such tournament")
    account = await hub.db_call(sessions.account_of, hub.store.engine,
                                request.cookies.get(sessions.COOKIE))
    return views.page(rows, None if account is None else (account.id, account.name))


@router.post("/api/tournaments/{tournament_id}/join", response_model_exclude_unset=True)
async def join(tournament_id: PathId, request: Request, body: Entry | None = None,
               hub: Hub = Depends(get_hub)) -> Entered:
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
    return Entered(entrant=number)


async def _join_as_partners(hub: Hub, t: dict[str, Any], account: Account,
                            team_id: int | None) -> Entered:
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
    return Entered(entrant=number)


@router.post("/api/tournaments/{tournament_id}/withdraw")
async def withdraw(tournament_id: PathId, request: Request,
                   hub: Hub = Depends(get_hub)) -> Withdrawn:
    """The caller leaves: not paired again; the games played keep their results."""
    account = await _writer(request, hub)
    await _tournament(hub, tournament_id)
    found = await hub.db_call(store.entrant_of, hub.store.engine, tournament_id, account.id)
    if found is None or found["withdrawn"] is not None:
        raise WebError(409, "you are not playing in this tournament")
    await _call(hub, store.withdraw, hub.store.engine, tournament_id, found["number"])
    return Withdrawn(withdrawn=True)


@router.post("/api/tournaments/{tournament_id}/computers", response_model_exclude_unset=True)
async def enter_computer(tournament_id: PathId, body: ComputerEntry, request: Request,
                         hub: Hub = Depends(get_hub)) -> Entered:
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
    return Entered(entrant=number, name=name)


# ----- teams -------------------------------------------------------------------------------
@router.get("/api/teams")
async def list_teams(hub: Hub = Depends(get_hub)) -> Teams:
    return views.teams(await hub.db_call(store.team_list, hub.store.engine))


@router.post("/api/teams", status_code=201)
async def create_team(body: NewTeam, request: Request,
                      hub: Hub = Depends(get_hub)) -> NewId:
    """A new team; its creator is its first member."""
    account = await _writer(request, hub)
    name = checked_name(body.name, "a team name", 40)  # the checks of a user name
    return NewId(id=await _call(hub, store.create_team, hub.store.engine, name, account.id))


@router.post("/api/teams/{team_id}/join")
async def join_team(team_id: PathId, request: Request,
                    hub: Hub = Depends(get_hub)) -> JoinedTeam:
    account = await _writer(request, hub)
    await _call(hub, store.join_team, hub.store.engine, team_id, account.id)
    return JoinedTeam(joined=team_id)


@router.post("/api/teams/{team_id}/leave")
async def leave_team(team_id: PathId, request: Request,
                     hub: Hub = Depends(get_hub)) -> LeftTeam:
    account = await _writer(request, hub)
    await _call(hub, store.leave_team, hub.store.engine, team_id, account.id)
    return LeftTeam(left=team_id)
