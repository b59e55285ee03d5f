"""Strength measured over mirrored pairs of games.

Each pair plays two games from the same seed, so the same bag and the same first
draw, with the seats swapped: whatever luck one side had in the first game, the
other side gets in the second. The 95% interval is computed over pair means
(the two games of a pair are not independent).
"""

from __future__ import annotations

import math
import random
from dataclasses import asdict, dataclass
from typing import Any

from kingscrib.kings.rules import RuleSet
from kingscrib.players.kings.parallel import run_parallel


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


def _play_one(job: tuple[str, str, int, int, tuple[int, ...], dict]) -> GameResult:
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


def jobs_for(a: str, b: str, pairs: int, seed: int, players: int = 2,
             rules: RuleSet | None = None) -> list[tuple]:
    rng = random.Random(seed)
    rules_json = (rules or RuleSet()).to_json()
    first = tuple(i for i in range(players) if i % 2 == 0)
    second = tuple(i for i in range(players) if i % 2 == 1)
    jobs = []
    for _ in range(pairs):
        s = rng.randrange(2**31)
        jobs.append((a, b, s, players, first, rules_json))
        jobs.append((a, b, s, players, second, rules_json))
    return jobs


def summarise(a: str, b: str, results: list[GameResult], seed: int) -> dict[str, Any]:
    n = len(results)
    a_wins = sum(1 for r in results if r.points_for_a == 1.0)
    b_wins = sum(1 for r in results if r.points_for_a == 0.0)
    draws = n - a_wins - b_wins
    rate = (a_wins + draws / 2) / n if n else 0.0
    pair_means = [(results[i].points_for_a + results[i + 1].points_for_a) / 2
                  for i in range(0, n - 1, 2)]
    m = len(pair_means)
    if m > 1:
        mean = sum(pair_means) / m
        var = sum((x - mean) ** 2 for x in pair_means) / (m - 1)
        half = 1.96 * math.sqrt(var / m)
    else:
        half = 0.5
    return {
        "a": a, "b": b, "pairs": n // 2, "games": n, "seed": seed,
        "a_wins": a_wins, "b_wins": b_wins, "draws": draws,
        "a_win_rate": round(rate, 4),
        "ci95": [round(max(0.0, rate - half), 4), round(min(1.0, rate + half), 4)],
        "mean_spread": round(sum(r.spread for r in results) / n, 2) if n else 0.0,
        "first_player_win_rate": round(sum(r.first_player_points for r in results) / n, 4)
        if n else 0.0,
        "mean_turns": round(sum(r.turns for r in results) / n, 1) if n else 0.0,
    }


def tournament(a: str, b: str, pairs: int, seed: int = 1, players: int = 2,
               workers: int | None = None, rules: RuleSet | None = None,
               progress: Any = None) -> dict[str, Any]:
    """Play ``pairs`` mirrored pairs of ``a`` against ``b`` and summarise."""
    results = run_parallel(_play_one, jobs_for(a, b, pairs, seed, players, rules),
                           workers=workers, progress=progress, description=f"{a} v {b}")
    return summarise(a, b, results, seed)


__all__ = ["GameResult", "asdict", "jobs_for", "summarise", "tournament"]
