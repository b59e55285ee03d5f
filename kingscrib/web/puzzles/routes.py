"""Puzzles in the browser: the page, the next puzzle near the player's rating, the daily
puzzle, and answers judged here (docs/web.md, "Puzzles").

A logged-in player's rating is stored (kingscrib.web.puzzles.store); a guest's lives in
the browser, comes with the answer and goes back updated, and is used for nothing else:
a guest's answer moves no stored rating.
"""

from __future__ import annotations

import asyncio
import datetime
import random
from typing import Any, Literal

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.engine import Engine

from kingscrib.puzzles.explain import judge
from kingscrib.puzzles.progress import daily_index
from kingscrib.puzzles.puzzle import shipped
from kingscrib.web import pages
from kingscrib.web.accounts import sessions
from kingscrib.web.accounts.deps import session_account
from kingscrib.web.errors import WebError
from kingscrib.web.play.deps import get_hub
from kingscrib.web.play.games import puzzle_answers
from kingscrib.web.play.rooms import Hub
from kingscrib.web.puzzles import store as puzzle_store
from kingscrib.web.puzzles import views as puzzle_views
from kingscrib.web.puzzles.schemas import Judged, MyStanding, OnePuzzle
from kingscrib.web.ratings import puzzle_ratings as ratings

router = APIRouter(tags=["puzzles"])
Game = Literal["kings", "cribbage"]
MAX_RECENT = 50  # puzzle ids a guest's browser sends to skip (those it has just seen)


class GuestStanding(BaseModel):
    """A guest's puzzle rating and record, as the browser keeps it."""

    model_config = ConfigDict(extra="forbid")
    rating: float = Field(ratings.START, ge=ratings.LOWEST, le=ratings.HIGHEST)
    rd: float = Field(ratings.START_RD, ge=ratings.MIN_RD, le=ratings.START_RD)
    vol: float = Field(ratings.START_VOL, gt=0, le=ratings.MAX_VOL)
    streak: int = Field(0, ge=0, le=10**6)
    best_streak: int = Field(0, ge=0, le=10**6)
    tried: int = Field(0, ge=0, le=10**7)
    solved: int = Field(0, ge=0, le=10**7)

    def standing(self) -> puzzle_store.Standing:
        return puzzle_store.Standing(ratings.Rating(self.rating, self.rd, self.vol),
                                     self.streak, max(self.streak, self.best_streak),
                                     self.tried, min(self.solved, self.tried))


class Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    # The move, as the game sends one (kingscrib.web.puzzles.views).
    answer: dict[str, Any]
    guest: GuestStanding | None = None  # a guest's standing; ignored for an account


def _page() -> HTMLResponse:
    return pages.render("puzzles")


@router.get("/puzzles", include_in_schema=False)
async def page() -> HTMLResponse:
    return _page()


@router.get("/puzzles/{game}", include_in_schema=False)
async def game_page(game: Game) -> HTMLResponse:
    return _page()


async def _account(request: Request, hub: Hub) -> Any:
    return (await session_account(hub, request.cookies))[0]


def _rating_of(engine: Engine, puzzle_id: str, game: str) -> ratings.Rating:
    """A puzzle's rating now: as answers moved it, else its prior."""
    return puzzle_store.puzzle_rating(engine, puzzle_id, ratings.priors(game)[puzzle_id])


def _no_store(response: Response) -> None:
    response.headers["Cache-Control"] = "no-store"


@router.get("/api/puzzles/next", response_model_exclude_unset=True)
async def next_puzzle(request: Request, response: Response, game: Game,
                      rating: float | None = Query(None, ge=ratings.LOWEST,
                                                   le=ratings.HIGHEST),
                      skip: str = Query("", max_length=MAX_RECENT * 65),
                      hub: Hub = Depends(get_hub)) -> OnePuzzle:
    """A puzzle near the player's rating (an account's stored one; a guest's ``rating``,
    which only chooses), not one the account has answered nor one of ``skip`` (ids,
    comma-separated)."""
    engine = hub.store.engine
    account = await _account(request, hub)
    exclude = set(skip.split(",")[:MAX_RECENT]) if skip else set()
    target = rating if rating is not None else ratings.START
    if account is not None:
        target = (await hub.db_call(puzzle_store.standing, engine, account.id, game)
                  ).rating.rating
        exclude |= await hub.db_call(puzzle_store.answered, engine, account.id)
    now = {**ratings.priors(game)}
    moved = await hub.db_call(puzzle_store.moved_ratings, engine)
    now.update({k: v for k, v in moved.items() if k in now})
    chosen = ratings.choose_near(now, target, exclude, random.Random())
    if chosen is None:
        raise WebError(404, f"no {game} puzzles are installed")
    _no_store(response)
    return OnePuzzle.model_validate({"puzzle": puzzle_views.public_view(
        puzzle_views.find(chosen), now[chosen].rating)})


