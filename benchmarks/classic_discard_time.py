"""Time the discard analysis (15 discards, hand over 46 starters, crib exactly).

Run: python benchmarks/classic_discard_time.py [--hands 20]
Times random six-card hands, each in a fresh process (cold caches, as
`kingscrib classic discard` runs), and also warm in one process.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time

from kingscrib.classic.cards import deck
from kingscrib.classic.discard import analyse_discards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    hands = [rng.sample(deck(), 6) for _ in range(args.hands)]
    cold, cli = [], []
    for i, hand in enumerate(hands):
        text = " ".join(map(str, hand))
        code = (
            "import time; t=time.process_time()\n"
            "from kingscrib.classic.cards import parse_cards\n"
            "from kingscrib.classic.discard import analyse_discards\n"
            f"analyse_discards(parse_cards({text!r}), dealer={i % 2 == 0})\n"
            "print(time.process_time()-t)"
        )
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        cold.append(float(out.stdout))
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-c", f"from kingscrib.cli.classic import classic; "
             f"classic(['discard'] + {text.split()!r}, standalone_mode=False)"],
            capture_output=True, check=True,
        )
        cli.append(time.perf_counter() - start)
    warm = []
    for i, hand in enumerate(hands):
        start = time.process_time()
        analyse_discards(hand, dealer=i % 2 == 0)
        warm.append(time.process_time() - start)
    print(f"discard analysis, cold (import + analysis, CPU time): median {statistics.median(cold):.3f} s")
    print(f"discard command, whole process:             median {statistics.median(cli):.3f} s")
    print(f"discard analysis, warm (CPU time):          median {statistics.median(warm):.3f} s")
    print("limit 0.5 s")


if __name__ == "__main__":
    main()
