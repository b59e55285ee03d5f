"""How long `kingscrib score` takes to count a line, by its length.

A line over 5 tiles is never a valid hand, but the score tool still counts its
fifteens, pairs and runs. Fifteens are counted by sums (a table of 16 counts per
tile), so the time grows with the length, not with the 2^n subsets.

    python benchmarks/score_long_lines.py
"""

from __future__ import annotations

import statistics
import time

from kingscrib.kings.hands import hand_value, parse_hand

LENGTHS = (5, 22, 38, 100, 1000)
REPEATS = 7


def median_seconds(text: str) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        hand_value(parse_hand(text))
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    base = median_seconds("5" * 5)
    print(f"{'tiles':>6} {'median':>12} {'x 5 tiles':>10}")
    for n in LENGTHS:
        t = median_seconds(("5" * n) if n != 5 else "5555J")
        print(f"{n:>6} {t * 1e3:>9.3f} ms {t / base:>10.1f}")


if __name__ == "__main__":
    main()
