"""The tutorial and the rules pages: ``/learn``, ``/rules/kings``, ``/rules/cribbage``,
the lessons as JSON, the checker of an answer, and a logged-in account's progress."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from kingscrib.learn import check, lesson, lessons
from kingscrib.learn import progress as learn_progress
from kingscrib.learn.kings import played_tiles
from kingscrib.learn.lesson import GOALS, MOVE
from kingscrib.learn.progress import MAX_ID
from kingscrib.web import pages
from kingscrib.web.accounts import sessions
from kingscrib.web.accounts.routes import logged_in
from kingscrib.web.errors import WebError
from kingscrib.web.lessons import store as learning
from kingscrib.web.lessons.schemas import Checked, Lessons, Progress
from kingscrib.web.play.deps import get_hub
from kingscrib.web.play.rooms import Hub

PAGES: dict[str, pages.PageName] = {"learn": "learn", "kings": "rules_kings", "cribbage": "rules_cribbage"}
MAX_ANSWER = 200  # characters of a typed answer (a move is some 30)

router = APIRouter(tags=["learn"])


def _page(name: str) -> HTMLResponse:
    return pages.render(PAGES[name])


@router.get("/learn", include_in_schema=False)
def learn_page() -> HTMLResponse:
    return _page("learn")


@router.get("/rules/{game}", include_in_schema=False)
def rules_page(game: str) -> HTMLResponse:
    if game not in ("kings", "cribbage"):
        raise WebError(404, f"no rules page {game!r}: there are /rules/kings and"
                            " /rules/cribbage")
    return _page(game)


def _game(game: str) -> str:
    if game not in GOALS:
        raise WebError(404, f"no lessons for {game!r}: the games are kings and cribbage")
    return game


@router.get("/api/learn/{game}")
def lesson_list(game: str) -> Lessons:
    """The game's goal and its lessons, each with its steps' positions and tasks."""
    return Lessons.model_validate({"game": _game(game), "goal": GOALS[game],
                                   "lessons": [each.to_json() for each in lessons(game)]})


class Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    # a typed answer, two cards as a list, or a play laid on the board {"tiles": {...}}
    answer: str | list[str] | dict[str, dict[str, str]] = Field(...)


@router.post("/api/learn/{game}/{lesson_id}/{number}", response_model_exclude_unset=True)
def check_answer(game: str, lesson_id: str, number: int, body: Answer) -> Checked:
    """What the engine says of an answer to step ``number`` (from 0) of a lesson:
    ``{"ok", "message", "breakdown"}``, and for an accepted play its ``tiles``."""
    try:
        found = lesson(_game(game), lesson_id)
    except ValueError as e:
        raise WebError(404, str(e)) from None
    if not 0 <= number < len(found.steps):
        raise WebError(404, f"the lesson {lesson_id!r} has steps 0 to {len(found.steps) - 1}")
    answer = body.answer
    if isinstance(answer, str) and len(answer) > MAX_ANSWER or \
            isinstance(answer, list) and (len(answer) > 5 or any(len(a) > 4 for a in answer)):
        raise WebError(400, "that answer is far too long")
    if isinstance(answer, dict) and (set(answer) != {"tiles"} or len(answer["tiles"]) > 5):
        raise WebError(400, 'a play is {"tiles": {"H7": "6L"}}, at most 5 tiles')
    step = found.steps[number]
    verdict = check(step, answer)
    out = verdict.to_json()
    if verdict.ok and step.answer == MOVE:
        tiles = played_tiles(step, answer)
        if tiles is not None:
            out["tiles"] = tiles
    return Checked.model_validate(out)


LessonIds = Annotated[list[Annotated[str, Field(max_length=MAX_ID)]], Field(max_length=50)]


class ProgressBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    progress: dict[str, LessonIds] = Field(..., max_length=4)


@router.get("/api/learn-progress")
async def account_progress(request: Request, response: Response,
                           hub: Hub = Depends(get_hub)) -> Progress:
    """The logged-in account's finished lessons; 401 for a guest (the page keeps theirs)."""
    account, _ = await logged_in(request, hub)
    done = await hub.db_call(learning.progress_of, hub.store.engine, account.id)
    response.headers["Cache-Control"] = "no-store"
    return Progress(progress=done)


@router.post("/api/learn-progress")
async def add_account_progress(body: ProgressBody, request: Request, response: Response,
                               hub: Hub = Depends(get_hub)) -> Progress:
    """Add finished lessons to the account's (never removes one); answers all of them."""
    account, token = await logged_in(request, hub)
    sessions.check_csrf(token, request.headers)
    try:
        sent = learn_progress.read(body.progress)
        known = {game: {each.id for each in lessons(game)} for game in sent}
        for game, done in sent.items():
            unknown = sorted(set(done) - known[game])
            if unknown:
                raise ValueError(f"no lesson {unknown[0]!r} in {game}")
    except ValueError as e:
        raise WebError(400, str(e)) from None
    progress = await hub.db_call(learning.add_progress, hub.store.engine, account.id, sent)
    response.headers["Cache-Control"] = "no-store"
    return Progress(progress=progress)
