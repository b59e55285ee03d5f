"""The Kings Cribbage expert: strength against expert-v1 (or another player) at equal time.

    python benchmarks/kings_expert.py --pairs 500 --time 1.5       # the full target run
    python benchmarks/kings_expert.py --pairs 500 --time 0.1 --minutes 20   # a bounded run
    python benchmarks/kings_expert.py --b greedy --pairs 100 --time 0.1     # against greedy

    # one run split over two processes (pairs 0-249 and 250-499 of the same seed), combined
    python benchmarks/kings_expert.py --pairs 250 --time 0.1 --record a.jsonl &
    python benchmarks/kings_expert.py --pairs 250 --first-pair 250 --time 0.1 --record b.jsonl
    python benchmarks/kings_expert.py --combine a.jsonl b.jsonl

    # a screening run of another setting of the expert's parameters
    python benchmarks/kings_expert.py --pairs 60 --time 0.1 --seed 11 --set near_end=12

Two-player mirrored pairs (the same seed, so the same bag, with the seats swapped),
played one game after another in this process (one core). Both simulating sides get
the same budget, ``--time`` seconds a move (the levels' own is 1.5 s). A running
result is printed every 10 pairs, so a bounded run (``--minutes``) still reports what
it played. Draws count half. Two 95% intervals: Wilson's over games, and the normal one
over pair means (the two games of a pair share their tiles, so they are not
independent; this one is the honest one). ``--record`` writes one JSON line a pair
(its index, seed, points and spread for ``--a``, move times) as it goes.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from kingscrib.arena.intervals import pair_interval, wilson
from kingscrib.kings.rules import RuleSet
from kingscrib.players.kings import make_player
from kingscrib.players.kings.driver import play_game
from kingscrib.players.kings.expert import ExpertPlayer
from kingscrib.players.kings.sim import SimPlayer


def summary(a: str, b: str, budget: float | None, pair_points: list[float],
            total_spread: int, a_times: list[float], b_times: list[float]) -> str:
    games = 2 * len(pair_points)
    points = 2 * sum(pair_points)
    low, high = wilson(points, games)
    plow, phigh = pair_interval(pair_points)
    at = f" at {budget} s a move" if budget is not None else ""
    return (f"{len(pair_points)} pairs: {a} v {b}{at}: {points:g} of {games} games,"
            f" {100 * points / games:.1f}% (95% CI {100 * low:.1f}-{100 * high:.1f}% over games,"
            f" {100 * plow:.1f}-{100 * phigh:.1f}% over pairs),"
            f" mean spread {total_spread / games:+.2f}, median move {a}"
            f" {1000 * statistics.median(a_times):.0f} ms, {b}"
            f" {1000 * statistics.median(b_times):.0f} ms")


EXPERT_OPTIONS: dict[str, float] = {}  # --set: the expert's parameters, for screening


def build(name: str, seed: int, budget: float):
    """A player by name; the two experts with ``budget`` seconds a move."""
    if name == "expert":
        return ExpertPlayer(seed, time_budget=budget, **EXPERT_OPTIONS)
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
             minutes: float | None, first_pair: int = 0, record: str | None = None) -> None:
    start = time.perf_counter()
    rng = random.Random(seed)
    for _ in range(first_pair):  # a slice of the run: the same seeds as the whole would use
        rng.randrange(2**31)
    pair_points: list[float] = []
    total_spread = 0
    a_times: list[float] = []
    b_times: list[float] = []
    out = open(record, "a") if record else None
    for i in range(pairs):
        s = rng.randrange(2**31)
        got = 0.0
        pair_spread = 0
        pair_a: list[float] = []
        pair_b: list[float] = []
        for a_seat in (0, 1):
            seats = [Timed(build(a if k == a_seat else b, s * 8 + k, budget)) for k in (0, 1)]
            game = play_game(seats, RuleSet(), s)
            mine, theirs = game.final_scores[a_seat], game.final_scores[1 - a_seat]
            got += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            pair_spread += mine - theirs
            pair_a += seats[a_seat].times
            pair_b += seats[1 - a_seat].times
        pair_points.append(got / 2)
        total_spread += pair_spread
        a_times += pair_a
        b_times += pair_b
        if out:
            out.write(json.dumps({"pair": first_pair + i, "seed": s, "a": a, "b": b,
                                  "time": budget, "set": EXPERT_OPTIONS, "points": got, "spread": pair_spread,
                                  "a_times": [round(t, 4) for t in pair_a],
                                  "b_times": [round(t, 4) for t in pair_b]}) + "\n")
            out.flush()
        done = i + 1 == pairs or (minutes and time.perf_counter() - start > minutes * 60)
        if (i + 1) % 10 == 0 or done:
            print(summary(a, b, budget, pair_points, total_spread, a_times, b_times)
                  + f", {time.perf_counter() - start:.0f} s", flush=True)
        if done:
            break
    if out:
        out.close()


def combine(paths: list[str]) -> None:
    """One summary of the pairs recorded in ``paths`` (each pair once, by its index)."""
    pairs: dict[int, dict] = {}
    for path in paths:
        with open(path) as f:
            for line in f:
                if line.strip():
                    row = json.loads(line)
                    pairs[row["pair"]] = row
    rows = [pairs[k] for k in sorted(pairs)]
    if not rows:
        raise SystemExit("no pairs recorded")
    names = {(r["a"], r["b"], r["time"], json.dumps(r.get("set", {}), sort_keys=True))
             for r in rows}
    if len(names) != 1:
        raise SystemExit(f"the files record different matches: {sorted(names)}")
    a, b, budget, options = names.pop()
    if options != "{}":
        print(f"expert options: {options}")
    print(summary(a, b, budget, [r["points"] / 2 for r in rows], sum(r["spread"] for r in rows),
                  [t for r in rows for t in r["a_times"]], [t for r in rows for t in r["b_times"]]))
    missing = sorted(set(range(rows[0]["pair"], rows[-1]["pair"] + 1)) - set(pairs))
    print(f"pairs {rows[0]['pair']}-{rows[-1]['pair']}" +
          (f", missing {missing}" if missing else ", none missing"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time", type=float, default=1.5, help="seconds a move for both experts")
    ap.add_argument("--minutes", type=float, default=None, help="stop after this long")
    ap.add_argument("--a", default="expert")
    ap.add_argument("--b", default="expert-v1")
    ap.add_argument("--first-pair", type=int, default=0,
                    help="start at this pair of the run the seed gives (to split a run)")
    ap.add_argument("--record", help="append one JSON line a pair to this file")
    ap.add_argument("--combine", nargs="+", metavar="FILE",
                    help="summarise the pairs recorded in these files and stop")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="an ExpertPlayer parameter for this run (e.g. near_end=12)")
    args = ap.parse_args()
    for item in args.set:
        key, _, value = item.partition("=")
        EXPERT_OPTIONS[key] = int(value) if value.lstrip("-").isdigit() else float(value)
    if args.combine:
        combine(args.combine)
        return
    strength(args.a, args.b, args.pairs, args.seed, args.time, args.minutes, args.first_pair,
             args.record)


if __name__ == "__main__":
    main()
