"""A win-probability table and deal phases from a classic player's own self-play.

    python benchmarks/classic_selfplay_table.py --games 600 --seed 7 --out /tmp/expert-table
    python benchmarks/classic_expert.py --pairs 300 --set NEAR_END=0 \\
        --set winprob.TABLE_FILE=/tmp/expert-table/winprob.json \\
        --set winprob.PHASES_FILE=/tmp/expert-table/deal_phases.json

The shipped tables (``kingscrib classic train-expert``) come from ``expert-v1``'s
self-play; this builds them from another player's (by default the ``expert``), each game
played once for both (the scoring in order for :mod:`.winprob`'s table, the deal by
phase for :mod:`.endgame`), into ``--out`` instead of the shipped ``data/``, so that a
screen can try them with ``--set``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from kingscrib.players.classic import winprob
from kingscrib.training import winprob as training


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=600)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--player", default="expert")
    ap.add_argument("--out", type=Path, required=True, help="a folder for the two files")
    args = ap.parse_args()
    start = time.perf_counter()
    scorings, phases = [], []
    for deal in training.self_play_deals(args.games, args.seed, args.player):
        scoring, by_phase = training.deal_scoring(deal), training.deal_phases(deal)
        if scoring is not None:
            scorings.append(scoring)
        if by_phase is not None:
            phases.append(by_phase)
    args.out.mkdir(parents=True, exist_ok=True)
    winprob.TABLE_FILE = args.out / "winprob.json"
    winprob.DEALS_FILE = args.out / "deals.json"
    winprob.PHASES_FILE = args.out / "deal_phases.json"
    command = (f"python benchmarks/classic_selfplay_table.py --games {args.games}"
               f" --seed {args.seed} --player {args.player}")
    training.save(scorings, training.build_table(scorings), command)
    training.save_phases(phases, command)
    print(f"{len(scorings)} deals of {args.games} {args.player} self-play games -> {args.out},"
          f" {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
