"""What the browser sees of a puzzle, and its answers read from the game's own actions.

The page gets the position only: never the answer, the margin, the breakdowns or the
theme, which come back after an answer (:mod:`kingscrib.web.puzzles.routes`). An answer
is sent as the game sends a move (Kings: ``{"action": "play", "tiles": {...}}``,
``{"action": "exchange", "tiles": [...]}``, ``{"action": "pass"}``; Cribbage:
``{"action": "discard", "cards": [..]}``, ``{"action": "play", "card": ".."}``) and is
judged in the game's notation by :func:`kingscrib.puzzles.explain.judge`.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from kingscrib.puzzles.explain import PROMPTS
from kingscrib.puzzles.puzzle import GAMES, Puzzle, shipped
from kingscrib.web.errors import WebError

TITLES = {"best-play": "Find the best play", "best-discard": "Find the best discard",
          "best-card": "Find the best card to lay"}


@cache
def catalogue() -> dict[str, Puzzle]:
    """Every shipped puzzle by id."""
    return {p.id: p for game in GAMES for p in shipped(game)}


def find(puzzle_id: str) -> Puzzle:
    found = catalogue().get(puzzle_id)
    if found is None:
        raise WebError(404, f"no puzzle {puzzle_id!r}")
    return found


def public_view(puzzle: Puzzle, rating: float) -> dict[str, Any]:
    """The puzzle as the page shows it before it is answered."""
    return {"id": puzzle.id, "game": puzzle.game, "kind": puzzle.kind,
            "title": TITLES[puzzle.kind], "prompt": PROMPTS[puzzle.kind],
            "position": puzzle.position, "rating": round(rating)}
