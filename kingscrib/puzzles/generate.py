"""Finding puzzles in self-play: computer players play games and every position a player
faces is analysed; the ones that make a puzzle (see each game's module) are kept.

Each job is one game from its seed, so the same seeds give the same puzzles on any
backend (:mod:`kingscrib.backends`).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from kingscrib.backends import Backend, run_jobs
from kingscrib.puzzles.puzzle import Puzzle

KINGS_PLAYER = "greedy"  # plays the self-play games: fast, and its positions tempt greed


def kings_game_puzzles(seed: int) -> list[Puzzle]:
    """The puzzles of one Kings self-play game (two seats)."""
    from kingscrib.kings.game import Game
    from kingscrib.kings.position import Position
    from kingscrib.players.kings import make_player
    from kingscrib.players.kings.driver import take_turn
    from kingscrib.puzzles.kings import make_puzzle

    game = Game.new([KINGS_PLAYER, KINGS_PLAYER], None, seed)
    players = [make_player(KINGS_PLAYER, seed * 10 + i) for i in range(2)]
    found = []
    turn = 0
    while not game.is_over:
        view = game.view(game.turn)
        p = view.position
        position = Position(dict(p.board), list(p.rack), p.bag, p.rules)
        puzzle = make_puzzle(position, seed * 1000 + turn, f"kings-{seed}-{turn + 1}")
        if puzzle is not None:
            found.append(puzzle)
        take_turn(game, players)
        turn += 1
    return found


def cribbage_game_puzzles(seed: int) -> list[Puzzle]:
    from kingscrib.puzzles.cribbage import game_puzzles

    return game_puzzles(seed)


JOBS: dict[str, Callable[[int], list[Puzzle]]] = {
    "kings": kings_game_puzzles, "cribbage": cribbage_game_puzzles}


# Puzzles a self-play game gives, about (benchmarks/puzzle_rate.py): how many games to
# hand the backend at once, so that one batch nearly always suffices (a Ray backend is
# started once a batch).
PER_GAME = {"kings": 0.6, "cribbage": 0.4}


def generate(game: str, count: int, backend: Backend | None = None, first_seed: int = 1,
             on_found: Callable[[int], None] | None = None) -> list[Puzzle]:
    """``count`` puzzles of ``game`` from games seeded ``first_seed``, ``first_seed + 1``,
    ... (in seed order, so the same seed gives the same set on every backend);
    ``on_found(n)`` hears of each game's ``n`` puzzles."""
    job = JOBS[game]
    found: list[Puzzle] = []
    seed = first_seed
    while len(found) < count:
        batch = math.ceil((count - len(found)) / PER_GAME[game] * 1.2)
        seeds = list(range(seed, seed + batch))
        seed += batch
        for puzzles in run_jobs(job, seeds, backend or Backend(workers=1),
                                on_result=lambda ps: on_found(len(ps)) if on_found else None):
            found.extend(puzzles)
    return found[:count]
