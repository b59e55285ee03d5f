"""How many legal plays a Kings Cribbage rack has, against the enumerated encoding's cap
(``MAX_PLAYS`` = 2,048), over whole games.

    python benchmarks/kings_action_counts.py              # 30 games of each kind
    python benchmarks/kings_action_counts.py --games 5

Two kinds of game through ``kings_v1`` (2 players): every seat takes a uniformly random
legal action, or every seat takes the best-scoring play (index 32, or a random action
when it has no play). At every turn it counts the legal plays (uncapped) and, past the
cap, whether ``kings_v0``'s cap (the first 2,048 plays) loses the best play of some leave,
whether the best-scoring plays alone are more than the cap, and how many distinct tile
sequences there are (``kings_v1`` keeps the best placement of each while they fit).
"""

from __future__ import annotations

import argparse
import statistics

import numpy as np

from kingscrib.env import kings_v1
from kingscrib.env.kings_actions import FIRST_PLAY, MAX_PLAYS, leave_key


def positions(games: int, best: bool, seed: int = 1) -> list[tuple[bool, list]]:
    """(opening?, every legal play in reference order) at every turn of ``games``."""
    env = kings_v1.raw_env(players=2, notation=False)
    rng = np.random.default_rng(seed)
    out = []
    for g in range(games):
        env.reset(seed=seed * 1000 + g)
        while not env.finished():
            actions = env.turn_actions()
            out.append((not env.game.board, actions.uncapped))
            mask = env.observe(env.agent_selection)["action_mask"]
            if best and mask[FIRST_PLAY]:
                env.step(FIRST_PLAY)
            else:
                env.step(int(rng.choice(np.flatnonzero(mask))))
    return out


def summary(found: list[tuple[bool, list]]) -> dict[str, str]:
    def sizes(opening: bool) -> list[int]:
        return [len(p) for o, p in found if o == opening]

    over = [p for _, p in found if len(p) > MAX_PLAYS]
    lost_leaf = sum(len({leave_key(r) for r in p[:MAX_PLAYS]}) < len({leave_key(r) for r in p})
                    for p in over)
    top_over = sum(sum(r[1] == p[0][1] for r in p) > MAX_PLAYS for p in over)
    sequences = max((len({r[3] for r in p}) for p in over), default=0)
    mid = sizes(False)
    openings = sizes(True)
    mid_over = sum(n > MAX_PLAYS for n in mid)
    return {
        "turns": f"{len(found):,}",
        "openings: median / max plays": f"{statistics.median(openings):,.0f} / {max(openings):,}",
        "later turns: median / 99th pct / max plays": (
            f"{statistics.median(mid):,.0f} / {np.percentile(mid, 99):,.0f} / {max(mid):,}"),
        "later turns over the cap": f"{mid_over:,} ({100 * mid_over / len(mid):.1f}%)",
        "turns over the cap where v0's cap loses a leave": f"{lost_leaf:,} of {len(over):,}",
        "turns whose best-scoring plays alone pass the cap": f"{top_over:,}",
        "most tile sequences in a turn over the cap (v1 keeps each)": f"{sequences:,}",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    args = parser.parse_args()
    for name, best in (("random legal actions", False), ("best-scoring plays", True)):
        print(f"{args.games} games, {name}:")
        for key, value in summary(positions(args.games, best)).items():
            print(f"  {key:<52} {value}")


if __name__ == "__main__":
    main()
