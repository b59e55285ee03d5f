"""Environment steps per second with random masked actions, one process (one core).

    python benchmarks/env_speed.py            # 5 runs of each
    python benchmarks/env_speed.py --quick    # 2 short runs

Each run plays whole games through the PettingZoo AEC loop (``agent_iter``, ``last``,
``step``) with a uniformly random legal action, and counts the steps of the agents that
acted. Throughput is steps / CPU time of this process (the fairer figure on a shared
machine; wall time is printed too). Targets: 2,000 steps/s for ``cribbage_v0``, 300 for
``kings_v0`` (with the legal actions in notation in ``info``, as by default). A step of
the factored encoding places one tile, so its games take about three times the steps.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from kingscrib.env import cribbage_v0, kings_v0

TARGETS = {"cribbage_v0": 2000, "kings_v0": 300}


def run(make, games: int, seed: int) -> tuple[int, float, float]:
    """Steps, CPU seconds, wall seconds for ``games`` random games."""
    env = make()
    rng = np.random.default_rng(seed)
    steps = 0
    cpu, wall = time.process_time(), time.perf_counter()
    for g in range(games):
        env.reset(seed=seed * 100_000 + g)
        for _ in env.agent_iter():
            obs, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps, time.process_time() - cpu, time.perf_counter() - wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    runs = 2 if args.quick else 5
    setups = [
        ("cribbage_v0", lambda: cribbage_v0.env(players=2), 20 if args.quick else 60),
        ("kings_v0", lambda: kings_v0.env(players=2), 8 if args.quick else 25),
        ("kings_v0 (3 players, joker)", lambda: kings_v0.env(players=3,
                                                             rules={"joker": True}),
         8 if args.quick else 20),
        ("kings_v0 (factored)", lambda: kings_v0.env(players=2, encoding="factored"),
         4 if args.quick else 10),
    ]
    print(f"{'environment':<30} {'steps/s (CPU)':>14} {'steps/s (wall)':>15} "
          f"{'steps/game':>11} {'target':>7} {'ratio':>6}")
    for name, make, games in setups:
        rates, walls, per_game = [], [], []
        for r in range(runs):
            steps, cpu, wall = run(make, games, r + 1)
            rates.append(steps / cpu)
            walls.append(steps / wall)
            per_game.append(steps / games)
        rate = statistics.median(rates)
        target = TARGETS[name.split()[0]]
        print(f"{name:<30} {rate:>14,.0f} {statistics.median(walls):>15,.0f} "
              f"{statistics.median(per_game):>11.1f} {target:>7,} {rate / target:>5.1f}x")


if __name__ == "__main__":
    main()
