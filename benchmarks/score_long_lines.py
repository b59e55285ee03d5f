"""How long `kingscrib score` takes to count a line, by its length, and to refuse one
longer than the board.

A line over 5 tiles is never a valid hand, but the score tool still counts the
fifteens, pairs and runs of a line of up to 13 tiles (a whole row of the board).
Fifteens are counted by sums (a table of 16 counts per tile), so the time grows with
the length, not with the 2^n subsets. A longer line is refused before it is counted
(counting 100,000 tiles took over ten minutes).

    python benchmarks/score_long_lines.py
"""

from __future__ import annotations

import statistics
import time

from kingscrib.cli.kings_commands import hand_json
from kingscrib.kings.hands import hand_value, parse_hand

LENGTHS = (5, 9, 13)
REFUSED = (14, 100_000)
REPEATS = 7


def median_seconds(job) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        job()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    base = median_seconds(lambda: hand_value(parse_hand("5555J")))
    print(f"{'tiles':>7} {'median':>12} {'x 5 tiles':>10}")
    for n in LENGTHS:
        text = "5" * n if n != 5 else "5555J"
        t = median_seconds(lambda text=text: hand_value(parse_hand(text)))
        print(f"{n:>7} {t * 1e3:>9.3f} ms {t / base:>10.1f}")
    for n in REFUSED:
        text = "5" * n
        t = median_seconds(lambda text=text: hand_json(text))
        print(f"{n:>7} {t * 1e3:>9.3f} ms {t / base:>10.1f}  (refused: longer than the board)")


if __name__ == "__main__":
    main()
