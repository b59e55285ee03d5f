"""How big a factored Kings environment is at the opening, pickled (the standard library).

    python benchmarks/kings_factored_state.py [--openings 20]

Seeded two-player ``kings_v1`` games with ``encoding="factored"``, reset and observed (so
the turn's mask is made): the median and largest pickled size of the environment, and of
its turn of placements (``Placing``) alone, with each opening's number of legal plays.
An opening's placements were kept as every legal play (up to 76,068), now as its tile
sequences (docs/rl.md).
"""

from __future__ import annotations

import argparse
import pickle
import statistics

from kingscrib.env import kings_v1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--openings", type=int, default=20)
    args = parser.parse_args()
    env_sizes, placing_sizes, plays = [], [], []
    for seed in range(args.openings):
        env = kings_v1.env(encoding="factored")
        env.reset(seed=seed)
        env.last()
        raw = env.unwrapped
        env_sizes.append(len(pickle.dumps(env)))
        placing_sizes.append(len(pickle.dumps(raw.placing())))
        plays.append(raw.turn_actions().all_plays)
    for name, values in (("legal plays", plays), ("environment, bytes", env_sizes),
                         ("placements, bytes", placing_sizes)):
        print(f"{name:20} median {statistics.median(values):>11,.0f}  largest {max(values):>11,}")


if __name__ == "__main__":
    main()
