"""Puzzle generation rate: puzzles found per CPU-minute of self-play and analysis.

    python benchmarks/puzzle_rate.py            # full run
    python benchmarks/puzzle_rate.py --quick    # a smaller sample
    python benchmarks/puzzle_rate.py --verify   # re-verify every shipped puzzle instead

Per game, a few rounds of self-play games (each round new seeds), one core; the rate of
a round is its puzzles over its process CPU time (fair on a shared machine). Prints the
median rate and the spread. ``--verify`` re-checks the whole shipped sets instead and
prints the time per puzzle (the unit tests check a sample each run); it fails on any
puzzle that does not hold.
"""

from __future__ import annotations

import argparse
import statistics
import time

from kingscrib.puzzles.generate import JOBS
from kingscrib.puzzles.puzzle import GAMES, shipped
from kingscrib.puzzles.verify import problems


def rate(game: str, seeds: range) -> tuple[float, int, float]:
    """(puzzles per CPU-minute, puzzles, CPU seconds) of the games ``seeds``."""
    start = time.process_time()
    found = sum(len(JOBS[game](s)) for s in seeds)
    cpu = time.process_time() - start
    return found / cpu * 60, found, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--verify", action="store_true")
    args = parser.parse_args()
    rounds, games = (3, {"kings": 4, "cribbage": 20}) if args.quick else \
        (5, {"kings": 12, "cribbage": 60})
    if args.verify:
        verify_shipped()
        return
    print(f"{'game':<10} {'games/round':>11} {'median/CPU-min':>15} {'min':>7} {'max':>7}"
          f" {'puzzles':>8}")
    for game in GAMES:
        rates, total = [], 0
        for r in range(rounds):
            first = 100_000 + r * games[game]  # away from the seeds of the shipped sets
            per_min, found, _ = rate(game, range(first, first + games[game]))
            rates.append(per_min)
            total += found
        print(f"{game:<10} {games[game]:>11} {statistics.median(rates):>15.1f}"
              f" {min(rates):>7.1f} {max(rates):>7.1f} {total:>8}")


def verify_shipped() -> None:
    """Every shipped puzzle analysed again; exit 1 if any does not hold."""
    for game in GAMES:
        puzzles = shipped(game)
        start = time.process_time()
        bad = [p.id for p in puzzles if problems(p)]
        cpu = time.process_time() - start
        print(f"verify {game}: {len(puzzles)} puzzles, {len(bad)} wrong, "
              f"{1000 * cpu / max(1, len(puzzles)):.1f} ms CPU each"
              + (f" (wrong: {', '.join(bad[:5])})" if bad else ""))
        if bad:
            raise SystemExit(1)

if __name__ == "__main__":
    main()
