"""Strength: ``expert`` against the baseline (random discard, best pegging card now).

Run: python benchmarks/classic_strength.py [--pairs 1000] [--workers 2] [--a expert] [--b baseline]
It runs `kingscrib classic tournament` (mirrored pairs: same deck order,
seats swapped) and prints its result; 1,000 pairs = 2,000 games.
"""

from __future__ import annotations

import argparse
import time

from kingscrib.cli.classic import classic


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--a", default="expert")
    parser.add_argument("--b", default="baseline")
    args = parser.parse_args()
    argv = ["tournament", "--a", args.a, "--b", args.b, "--pairs", str(args.pairs),
            "--seed", str(args.seed), "--json"]
    if args.workers:
        argv += ["--workers", str(args.workers)]
    start = time.perf_counter()
    try:
        classic(argv, standalone_mode=False)
    finally:
        print(f"wall time {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
