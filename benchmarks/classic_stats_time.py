"""Time `kingscrib classic stats`: the exact score distribution over 12,994,800 hands.

Run: python benchmarks/classic_stats_time.py [--repeat 5]
Each repeat runs in a fresh process (cold caches), as the command does.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

CODE = (
    "import time; t = time.process_time()\n"
    "from kingscrib.classic.stats import score_stats; score_stats()\n"
    "print(time.process_time() - t)"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    times, cpu = [], []
    for _ in range(args.repeat):
        start = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", CODE], check=True, capture_output=True,
                             text=True)
        times.append(time.perf_counter() - start)
        cpu.append(float(out.stdout))
    print(f"classic stats: median {statistics.median(times):.3f} s wall (whole process), "
          f"{statistics.median(cpu):.3f} s CPU (import + computation) over {args.repeat} runs; "
          "limit 10 s")


if __name__ == "__main__":
    main()
