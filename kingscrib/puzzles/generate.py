"""Finding puzzles in self-play: computer players play games and every position a player
faces is analysed; the ones that make a puzzle (see each game's module) are kept.

Each job is one game from its seed, so the same seeds give the same puzzles on any
backend (:mod:`kingscrib.common.backends`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from kingscrib.common.backends import Backend, run_jobs
from kingscrib.core import CRIBBAGE, KINGS
from kingscrib.puzzles.games import puzzle_game
from kingscrib.puzzles.puzzle import Puzzle

if TYPE_CHECKING:
    from kingscrib.puzzles.kings import SelfPlayPosition

def kings_positions(seed: int) -> Iterator[SelfPlayPosition]:
    """Each position a player faces in one Kings self-play game (two seats), with the
    seed its analysis uses and the id its puzzle would have."""
    from kingscrib.puzzles.kings import positions

    return positions(seed)


def kings_game_puzzles(seed: int) -> list[Puzzle]:
    """The puzzles of one Kings self-play game (two seats)."""
    return puzzle_game(KINGS).game_puzzles(seed)


def cribbage_game_puzzles(seed: int) -> list[Puzzle]:
    return puzzle_game(CRIBBAGE).game_puzzles(seed)


def cribbage_card_puzzles(seed: int) -> list[Puzzle]:
    """Only the best-card puzzles of one game (the same ones the whole game's job finds):
    they are rarer than discards, so a set is topped up with them."""
    from kingscrib.puzzles.cribbage import CARD, game_puzzles

    return game_puzzles(seed, kinds=(CARD,))


JOBS: dict[str, Callable[[int], list[Puzzle]]] = {
    "kings": kings_game_puzzles, "cribbage": cribbage_game_puzzles}
KIND_JOBS: dict[str, Callable[[int], list[Puzzle]]] = {"best-card": cribbage_card_puzzles}


# Puzzles a self-play game gives, about (benchmarks/puzzle_rate.py): how many games to
# hand the backend at once, so that one batch nearly always suffices (a Ray backend is
# started once a batch).
PER_GAME = {"kings": 0.6, "cribbage": 0.4, "best-card": 0.02}


def generate(game: str, count: int, backend: Backend | None = None, first_seed: int = 1,
             on_found: Callable[[int], None] | None = None,
             kind: str | None = None) -> list[Puzzle]:
    """``count`` puzzles of ``game`` (only of ``kind`` when given) from games seeded
    ``first_seed``, ``first_seed + 1``, ... (in seed order, so the same seed gives the same
    set on every backend); ``on_found(n)`` hears of each game's ``n`` puzzles."""
    job = KIND_JOBS.get(kind or "", JOBS[game])
    found: list[Puzzle] = []
    seed = first_seed
    while len(found) < count:
        batch = math.ceil((count - len(found)) / PER_GAME[kind or game] * 1.2)
        seeds = list(range(seed, seed + batch))
        seed += batch
        for puzzles in run_jobs(job, seeds, backend or Backend(workers=1),
                                on_result=lambda ps: on_found(len(ps)) if on_found else None):
            found.extend(puzzles)
    return found[:count]
