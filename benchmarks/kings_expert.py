"""The Kings Cribbage expert: strength against expert-v1 (or another player) at equal time.

    python benchmarks/kings_expert.py --pairs 500 --time 1.5       # the full target run
    python benchmarks/kings_expert.py --pairs 500 --time 0.1 --minutes 20   # a bounded run
    python benchmarks/kings_expert.py --b greedy --pairs 100 --time 0.1     # against greedy

Two-player mirrored pairs (the same seed, so the same bag, with the seats swapped),
played one game after another in this process (one core). Both simulating sides get
the same budget, ``--time`` seconds a move (the levels' own is 1.5 s). A running
result is printed every 10 pairs, so a bounded run (``--minutes``) still reports what
it played. Draws count half; the 95% interval is Wilson's, over games.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from kingscrib.kings.rules import RuleSet
from kingscrib.players.kings import make_player
from kingscrib.players.kings.driver import play_game
from kingscrib.players.kings.expert import ExpertPlayer
from kingscrib.players.kings.sim import SimPlayer


def wilson(points: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = points / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return centre - half, centre + half


def build(name: str, seed: int, budget: float):
    """A player by name; the two experts with ``budget`` seconds a move."""
    if name == "expert":
        return ExpertPlayer(seed, time_budget=budget)
    if name == "expert-v1":
        p = SimPlayer(seed, time_budget=budget)
        p.name = "expert-v1"
        return p
    return make_player(name, seed)


class Timed:
    """Wraps a player and records the wall time of each of its moves."""

    def __init__(self, player) -> None:
        self.player = player
        self.name = player.name
        self.times: list[float] = []

    def choose(self, view):
        t = time.perf_counter()
        action = self.player.choose(view)
        self.times.append(time.perf_counter() - t)
        return action

    def claim(self, view, play):
        return self.player.claim(view, play)

    def calls_joker(self, view, missed):
        return self.player.calls_joker(view, missed)


def strength(a: str, b: str, pairs: int, seed: int, budget: float,
             minutes: float | None) -> None:
    start = time.perf_counter()
    rng = random.Random(seed)
    points = 0.0
    games = 0
    spread = 0
    a_times: list[float] = []
    b_times: list[float] = []
    for i in range(pairs):
        s = rng.randrange(2**31)
        for a_seat in (0, 1):
            seats = [Timed(build(a if k == a_seat else b, s * 8 + k, budget)) for k in (0, 1)]
            game = play_game(seats, RuleSet(), s)
            mine, theirs = game.final_scores[a_seat], game.final_scores[1 - a_seat]
            points += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            spread += mine - theirs
            games += 1
            a_times += seats[a_seat].times
            b_times += seats[1 - a_seat].times
        done = i + 1 == pairs or (minutes and time.perf_counter() - start > minutes * 60)
        if (i + 1) % 10 == 0 or done:
            low, high = wilson(points, games)
            print(f"{i + 1} pairs: {a} v {b} at {budget} s a move: {points:g} of {games} games,"
                  f" {100 * points / games:.1f}% (95% CI {100 * low:.1f}-{100 * high:.1f}%),"
                  f" mean spread {spread / games:+.2f}, median move {a}"
                  f" {1000 * statistics.median(a_times):.0f} ms, {b}"
                  f" {1000 * statistics.median(b_times):.0f} ms,"
                  f" {time.perf_counter() - start:.0f} s", flush=True)
        if done:
            break


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time", type=float, default=1.5, help="seconds a move for both experts")
    ap.add_argument("--minutes", type=float, default=None, help="stop after this long")
    ap.add_argument("--a", default="expert")
    ap.add_argument("--b", default="expert-v1")
    args = ap.parse_args()
    strength(args.a, args.b, args.pairs, args.seed, args.time, args.minutes)


if __name__ == "__main__":
    main()
