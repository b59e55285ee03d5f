"""Classic Cribbage strength measured over mirrored pairs of games.

A pair plays two games on one seed, so the same deals, with the seats swapped. The win
rate's 95% interval is Wilson's over games (:func:`~kingscrib.arena.intervals.wilson`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kingscrib.arena.intervals import wilson
from kingscrib.common.backends import Backend, run_jobs

if TYPE_CHECKING:
    from kingscrib.classic.game import ClassicGame

# One pair: player A, player B, the seats, the seed.
PairJob = tuple[str, str, int, int]


@dataclass(frozen=True)
class PairGame:
    """One game of a pair, from A's side."""

    won: bool  # A's side won
    spread: int  # A's best side's score less B's best side's
    first_dealer_won: bool


def a_seats(players: int, swapped: bool) -> list[int]:
    """Seats of player A: the even seats (partners in the four-player game), the odd
    ones when swapped; with three players A has one seat (0, or 1 when swapped)."""
    if players == 3:
        return [1 if swapped else 0]
    return [s for s in range(players) if (s % 2 == 0) != swapped]


def seating(a: str, b: str, players: int, swapped: bool) -> list[str]:
    """Names by seat."""
    seats = a_seats(players, swapped)
    return [a if s in seats else b for s in range(players)]


def run_game(names: list[str], players: int, seed: int) -> ClassicGame:
    """One game among the computer players ``names`` (by seat)."""
    from kingscrib.classic.rules import RuleSet
    from kingscrib.players.classic import make_player, play_game

    seats = [make_player(n, seed * 10 + i) for i, n in enumerate(names)]
    return play_game(RuleSet(players=players), seed=seed, players=seats)


def play_pair(job: PairJob) -> list[PairGame]:
    """The two games of one pair, A in the first seats of the first game."""
    a, b, players, seed = job
    out = []
    for swapped in (False, True):
        game = run_game(seating(a, b, players, swapped), players, seed)
        rules = game.rules
        a_sides = {rules.side_of(s) for s in a_seats(players, swapped)}
        a_best = max(game.scores[s] for s in a_sides)
        b_best = max(game.scores[s] for s in range(rules.sides) if s not in a_sides)
        first = rules.side_of(game.first_dealer) == game.winner
        out.append(PairGame(game.winner in a_sides, a_best - b_best, first))
    return out


def summarise(a: str, b: str, players: int, seed: int, games: list[PairGame]) -> dict[str, Any]:
    """Wins, the win rate with its Wilson 95% interval, the spread, and how often the
    first dealer won."""
    n = len(games)
    a_wins = sum(1 for g in games if g.won)
    draws = 0  # a game of Cribbage has a winner
    rate = (a_wins + draws / 2) / n if n else 0.0
    low, high = wilson(a_wins + draws / 2, n)
    return {
        "a": a,
        "b": b,
        "players": players,
        "games": n,
        "a_wins": a_wins,
        "b_wins": n - a_wins,
        "draws": draws,
        "a_win_rate": round(rate, 4),
        "ci95": [round(low, 4), round(high, 4)],
        "mean_spread": round(sum(g.spread for g in games) / n, 2) if n else 0.0,
        "first_player_win_rate": round(sum(1 for g in games if g.first_dealer_won) / n, 4)
        if n else 0.0,
        "seed": seed,
    }


def match(a: str, b: str, pairs: int, seed: int = 0, players: int = 2,
          backend: Backend | None = None, progress: Any = None) -> dict[str, Any]:
    """Play ``pairs`` mirrored pairs of ``a`` against ``b`` (pair ``i`` on seed
    ``seed + i``) and summarise."""
    jobs = [(a, b, players, seed + i) for i in range(pairs)]
    games = [g for pair in run_jobs(play_pair, jobs, backend, progress, f"{a} v {b} (pairs)")
             for g in pair]
    return summarise(a, b, players, seed, games)


__all__ = ["PairGame", "PairJob", "a_seats", "match", "play_pair", "run_game", "seating",
           "summarise"]
