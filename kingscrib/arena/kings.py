"""Kings Cribbage strength measured over mirrored pairs of games.

Each pair plays two games from the same seed, so the same bag and the same first
draw, with the seats swapped: whatever luck one side had in the first game, the
other side gets in the second. The 95% interval is computed over pair means
(the two games of a pair are not independent).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from kingscrib.arena.intervals import wilson
from kingscrib.common.backends import run_parallel
from kingscrib.kings.rules import RuleSet

# One game: player A, player B, the seed, the seats, A's seats, the rules as JSON.
Job = tuple[str, str, int, int, tuple[int, ...], dict[str, Any]]


@dataclass(frozen=True)
class GameResult:
    seed: int
    a_seats: tuple[int, ...]
    scores: tuple[int, ...]
    first_player: int
    turns: int

    @property
    def a_score(self) -> int:
        return max(self.scores[s] for s in self.a_seats)

    @property
    def b_score(self) -> int:
        return max(s for i, s in enumerate(self.scores) if i not in self.a_seats)

    @property
    def points_for_a(self) -> float:
        return 1.0 if self.a_score > self.b_score else 0.0 if self.a_score < self.b_score else 0.5

    @property
    def first_player_points(self) -> float:
        top = max(self.scores)
        winners = [i for i, s in enumerate(self.scores) if s == top]
        if self.first_player not in winners:
            return 0.0
        return 1.0 / len(winners)

    @property
    def spread(self) -> float:
        """A's mean final score less B's mean final score."""
        a = [self.scores[s] for s in self.a_seats]
        b = [s for i, s in enumerate(self.scores) if i not in self.a_seats]
        return sum(a) / len(a) - sum(b) / len(b)


def play_one(job: Job) -> GameResult:
    """Play the game of one job (see :func:`jobs_for`)."""
    from kingscrib.players.kings import make_player
    from kingscrib.players.kings.driver import play_game

    a, b, seed, players, a_seats, rules = job
    seats = []
    for i in range(players):
        name = a if i in a_seats else b
        seats.append(make_player(name, seed * 8 + i))
    game = play_game(seats, RuleSet.from_json(rules), seed,
                     names=[f"{p.name}{i}" for i, p in enumerate(seats)])
    return GameResult(seed, a_seats, tuple(game.final_scores), game.first_player,
                      len(game.history))


def pair_jobs(a: str, b: str, seed: int, players: int = 2,
              rules: RuleSet | None = None) -> tuple[Job, Job]:
    """The two games of one mirrored pair: A in the even seats, then in the odd ones."""
    rules_json = (rules or RuleSet()).to_json()
    first = tuple(i for i in range(players) if i % 2 == 0)
    second = tuple(i for i in range(players) if i % 2 == 1)
    return (a, b, seed, players, first, rules_json), (a, b, seed, players, second, rules_json)


def jobs_for(a: str, b: str, pairs: int, seed: int, players: int = 2,
             rules: RuleSet | None = None) -> list[Job]:
    """The games of ``pairs`` mirrored pairs, each pair's seed drawn from ``seed``."""
    rng = random.Random(seed)
    jobs: list[Job] = []
    for _ in range(pairs):
        jobs.extend(pair_jobs(a, b, rng.randrange(2**31), players, rules))
    return jobs


def summarise(a: str, b: str, results: list[GameResult], seed: int) -> dict[str, Any]:
    """Wins, the win rate with its Wilson 95% interval, the spread, and how
    often the first player won; ``results`` in pairs, as :func:`jobs_for` orders them."""
    n = len(results)
    a_wins = sum(1 for r in results if r.points_for_a == 1.0)
    b_wins = sum(1 for r in results if r.points_for_a == 0.0)
    draws = n - a_wins - b_wins
    rate = (a_wins + draws / 2) / n if n else 0.0
    # Wilson's interval over games, as everywhere an interval is shown: it never shrinks
    # to a point (4 games won of 4 is not "100% - 100%"), and it is the wider, safe side
    # for mirrored pairs, whose two games tend to split when the deal favours a seat.
    low, high = wilson(a_wins + draws / 2, n)
    return {
        "a": a, "b": b, "pairs": n // 2, "games": n, "seed": seed,
        "a_wins": a_wins, "b_wins": b_wins, "draws": draws,
        "a_win_rate": round(rate, 4),
        "ci95": [round(low, 4), round(high, 4)],
        "mean_spread": round(sum(r.spread for r in results) / n, 2) if n else 0.0,
        "first_player_win_rate": round(sum(r.first_player_points for r in results) / n, 4)
        if n else 0.0,
        "mean_turns": round(sum(r.turns for r in results) / n, 1) if n else 0.0,
    }


def match(a: str, b: str, pairs: int, seed: int = 1, players: int = 2,
          workers: int | None = None, rules: RuleSet | None = None,
          progress: Any = None) -> dict[str, Any]:
    """Play ``pairs`` mirrored pairs of ``a`` against ``b`` on the current backend and
    summarise."""
    results = run_parallel(play_one, jobs_for(a, b, pairs, seed, players, rules),
                           workers=workers, progress=progress, description=f"{a} v {b}")
    return summarise(a, b, results, seed)


__all__ = ["GameResult", "Job", "jobs_for", "match", "pair_jobs", "play_one", "summarise"]
