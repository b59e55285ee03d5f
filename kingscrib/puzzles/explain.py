"""Showing a puzzle and explaining an answer, as lines of text (front ends print them).

Each game explains its own answers (``judge`` of :mod:`.kings` and :mod:`.cribbage`);
:func:`judge` finds the puzzle's game (:mod:`.games`).
"""

from __future__ import annotations

from kingscrib.core import CRIBBAGE, KINGS
from kingscrib.puzzles.games import puzzle_game
from kingscrib.puzzles.puzzle import Puzzle

PROMPTS = {"best-play": "Find the best play (e.g. G7 across 7L 8D, exchange 7L, pass)",
           "best-discard": "Lay two cards away (e.g. 5H JD)",
           "best-card": "Lay one card (e.g. 7C)"}


def kings_judgement(puzzle: Puzzle, text: str) -> tuple[bool, list[str]]:
    """Whether ``text`` is the best play, and why; ValueError when it is not a legal option."""
    return puzzle_game(KINGS).judge(puzzle, text)


def cribbage_judgement(puzzle: Puzzle, text: str) -> tuple[bool, list[str]]:
    """Whether ``text`` is the best option, and why; ValueError when it cannot be one."""
    return puzzle_game(CRIBBAGE).judge(puzzle, text)


def judge(puzzle: Puzzle, text: str) -> tuple[bool, list[str]]:
    """(right, explanation); ValueError with a precise message for an answer that is not
    an option of the position."""
    return puzzle_game(puzzle.game).judge(puzzle, text)
