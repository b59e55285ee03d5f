"""Steps per second of the batched environments (Cribbage for 2, 3 and 4 seats, Kings
Cribbage), per batch size, one core; and where a batched Kings step's time goes.

    python benchmarks/env_batched.py            # 5 runs of each row
    python benchmarks/env_batched.py --quick    # 2 short runs

Every step applies one action in every game of the batch (uniformly random legal
actions, drawn by ``random_actions()``) and writes each game's next observation and mask
(Cribbage: 1,401 int16 and 1,409 int8; Kings: 2,619 int16 and 2,080 int8); finished
games start again. The clock starts on games already running: 100 random steps after
the reset first, so that the batch holds games at every stage, as in a training run that
steps on through many games (a reset puts every game at its opening, and a Kings game's
first steps cost most: ``--from-reset`` times them from there, as this benchmark did
before). A step of a batch of B games counts as B environment steps, as for
Gymnasium's vector environments. Throughput is steps / CPU time of this process (wall
time too); Numba's compilation is done before the clock starts. Targets: 200,000
steps/s for Cribbage, 50,000 for Kings. The last column times the random action choice
apart: ``step()`` alone; the last the same run with ``copy=False`` (the environment's own
arrays, not copies, returned).

The Kings breakdown times each kernel of a step on the positions of running games (the
turns of 512 games 60 random steps on, each kernel run alone on every one of them, the
best of three): the rack's multisets, the legal plays (the lanes' windows and the single
squares, then the multisets laid in them), the cap, the observation and mask; the turns
past the cap and the openings apart, per such turn.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import numpy as np
from numba import njit

from kingscrib.env import batched_kings as bk
from kingscrib.env.batched_cribbage import BatchedCribbage
from kingscrib.env.batched_kings import BatchedKings

ROWS: tuple[tuple[str, Any, int, int, int | None], ...] = (
    # name, environment, players, batch size, target (None: none set; Kings' 50,000 is
    # for two seats)
    ("Cribbage", BatchedCribbage, 2, 1_000, 200_000),
    ("Cribbage", BatchedCribbage, 2, 4_000, 200_000),
    ("Cribbage", BatchedCribbage, 2, 16_000, 200_000),
    ("Cribbage", BatchedCribbage, 3, 4_000, 200_000),
    ("Cribbage", BatchedCribbage, 4, 4_000, 200_000),
    ("Kings", BatchedKings, 2, 256, 50_000),
    ("Kings", BatchedKings, 2, 1_024, 50_000),
    ("Kings", BatchedKings, 3, 1_024, None),
    ("Kings", BatchedKings, 4, 1_024, None),
)


WARM_STEPS = 100  # random steps before the clock starts (module doc)


def run(env_type: Any, players: int, size: int, steps: int, seed: int, copy: bool = True,
        warm: int = WARM_STEPS) -> tuple[float, float, float]:
    """Steps/s (CPU), steps/s (wall), steps/s of step() alone (CPU); ``copy=False`` reads
    the environment's own arrays (no copy of what ``step()`` returns); ``warm`` random
    steps first."""
    env = env_type(size, seed=seed, players=players, copy=copy)
    env.reset()
    for _ in range(warm):
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


# ----- where a Kings step's time goes ---------------------------------------------------
@njit
def _multisets_of(s, scratch, b):
    racks, rack_n, turn = s[1], s[2], s[6]
    seat = turn[b]
    n_sets, rack_mask = bk._multisets(racks[b, seat], rack_n[b, seat], scratch[10],
                                      scratch[11], scratch[12], scratch[13], scratch[14],
                                      scratch[15], scratch[16], scratch[9])
    return (scratch[10], scratch[11], scratch[12], scratch[13], scratch[14], scratch[15],
            scratch[16], scratch[9], n_sets, rack_mask, bk._later_work(scratch))


@njit
def _time_multisets(s, scratch, slots, reps):
    found = 0
    for _ in range(reps):
        for b in slots:
            found += _multisets_of(s, scratch, b)[8]
    return found


@njit
def _time_plays(s, keys, ident, scratch, slots, reps, stage):
    """stage 0: plays generated with an empty rack (the scan of the lanes' windows and
    the single squares alone); 1: the plays generated; 2: generated and capped."""
    board, rack_n, turn, kept = s[0], s[2], s[6], s[12]
    xc, nb, allowed, lanes = s[18], s[19], s[20], s[21]
    plays = 0
    for b in slots:
        sets = _multisets_of(s, scratch, b)
        nrack = 0 if stage == 0 else rack_n[b, turn[b]]
        for _ in range(reps):
            count = bk._later_plays(board[b], xc[b], nb[b], allowed[b], lanes[b], nrack, sets,
                                    keys, ident)
            if stage == 2:
                bk._keep_best_ident(keys, ident, count, bk.MAX_PLAYS, kept[b])
            plays += count
    return plays


@njit
def _time_turns(s, keys, seq_of, scratch, slots, reps):
    for _ in range(reps):
        for b in slots:
            bk._turn_plays(b, s, keys, seq_of, scratch)


@njit
def _time_observe(s, obs, mask, slots, reps):
    for _ in range(reps):
        for b in slots:
            bk._observe(b, s, obs, mask)


def kings_breakdown(reps: int) -> None:
    """Microseconds a turn per kernel, on the positions of running games."""
    def per(fn: Any, slots: np.ndarray, *args: Any) -> float:
        best = float("inf")
        for _ in range(3):  # the best of three: the least disturbed by other work
            t = time.process_time()
            fn(*args)
            best = min(best, (time.process_time() - t) / (len(slots) * reps) * 1e6)
        return best

    openings = BatchedKings(512, seed=11)
    openings.reset()
    later = BatchedKings(512, seed=12)
    later.reset()
    for _ in range(60):  # 512 games 60 random steps on (some started again)
        later.step(later.random_actions())
    running = later.board.any(axis=1)
    capped = later.plays_before_cap > bk.MAX_PLAYS
    slots = np.flatnonzero(running & ~capped)
    past_cap = np.flatnonzero(running & capped)
    first = np.flatnonzero(~openings.board.any(axis=1))
    s, o = later._state(), openings._state()
    keys, ident, scratch = later._keys, later._seq_of, later._sequences
    # compile on one position first
    _time_multisets(s, scratch, slots[:1], 1)
    for stage in (0, 1, 2):
        _time_plays(s, keys, ident, scratch, slots[:1], 1, stage)
    _time_turns(o, openings._keys, openings._seq_of, openings._sequences, first[:1], 1)
    _time_observe(s, later.obs, later.mask, slots[:1], 1)
    rows = [
        ("the rack's multisets", per(_time_multisets, slots, s, scratch, slots, reps)),
        ("windows and squares (empty rack)", per(
            _time_plays, slots, s, keys, ident, scratch, slots, reps, 0)),
        ("legal plays (with the above)", per(
            _time_plays, slots, s, keys, ident, scratch, slots, reps, 1)),
        ("legal plays and the cap", per(
            _time_plays, slots, s, keys, ident, scratch, slots, reps, 2)),
        ("observation and mask", per(_time_observe, slots, s, later.obs, later.mask, slots,
                                     reps)),
        ("a turn past the cap (per such turn)", per(
            _time_plays, past_cap, s, keys, ident, scratch, past_cap, reps, 2)),
        ("an opening's kept plays (per opening)", per(
            _time_turns, first, o, openings._keys, openings._seq_of, openings._sequences,
            first, reps)),
    ]
    plays = later.plays_before_cap[slots]
    print(f"\nKings, where a turn's time goes ({len(slots)} later turns, median "
          f"{int(np.median(plays))} plays; {len(past_cap)} turns past the cap; "
          f"{len(first)} openings), microseconds a turn, the best of three:")
    for name, us in rows:
        print(f"  {name:<40} {us:>8.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--from-reset", action="store_true",
                        help="start the clock at the reset (every game at its opening)")
    args = parser.parse_args()
    warm = 3 if args.from_reset else WARM_STEPS
    runs = 2 if args.quick else 5
    for env_type in (BatchedCribbage, BatchedKings):  # compile (or load Numba's cache)
        env_type(2).reset()
    print(f"{'game':<9} {'seats':>5} {'batch':>7} {'steps/s (CPU)':>14} {'steps/s (wall)':>15} "
          f"{'target':>8} {'ratio':>6} {'step() alone':>13} {'copy=False':>11}")
    for name, env_type, players, size, target in ROWS:
        work = 400_000 if name == "Cribbage" else 40_000
        steps = max(20, (work if args.quick else 4 * work) // size)
        rates = [run(env_type, players, size, steps, seed, warm=warm)
                 for seed in range(1, runs + 1)]
        cpu = statistics.median(r[0] for r in rates)
        wall = statistics.median(r[1] for r in rates)
        alone = statistics.median(r[2] for r in rates)
        shared = statistics.median(run(env_type, players, size, steps, seed, copy=False,
                                       warm=warm)[0] for seed in range(1, runs + 1))
        goal = f"{target:>8,} {cpu / target:>5.2f}x" if target else f"{'-':>8} {'-':>6}"
        print(f"{name:<9} {players:>5} {size:>7,} {cpu:>14,.0f} {wall:>15,.0f} {goal} "
              f"{alone:>13,.0f} {shared:>11,.0f}")
    kings_breakdown(2 if args.quick else 5)


if __name__ == "__main__":
    main()
