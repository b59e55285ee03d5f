"""Steps per second of the batched Cribbage environment, per batch size, one core.

    python benchmarks/env_batched.py            # 5 runs of each batch size
    python benchmarks/env_batched.py --quick    # 2 short runs

Every step applies one action in every game of the batch (uniformly random legal
actions, drawn by ``random_actions()``) and writes each game's next observation (1,401
int16) and mask (1,409 int8); finished games start again. A step of a batch of B games
counts as B environment steps, as for Gymnasium's vector environments. Throughput is
steps / CPU time of this process (wall time too); Numba's compilation is done before the
clock starts. Target: 200,000 steps/s. The last column times the random action choice
apart: ``step()`` alone.
"""

from __future__ import annotations

import argparse
import statistics
import time

from kingscrib.env.batched_cribbage import BatchedCribbage

TARGET = 200_000
SIZES = (1_000, 4_000, 16_000)


def run(size: int, steps: int, seed: int) -> tuple[float, float, float]:
    """Steps/s (CPU), steps/s (wall), steps/s of step() alone (CPU)."""
    env = BatchedCribbage(size, seed=seed)
    env.reset()
    for _ in range(3):  # warm the caches
        env.step(env.random_actions())
    cpu, wall, in_step = time.process_time(), time.perf_counter(), 0.0
    for _ in range(steps):
        actions = env.random_actions()
        t = time.process_time()
        env.step(actions)
        in_step += time.process_time() - t
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    n = size * steps
    return n / cpu, n / wall, n / in_step


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    runs = 2 if args.quick else 5
    BatchedCribbage(2).reset()  # compile (or load Numba's cache) before timing
    print(f"{'batch':>7} {'steps/s (CPU)':>14} {'steps/s (wall)':>15} {'target':>8} "
          f"{'ratio':>6} {'step() alone':>13}")
    for size in SIZES:
        steps = max(20, (400_000 if args.quick else 1_600_000) // size)
        rates = [run(size, steps, seed) for seed in range(1, runs + 1)]
        cpu = statistics.median(r[0] for r in rates)
        wall = statistics.median(r[1] for r in rates)
        alone = statistics.median(r[2] for r in rates)
        print(f"{size:>7,} {cpu:>14,.0f} {wall:>15,.0f} {TARGET:>8,} {cpu / TARGET:>5.1f}x "
              f"{alone:>13,.0f}")


if __name__ == "__main__":
    main()
