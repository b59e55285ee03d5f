"""The classic expert: strength against expert-v1 (mirrored pairs) and time per decision.

    python benchmarks/classic_expert.py --pairs 2000            # the full target run
    python benchmarks/classic_expert.py --pairs 300 --minutes 20  # a bounded run
    python benchmarks/classic_expert.py --time-only --games 6     # decision times only
    python benchmarks/classic_expert.py --pairs 300 --set NEAR_END=61  # a setting screened

Mirrored pairs as in ``kingscrib classic tournament`` (same deal order, seats swapped),
played one pair after another on one core; a running result is printed every 25 pairs,
so a bounded run (``--minutes``) still reports what it played. The 95% interval is
Wilson's. Decision times are CPU seconds of the expert's own choices (discards, and
cards in the play when it has more than one), in games against expert-v1.
``--set NAME=VALUE`` changes one of the expert module's settings (``NEAR_END``,
``PEG_SHARE``, ``PLAY_SAMPLES``, ``HOLDING_POOL``) for the run, to screen it
(``--set winprob.TABLE_FILE=PATH``: another module's, see :func:`apply_settings`).
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import time
from collections.abc import Callable

from kingscrib.arena.cribbage import play_pair
from kingscrib.arena.intervals import wilson
from kingscrib.classic.game import ClassicGame
from kingscrib.classic.rules import RuleSet
from kingscrib.players.classic import expert as expert_module
from kingscrib.players.classic import make_player


def apply_settings(items: list[str]) -> None:
    """Set the settings named in ``items`` for this run: ``NAME=VALUE`` in the expert's
    module, ``module.NAME=VALUE`` in another of ``kingscrib.players.classic`` (e.g.
    ``winprob.TABLE_FILE=/tmp/w.json``: a table to try)."""
    for item in items:
        name, _, text = item.partition("=")
        module_name, _, name = name.rpartition(".")
        module = (importlib.import_module(f"kingscrib.players.classic.{module_name}")
                  if module_name else expert_module)
        old = getattr(module, name)  # an unknown name fails here, not silently
        setattr(module, name, type(old)(text))


def run_pairs(label: str, pairs: int, minutes: float | None,
              play_pair: Callable[[int], list[tuple[bool, int]]]) -> None:
    """Play ``pairs`` mirrored pairs (``play_pair(i)``: A's (won, spread) in each game of
    pair ``i``), printing the running result every 25 pairs and when done or out of time."""
    start = time.perf_counter()
    wins = games = 0
    spread = 0
    for i in range(pairs):
        for won, s in play_pair(i):
            wins += won
            spread += s
            games += 1
        done = i + 1 == pairs or (minutes and time.perf_counter() - start > minutes * 60)
        if (i + 1) % 25 == 0 or done:
            low, high = wilson(wins, games)
            print(f"{i + 1} pairs: {label} {wins}-{games - wins}, {100 * wins / games:.1f}%"
                  f" (95% CI {100 * low:.1f}-{100 * high:.1f}%), mean spread"
                  f" {spread / games:+.2f}, {time.perf_counter() - start:.0f} s", flush=True)
        if done:
            break


def strength(a: str, b: str, pairs: int, seed: int, minutes: float | None) -> None:
    run_pairs(f"{a} v {b}", pairs, minutes,
              lambda i: [(g.won, g.spread) for g in play_pair((a, b, 2, seed + i))])


def decision_times(games: int, seed: int) -> None:
    times: dict[str, list[float]] = {"discard": [], "play": []}
    for g in range(games):
        game = ClassicGame(RuleSet(), seed=seed + g)
        me = g % 2
        players = [make_player("expert", seed + g), make_player("expert-v1", seed + g)]
        if me:
            players.reverse()
        while game.phase != "over":
            seat = game.to_act
            view = game.view(seat)
            c = time.process_time()
            action = players[seat].choose(view)
            spent = time.process_time() - c
            if seat == me and view.phase in times and len(view.legal) > 1:
                times[view.phase].append(spent)
            game.apply(action)
    for phase, t in times.items():
        t.sort()
        print(f"expert {phase}: {len(t)} decisions, median {1000 * statistics.median(t):.0f} ms,"
              f" 90th percentile {1000 * t[int(0.9 * len(t))]:.0f} ms,"
              f" max {1000 * t[-1]:.0f} ms CPU")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--minutes", type=float, default=None, help="stop after this long")
    ap.add_argument("--a", default="expert")
    ap.add_argument("--b", default="expert-v1")
    ap.add_argument("--games", type=int, default=6, help="games timed for decision times (0: none)")
    ap.add_argument("--time-only", action="store_true")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="an expert setting for this run (e.g. NEAR_END=61)")
    args = ap.parse_args()
    apply_settings(args.set)
    if args.games:
        decision_times(args.games, args.seed)
    if not args.time_only:
        strength(args.a, args.b, args.pairs, args.seed, args.minutes)


if __name__ == "__main__":
    main()