def today() -> datetime.date:
    return datetime.datetime.now(datetime.UTC).date()


@router.get("/api/puzzles/daily", response_model_exclude_unset=True)
async def daily(game: Game, response: Response, hub: Hub = Depends(get_hub)) -> OnePuzzle:
    """Today's puzzle (UTC): the same for everyone, chosen from the date."""
    puzzles = shipped(game)
    if not puzzles:
        raise WebError(404, f"no {game} puzzles are installed")
    day = today()
    chosen = puzzles[daily_index(day, len(puzzles), game)]
    rating = await hub.db_call(_rating_of, hub.store.engine, chosen.id, game)
    _no_store(response)
    return OnePuzzle.model_validate({"puzzle": {**puzzle_views.public_view(chosen,
                                                                           rating.rating),
                                                "daily": day.isoformat()}})


@router.get("/api/puzzles/me")
async def me(request: Request, response: Response, game: Game,
             hub: Hub = Depends(get_hub)) -> MyStanding:
    """A logged-in player's puzzle rating and record in ``game`` (null for a guest)."""
    _no_store(response)
    account = await _account(request, hub)
    if account is None:
        return MyStanding(account=None, standing=None)
    found = await hub.db_call(puzzle_store.standing, hub.store.engine, account.id, game)
    return MyStanding.model_validate({"account": account.name, "standing": found.to_json()})


@router.get("/api/puzzles/{puzzle_id}", response_model_exclude_unset=True)
async def one(puzzle_id: str, response: Response, hub: Hub = Depends(get_hub)) -> OnePuzzle:
    """One puzzle by id, as the page shows it before an answer."""
    puzzle = puzzle_views.find(puzzle_id[:64])
    rating = await hub.db_call(_rating_of, hub.store.engine, puzzle.id, puzzle.game)
    _no_store(response)
    return OnePuzzle.model_validate({"puzzle": puzzle_views.public_view(puzzle,
                                                                        rating.rating)})


@router.post("/api/puzzles/{puzzle_id}/answer")
async def answer(puzzle_id: str, body: Answer, request: Request, response: Response,
                 hub: Hub = Depends(get_hub)) -> Judged:
    """Judge an answer: right or not, the explanation, the best answer, and the player's
    rating after it (stored for an account; returned to a guest)."""
    sessions.check_same_origin(request.headers)
    puzzle = puzzle_views.find(puzzle_id[:64])
    text = puzzle_answers.answer_text(puzzle, body.answer)
    try:  # the engine's judgement (a wrong Kings play is weighed again): off the loop
        right, lines = await asyncio.to_thread(judge, puzzle, text)
    except ValueError as e:
        raise WebError(400, f"not an answer to this puzzle: {e}") from None
    engine = hub.store.engine
    account = await _account(request, hub)
    prior = ratings.priors(puzzle.game)[puzzle.id]
    if account is not None:
        sessions.check_csrf(request.cookies[sessions.COOKIE], request.headers)
        done = await hub.db_call(puzzle_store.record_answer, engine, account.id, puzzle.game,
                                 puzzle.id, prior, right, ratings.answer)
        before, after, rated = done.before, done.after, done.rated
        puzzle_after = done.puzzle_after
    else:
        before = (body.guest or GuestStanding.model_validate({})).standing()
        theirs = await hub.db_call(puzzle_store.puzzle_rating, engine, puzzle.id, prior)
        mine, _ = ratings.answer(before.rating, theirs, right)
        after, rated, puzzle_after = before.after(mine, right), True, theirs
    _no_store(response)
    return Judged.model_validate({
        "right": right, "lines": lines, "answer": puzzle.answer,
        "best": puzzle_answers.best_action(puzzle), "theme": puzzle.theme,
        "rated": rated, "before": before.to_json(), "standing": after.to_json(),
        "account": account.name if account is not None else None,
        "puzzle_rating": round(puzzle_after.rating)})
