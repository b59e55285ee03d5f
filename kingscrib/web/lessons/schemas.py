"""Pydantic models of the lessons' replies (the lessons' own ``to_json`` in kingscrib.learn)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class _Reply(BaseModel):
    model_config = ConfigDict(extra="forbid")


class StepView(_Reply):
    answer: str = Field(description="what the step asks for: a move, a number, a discard or a peg")
    task: str
    setup: dict[str, Any] = Field(description="the position, as the game's page lays it")
    hint: str
    intended: str = Field(description="an answer the checker accepts (the show me)")


class LessonView(_Reply):
    id: str
    game: str
    title: str
    teach: str
    steps: list[StepView]


class Lessons(_Reply):
    game: str
    goal: str
    lessons: list[LessonView]


class Checked(_Reply):
    """The engine's verdict on an answer; ``tiles`` only for an accepted play."""

    ok: bool
    message: str
    breakdown: list[str]
    tiles: dict[str, str] | None = Field(default=None, description=(
        "an accepted play: its squares and tiles, for the page to lay them"))


class Progress(_Reply):
    progress: dict[str, list[str]] = Field(description="each game's finished lessons")
