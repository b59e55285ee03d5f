"""The arena of agents: every agent against every other over mirrored pairs on fixed
seeds, rated by Bradley-Terry with 95% intervals, as a markdown table.

Every match plays the same ``pairs`` seeds (pair ``k`` on seed ``seed + k``), so every
agent meets the same deals; a pair plays its seed twice, the seats swapped. Two seats.
The games run on the current backend (:mod:`kingscrib.common.backends`: local processes
or Ray), one job a pair, results in job order: the same seeds give the same table on
either backend.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from kingscrib.arena.agents import KINGS, make_cribbage_agent, make_kings_agent, spec_of
from kingscrib.arena.ratings import DEFAULT_PRIOR, Match, Rating, bootstrap
from kingscrib.common.backends import Backend, run_jobs

# One pair: the game, A's name and spec, B's name and spec, the seed.
PairJob = tuple[str, str, str, str, str, int]


def _kings_points(specs: list[str], seed: int, a_seat: int) -> float:
    from kingscrib.kings.rules import RuleSet
    from kingscrib.players.kings.driver import play_game

    players = [make_kings_agent(spec, seed * 8 + seat) for seat, spec in enumerate(specs)]
    game = play_game(players, RuleSet(), seed,
                     names=[f"{p.name}{i}" for i, p in enumerate(players)])
    mine, theirs = game.final_scores[a_seat], game.final_scores[1 - a_seat]
    return 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5


def _cribbage_points(specs: list[str], seed: int, a_seat: int) -> float:
    from kingscrib.classic.rules import RuleSet
    from kingscrib.players.classic.driver import play_game

    players = [make_cribbage_agent(spec, seed * 8 + seat) for seat, spec in enumerate(specs)]
    return 1.0 if play_game(RuleSet(players=2), seed, players).winner == a_seat else 0.0


def play_pair(job: PairJob) -> float:
    """A's points over the two games of one mirrored pair (0 to 2): the same seed (the
    same deals), A in seat 0 and then in seat 1."""
    game, _, a_spec, _, b_spec, seed = job
    points = _kings_points if game == KINGS else _cribbage_points
    return points([a_spec, b_spec], seed, 0) + points([b_spec, a_spec], seed, 1)


@dataclass(frozen=True)
class ArenaResult:
    game: str
    names: tuple[str, ...]
    pairs: int
    seed: int
    matches: tuple[Match, ...]
    ratings: tuple[Rating, ...]
    anchor: str | None
    seconds: float


def jobs_for(game: str, names: list[str], pairs: int, seed: int) -> list[PairJob]:
    """Every match's pairs: each unordered couple of agents on seeds ``seed .. seed+pairs-1``."""
    specs = {n: spec_of(game, n) for n in names}
    return [(game, a, specs[a], b, specs[b], seed + k)
            for a, b in combinations(names, 2) for k in range(pairs)]


def matches_of(jobs: list[PairJob], results: list[float]) -> list[Match]:
    """The jobs' pair results gathered by match (2 games a pair)."""
    by_match: dict[tuple[str, str], list[float]] = {}
    for job, points in zip(jobs, results):
        by_match.setdefault((job[1], job[3]), []).append(points)
    return [Match(a, b, sum(p), 2 * len(p), tuple(p)) for (a, b), p in by_match.items()]


def run_arena(game: str, names: list[str], pairs: int, seed: int = 1,
              backend: Backend | None = None, progress: Any = None, samples: int = 200,
              anchor: str | None = None, prior: float = DEFAULT_PRIOR) -> ArenaResult:
    """Play every match and rate the agents (``anchor`` at 0, else their mean)."""
    if len(set(names)) != len(names) or len(names) < 2:
        raise ValueError("the arena needs two or more different agents")
    if anchor is not None and anchor not in names:
        raise ValueError(f"the anchor {anchor!r} is not one of the agents")
    jobs = jobs_for(game, names, pairs, seed)
    start = time.perf_counter()
    results = run_jobs(play_pair, jobs, backend, progress, f"{game} arena (pairs)")
    seconds = time.perf_counter() - start
    matches = matches_of(jobs, results)
    ratings = bootstrap(names, matches, samples=samples, seed=seed, prior=prior, anchor=anchor)
    return ArenaResult(game, tuple(names), pairs, seed, tuple(matches), tuple(ratings),
                       anchor, seconds)


def table(result: ArenaResult) -> str:
    """The ratings as a markdown table, best first, then each agent's score against each."""
    names = [r.name for r in result.ratings]
    lines = ["| rank | agent | rating | 95% interval | score | games |",
             "| ---: | --- | ---: | --- | ---: | ---: |"]
    for k, r in enumerate(result.ratings, 1):
        share = r.points / r.games if r.games else 0.0
        lines.append(f"| {k} | `{r.name}` | {r.rating:+.0f} | {r.low:+.0f} to {r.high:+.0f} "
                     f"| {share:.1%} | {r.games:,} |")
    lines.append("")
    score: dict[tuple[str, str], float] = {}
    for m in result.matches:
        score[(m.a, m.b)] = m.points / m.games
        score[(m.b, m.a)] = 1 - m.points / m.games
    lines.append("| row's score v column | " + " | ".join(f"`{n}`" for n in names) + " |")
    lines.append("| --- |" + " ---: |" * len(names))
    for a in names:
        cells = [f"{score[(a, b)]:.0%}" if (a, b) in score else "" for b in names]
        lines.append(f"| `{a}` | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def to_json(result: ArenaResult) -> dict[str, Any]:
    return {
        "game": result.game, "pairs": result.pairs, "seed": result.seed,
        "anchor": result.anchor, "seconds": round(result.seconds, 1),
        "ratings": [{"agent": r.name, "rating": round(r.rating, 1),
                     "ci95": [round(r.low, 1), round(r.high, 1)],
                     "points": r.points, "games": r.games} for r in result.ratings],
        "matches": [{"a": m.a, "b": m.b, "a_points": m.points, "games": m.games}
                    for m in result.matches],
    }


__all__ = ["ArenaResult", "PairJob", "jobs_for", "matches_of", "play_pair", "run_arena",
           "table", "to_json"]
