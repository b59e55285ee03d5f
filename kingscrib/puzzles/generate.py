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
from kingscrib.puzzles.puzzle import Puzzle

if TYPE_CHECKING:
    from kingscrib.kings.position import Position

KINGS_PLAYER = "greedy"  # plays the self-play games: fast, and its positions tempt greed


def kings_positions(seed: int) -> Iterator[tuple[Position, int, str]]:
    """Each position a player faces in one Kings self-play game (two seats), with the
    seed its analysis uses and the id its puzzle would have."""
    from kingscrib.kings.game import Game
    from kingscrib.kings.position import Position
    from kingscrib.players.kings import make_player
    from kingscrib.players.kings.driver import take_turn

    game = Game.new([KINGS_PLAYER, KINGS_PLAYER], None, seed)
    players = [make_player(KINGS_PLAYER, seed * 10 + i) for i in range(2)]
    turn = 0
    while not game.is_over:
        p = game.view(game.turn).position
        yield (Position(dict(p.board), list(p.rack), p.bag, p.rules), seed * 1000 + turn,
               f"kings-{seed}-{turn + 1}")
        take_turn(game, players)
        turn += 1


def kings_game_puzzles(seed: int) -> list[Puzzle]:
    """The puzzles of one Kings self-play game (two seats)."""
    from kingscrib.puzzles.kings import make_puzzle

    found = []
    for position, analysis_seed, puzzle_id in kings_positions(seed):
        puzzle = make_puzzle(position, analysis_seed, puzzle_id)
        if puzzle is not None:
            found.append(puzzle)
    return found


def cribbage_game_puzzles(seed: int) -> list[Puzzle]:
    from kingscrib.puzzles.cribbage import game_puzzles

    return game_puzzles(seed)


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
