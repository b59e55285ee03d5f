"""Interactive lessons for both games: each step a small prepared position, a task, and
a checker that asks the engine whether an answer does what the task asks.

>>> step = lesson("kings", "valid-hands").steps[0]
>>> check(step, "H7 across 6 9 K").ok, check(step, "H7 across 6 6").ok
(True, False)
"""

from __future__ import annotations

from typing import Protocol

from kingscrib.core import GAME_IDS, KINGS, UnknownGame, parse_game_id
from kingscrib.learn.lesson import Lesson, Step, Verdict

GAMES = GAME_IDS


class LessonGame(Protocol):
    """What each game's lessons module has (:mod:`.kings`, :mod:`.cribbage`): its
    lessons in the order they are taught, and the checker of their steps."""

    @property
    def LESSONS(self) -> tuple[Lesson, ...]: ...  # noqa: N802  (the modules' constant)

    def check_step(self, step: Step, answer: object) -> Verdict: ...


def lesson_game(game: str) -> LessonGame:
    """The lessons module of ``game`` (``kings`` or ``cribbage``; ``classic`` is read as
    ``cribbage``), imported when first asked for; ValueError naming the games."""
    try:
        game_id = parse_game_id(game)
    except UnknownGame:
        raise ValueError(f"no lessons for {game!r}: the games are {', '.join(GAMES)}") from None
    if game_id == KINGS:
        from kingscrib.learn import kings

        return kings
    from kingscrib.learn import cribbage

    return cribbage


def lessons(game: str) -> tuple[Lesson, ...]:
    """The lessons of ``game`` (``kings`` or ``cribbage``; ``classic`` is read as
    ``cribbage``), in the order they are taught."""
    return lesson_game(game).LESSONS


def lesson(game: str, lesson_id: str) -> Lesson:
    """One lesson by its id; ValueError naming the ids when there is no such lesson."""
    for each in lessons(game):
        if each.id == lesson_id:
            return each
    known = ", ".join(each.id for each in lessons(game))
    raise ValueError(f"no lesson {lesson_id!r} in {game}: the lessons are {known}")


def check(step: Step, answer: object) -> Verdict:
    """What the engine says of ``answer`` to ``step``: accepted or not, and why."""
    return lesson_game(step.game).check_step(step, answer)


__all__ = ["GAMES", "Lesson", "LessonGame", "Step", "Verdict", "check", "lesson", "lesson_game",
           "lessons"]
