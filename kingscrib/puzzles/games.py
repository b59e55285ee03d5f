"""Each game's puzzles behind one interface, found by game id: the analysis, the check,
the explanation and the self-play differ by game (:mod:`.kings`, :mod:`.cribbage`);
finding a game's module is written once here.

A game's module is imported when first asked for: the Kings analysis loads the computer
players' tables, which a server that only lists puzzles never needs.
"""

from __future__ import annotations

from typing import Protocol

from kingscrib.core import KINGS, parse_game_id
from kingscrib.puzzles.puzzle import Puzzle


class PuzzleGame(Protocol):
    """What each game's puzzle module answers."""

    def check(self, puzzle: Puzzle) -> list[str]:
        """What is wrong with ``puzzle``, analysed again from scratch (empty: all holds)."""
        ...

    def judge(self, puzzle: Puzzle, text: str) -> tuple[bool, list[str]]:
        """Whether ``text`` is the best option, and why; ValueError when it is none."""
        ...

    def game_puzzles(self, seed: int) -> list[Puzzle]:
        """The puzzles met in one self-play game from ``seed``."""
        ...


def puzzle_game(game: str) -> PuzzleGame:
    """The puzzle module of ``game`` (``kings``, ``cribbage``; ``classic`` is read as
    ``cribbage``); UnknownGame for any other."""
    if parse_game_id(game) == KINGS:
        from kingscrib.puzzles import kings

        return kings
    from kingscrib.puzzles import cribbage

    return cribbage


__all__ = ["PuzzleGame", "puzzle_game"]
