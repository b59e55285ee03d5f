"""Re-checking puzzles from scratch: the position is analysed again by the engine and the
stated answer, margin and highest score now must all hold."""

from __future__ import annotations

from collections.abc import Iterable

from kingscrib.puzzles.games import puzzle_game
from kingscrib.puzzles.puzzle import Puzzle


def problems(puzzle: Puzzle) -> list[str]:
    """What does not hold of ``puzzle`` (empty: it is right)."""
    try:
        return puzzle_game(puzzle.game).check(puzzle)
    except (ValueError, KeyError, TypeError) as e:  # a position that cannot be read
        return [f"the position cannot be analysed: {e}"]


def verify_all(puzzles: Iterable[Puzzle]) -> dict[str, list[str]]:
    """The problems of every puzzle that has some, by id."""
    out = {}
    for p in puzzles:
        found = problems(p)
        if found:
            out[p.id] = found
    return out


__all__ = ["problems", "verify_all"]
