"""Players: leaderboards, public profiles and their searchable archive of games, the
computer levels' published ratings, the two pages that show them, and what a finished
game did to its players' ratings (its end box).

Everything here is public and holds only what a finished game shows everyone (names,
places, scores, ratings); nothing of a rack, hand, crib or bag.
"""

from __future__ import annotations

import datetime

from fastapi import APIRouter, Depends, Query
from fastapi.responses import HTMLResponse

from kingscrib.web import pages
from kingscrib.web.db.game_ids import stored_game
from kingscrib.web.errors import WebError
from kingscrib.web.ratings import store as ratings
from kingscrib.web.ratings.schemas import Archive, GameRatings, Leaderboard, Profile
from kingscrib.web.server.deps import StoreCalls, store_calls

router = APIRouter(tags=["players"])

PAGE_SIZE = 25
RESULTS = (ratings.WON, ratings.LOST, ratings.DRAWN)


def _game(game: str) -> str:
    """The rated game ``game`` names (``classic`` is read as ``cribbage``), else 404."""
    if stored_game(game) not in ratings.RATED_GAMES:
        raise WebError(404, f"no ratings for the game {game!r}; choose from"
                            f" {', '.join(ratings.RATED_GAMES)}")
    return stored_game(game)


def _day(text: str | None, what: str, end: bool = False) -> float | None:
    """A date as YYYY-MM-DD (UTC) as a time; ``end``: the end of that day."""
    if text is None or text == "":
        return None
    try:
        day = datetime.date.fromisoformat(text)
    except ValueError:
        raise WebError(400, f"{what}: {text[:40]!r} is not a date; write it as YYYY-MM-DD"
                            " (e.g. 2026-11-25)") from None
    moment = datetime.datetime.combine(day, datetime.time(), datetime.UTC)
    try:
        return (moment + datetime.timedelta(days=1 if end else 0)).timestamp()
    except OverflowError:  # the day after 9999-12-31
        return None


async def _player(hub: StoreCalls, name: str) -> tuple[int, str]:
    found = await hub.db_call(ratings.account_named, hub.store.engine, name) \
        if 0 < len(name) <= 100 else None
    if found is None:
        raise WebError(404, f"no player is named {name[:40]!r}")
    return found


@router.get("/api/ratings/{game}")
async def leaderboard(game: str, limit: int = Query(100, ge=1, le=500),
                      hub: StoreCalls = Depends(store_calls)) -> Leaderboard:
    """The best rated players of ``game`` (``kings`` or ``cribbage``; ``classic`` is read
    as ``cribbage``), and the computer levels' fixed ratings. ``provisional``: the
    deviation is still above 110."""
    game = _game(game)
    players = await hub.db_call(ratings.leaderboard, hub.store.engine, game, limit)
    return Leaderboard.model_validate({"game": game, "title": ratings.GAME_TITLES[game],
                                       "players": players, "levels": ratings.level_table(game)})


@router.get("/api/players/{name}", response_model_exclude_unset=True)
async def profile(name: str, hub: StoreCalls = Depends(store_calls)) -> Profile:
    """A player's ratings and their history, games played, won, drawn and lost per game,
    and their recent games."""
    account_id, shown = await _player(hub, name)
    return Profile.model_validate(await hub.db_call(ratings.profile, hub.store.engine,
                                                    account_id, shown))


@router.get("/api/players/{name}/games", response_model_exclude_unset=True)
async def archive(name: str, opponent: str | None = Query(None, max_length=40),
                  game: str | None = Query(None, max_length=16),
                  result: str | None = Query(None, max_length=8),
                  since: str | None = Query(None, max_length=10, description="YYYY-MM-DD"),
                  until: str | None = Query(None, max_length=10, description="YYYY-MM-DD"),
                  page: int = Query(1, ge=1, le=10_000),
                  hub: StoreCalls = Depends(store_calls)) -> Archive:
    """A player's finished games, newest first: by opponent (part of a name, or a
    computer level's title), game, result (won, lost, drawn) and dates (inclusive, UTC)."""
    if game:
        game = _game(game)
    if result and result not in RESULTS:
        raise WebError(400, f"result: {result!r} is not one of {', '.join(RESULTS)}")
    first, last = _day(since, "since"), _day(until, "until", end=True)
    if first is not None and last is not None and first >= last:
        raise WebError(400, "since comes after until: no day lies between them")
    account_id, shown = await _player(hub, name)
    wanted = (opponent or "").strip()
    search = ratings.Search(opponent=wanted or None, game=game or None,
                            result=result or None, since=first, until=last,
                            limit=PAGE_SIZE, offset=(page - 1) * PAGE_SIZE)
    found = await hub.db_call(ratings.archive, hub.store.engine, account_id, search)
    return Archive.model_validate({"name": shown, "page": page, "page_size": PAGE_SIZE,
                                   **found})


@router.get("/api/games/{game_id}/ratings")
async def game_ratings(game_id: str, hub: StoreCalls = Depends(store_calls)) -> GameRatings:
    """What a game did to its players' ratings: each seat's rating before and after once
    a rated game is settled (``status`` says whether it is rated, casual, still pending
    or ended unrated)."""
    found = await hub.db_call(ratings.game_ratings, hub.store.engine, game_id) \
        if 0 < len(game_id) <= 32 else None
    if found is None:
        raise WebError(404, f"no game {game_id[:40]!r}")
    return GameRatings.model_validate(found)


@router.get("/players/{name}", include_in_schema=False)
async def profile_page(name: str) -> HTMLResponse:
    return pages.render("player")


@router.get("/leaderboard", include_in_schema=False)
async def leaderboard_page() -> HTMLResponse:
    return pages.render("leaderboard")
