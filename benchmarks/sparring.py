"""A Monte-Carlo classic Cribbage player, built independently of our levels, to spar with.

    python benchmarks/sparring.py --pairs 200 --rollouts 200        # expert v the partner
    python benchmarks/sparring.py --pairs 50 --a expert-v1 --rollouts 50
    python benchmarks/sparring.py --pairs 100 --set NEAR_END=61    # an expert setting

It is not a shipped level: it exists so that every change to the ``expert`` is screened
against a player we did not tune against. Two players only. How it plays (Monte-Carlo
play-outs of the deal for the discard and of the play for each card) is told in
:mod:`kingscrib.arena.sparring`.

The player itself is :class:`kingscrib.arena.sparring.MonteCarloPlayer` (the arena's
``sparring``). Nothing of our own players is used: it scores with the engine's counting only.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from kingscrib.arena.sparring import MonteCarloPlayer, greedy_card, peg_rest, rule_keep
from kingscrib.classic.rules import RuleSet
from kingscrib.players.classic import make_player, play_game


def play_pair(a_name: str, rollouts: int, seed: int) -> list[tuple[bool, int]]:
    """A (one of our players) against the partner, one seed, seats swapped: (won, spread)."""
    out = []
    for a_seat in (0, 1):
        a = make_player(a_name, seed)
        partner = MonteCarloPlayer(rollouts, seed)
        players = [a, partner] if a_seat == 0 else [partner, a]
        game = play_game(RuleSet(), seed=seed, players=players)
        out.append((game.winner == a_seat, game.scores[a_seat] - game.scores[1 - a_seat]))
    return out


def main() -> None:
    from classic_expert import apply_settings, run_pairs

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", default="expert", help="our player (default expert)")
    parser.add_argument("--rollouts", type=int, default=100)
    parser.add_argument("--pairs", type=int, default=100)
    parser.add_argument("--seed", type=int, default=500_000)
    parser.add_argument("--minutes", type=float, default=None)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="an expert setting for this run (e.g. NEAR_END=61)")
    args = parser.parse_args()
    apply_settings(args.set)
    run_pairs(f"{args.a} v montecarlo-{args.rollouts}", args.pairs, args.minutes,
              lambda i: play_pair(args.a, args.rollouts, args.seed + i))


__all__ = ["MonteCarloPlayer", "greedy_card", "peg_rest", "play_pair", "rule_keep"]


if __name__ == "__main__":
    main()
