"""Environment steps per second with random masked actions, one process (one core).

    python benchmarks/env_speed.py            # 5 runs of each
    python benchmarks/env_speed.py --quick    # 2 short runs

Each run plays whole games through the PettingZoo AEC loop (``agent_iter``, ``last``,
``step``) with a uniformly random legal action, and counts the steps of the agents that
acted. Throughput is steps / CPU time of this process (the fairer figure on a shared
machine; wall time is printed too). Targets: 2,000 steps/s for Cribbage, 300 for Kings
(with the legal actions in notation in ``info``, as by default), for both versions; the
``_v0`` rows are there to compare (``v1/v0`` is the ratio of the medians). A step of
the factored encoding places one tile, so its games take about three times the steps.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from kingscrib.env import cribbage_v0, cribbage_v1, kings_v0, kings_v1

TARGETS = {"cribbage": 2000, "kings": 2000}


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
    quick = args.quick
    setups = [
        ("cribbage_v1", lambda: cribbage_v1.env(players=2), 20 if quick else 60),
        ("cribbage_v0", lambda: cribbage_v0.env(players=2), 20 if quick else 60),
        ("cribbage_v1 (4 players)", lambda: cribbage_v1.env(players=4), 10 if quick else 30),
        ("kings_v1", lambda: kings_v1.env(players=2), 8 if quick else 25),
        ("kings_v0", lambda: kings_v0.env(players=2), 8 if quick else 25),
        ("kings_v1 (3 players, joker)", lambda: kings_v1.env(players=3,
                                                             rules={"joker": True}),
         8 if quick else 20),
        ("kings_v1 (features=True)", lambda: kings_v1.env(players=2, features=True),
         8 if quick else 25),
        ("kings_v1 (factored)", lambda: kings_v1.env(players=2, encoding="factored"),
         4 if quick else 10),
    ]
    print(f"{'environment':<30} {'steps/s (CPU)':>14} {'steps/s (wall)':>15} "
          f"{'steps/game':>11} {'target':>7} {'ratio':>6} {'v1/v0':>6}")
    medians: dict[str, float] = {}
    for name, make, games in setups:
        rates, walls, per_game = [], [], []
        for r in range(runs):
            steps, cpu, wall = run(make, games, r + 1)
            rates.append(steps / cpu)
            walls.append(steps / wall)
            per_game.append(steps / games)
        rate = medians[name] = statistics.median(rates)
        target = TARGETS[name.split("_")[0]]
        # on a _v0 row, the v1 median (the row above) over this one
        versus = f"{medians[name[:-1] + '1'] / rate:.2f}x" if name.endswith("_v0") else ""
        print(f"{name:<30} {rate:>14,.0f} {statistics.median(walls):>15,.0f} "
              f"{statistics.median(per_game):>11.1f} {target:>7,} {rate / target:>5.1f}x"
              f" {versus:>6}")

if __name__ == "__main__":
    main()
