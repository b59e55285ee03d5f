"""The learned Cribbage player: its learning curve and its strength against the levels.

    python benchmarks/learned_cribbage.py curve CHECKPOINTS [--pairs 50]
    python benchmarks/learned_cribbage.py strength [--pairs 1000] [--workers 1] [LEVEL ...]

``curve`` plays every checkpoint of ``kingscrib classic train-learned --checkpoints
CHECKPOINTS`` (and the untrained networks, step 0) over ``--pairs`` mirrored pairs
against ``random``, ``easy`` and ``hard`` (the same seeds for every checkpoint) and prints
the Markdown table of docs/rl.md. ``strength`` plays the shipped weights (``learned``)
against each level (by default random, easy, medium, hard) over mirrored pairs with
:func:`kingscrib.arena.cribbage.match`, with Wilson 95% intervals, one line a level
as it comes. Takes CPU minutes to an hour.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from kingscrib.arena.cribbage import match
from kingscrib.arena.intervals import wilson
from kingscrib.common.backends import Backend
from kingscrib.players.classic.learned import Weights
from kingscrib.training.learned import Settings, evaluate, initial_weights

CURVE_OPPONENTS = ("random", "easy", "hard")


def _rate(rate: float, games: int) -> str:
    low, high = wilson(rate * games, games)
    return f"{rate:.1%} ({low:.1%}-{high:.1%})"


def curve(folder: Path, pairs: int) -> None:
    points = [(0, initial_weights(Settings().hidden, Settings().seed))]
    for path in sorted(folder.glob("step*.npz")):
        points.append((int(path.stem[4:]), Weights.load(path)))
    rows = []
    for steps, weights in points:
        start = time.process_time()
        rates = [evaluate(weights, o, pairs) for o in CURVE_OPPONENTS]
        row = (f"| {steps:,} | " + " | ".join(_rate(r, 2 * pairs) for r in rates)
               + f" | {time.process_time() - start:.0f} |")
        print(row, flush=True)
        rows.append(row)
    print(f"\n{2 * pairs} games a point, mirrored pairs on seeds 10000..{10000 + pairs - 1}\n")
    print("| training steps | " + " | ".join(f"wins v `{o}` (95%)" for o in CURVE_OPPONENTS)
          + " | eval CPU s |")
    print("| ---: |" + " ---: |" * (len(CURVE_OPPONENTS) + 1))
    print("\n".join(rows))


def strength(levels: list[str], pairs: int, workers: int, seed: int) -> None:
    for level in levels:
        start, wall = time.process_time(), time.perf_counter()
        s = match("learned", level, pairs, seed=seed, backend=Backend(workers=workers))
        low, high = s["ci95"]
        print(f"| `{level}` | {s['games']} | {s['a_wins']} | {s['a_win_rate']:.1%} | "
              f"{low:.1%}-{high:.1%} | {s['mean_spread']:+.1f} | "
              f"{time.perf_counter() - wall:.0f} s wall, "
              f"{time.process_time() - start:.0f} s CPU |", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    c = sub.add_parser("curve")
    c.add_argument("checkpoints", type=Path)
    c.add_argument("--pairs", type=int, default=50)
    s = sub.add_parser("strength")
    s.add_argument("levels", nargs="*", default=["random", "easy", "medium", "hard"])
    s.add_argument("--pairs", type=int, default=1000)
    s.add_argument("--workers", type=int, default=1)
    s.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.what == "curve":
        curve(args.checkpoints, args.pairs)
    else:
        print("| against | games | won | win rate | 95% interval | mean spread | time |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
        strength(args.levels, args.pairs, args.workers, args.seed)
