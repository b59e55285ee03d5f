"""Pydantic models of the puzzles' replies (the views in kingscrib.web.puzzles.views)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class _Reply(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PuzzleView(_Reply):
    """A puzzle as the page shows it before it is answered."""

    id: str
    game: str
    kind: str
    title: str
    prompt: str
    position: dict[str, Any] = Field(description="the game's position, as its engine writes it")
    rating: int
    daily: str | None = Field(default=None, description="the daily puzzle only: its day")


class OnePuzzle(_Reply):
    puzzle: PuzzleView


class StandingView(_Reply):
    """A player's puzzle rating (Glicko-2) and record."""

    rating: float
    rd: float
    vol: float
    streak: int
    best_streak: int
    tried: int
    solved: int


class MyStanding(_Reply):
    account: str | None = Field(description="the account's name; null for a guest")
    standing: StandingView | None


class Judged(_Reply):
    right: bool
    lines: list[str] = Field(description="the explanation")
    answer: str
    best: dict[str, Any] = Field(description="the best answer as the game's action")
    theme: str
    rated: bool
    before: StandingView
    standing: StandingView
    account: str | None
    puzzle_rating: int
