"""MaskablePPO (sb3-contrib) learns Kings Cribbage against the computer.

    python examples/maskable_ppo_kings.py [--steps 50000] [--checkpoints 8]
        [--eval 50] [--seed 1] [--opponent easy]

The learner plays two-player ``kings_v1`` in :class:`~kingscrib.env.single.
KingsSingleEnv` (without the notation in ``info``, which it does not read), its
observation flattened by :class:`~kingscrib.env.flat.FlatObservation` (2,619 numbers)
and its actions masked to the legal ones (``Discrete(2080)``: pass, the exchanges, the
legal plays in canonical order, index 32 a best-scoring play). It trains against
``--opponent`` (by default ``easy``, the level above ``random``) in two environments,
one for each seat, with a little point shaping (0.01 a point of score difference) on
top of the +1/-1 result. The script prints the learning curve: the win rate against
``random`` and ``easy`` (the same seeds at every checkpoint, seats alternating, no
shaping), untrained and after each chunk of training, with the training speed in
steps/s (CPU). Needs ``pip install -e ".[rl,sb3]"``.
"""

from __future__ import annotations

from kingscrib.env.flat import FlatObservation
from kingscrib.env.maskable_ppo import run_example
from kingscrib.env.single import KingsSingleEnv


def make_env(opponent: str, seat: int, shaping: float = 0.0) -> FlatObservation:
    return FlatObservation(KingsSingleEnv(opponent=opponent, seat=seat, shaping=shaping,
                                          notation=False))


def main(argv: list[str] | None = None) -> list:
    return run_example(make_env, "Kings Cribbage", argv, steps=50_000, games=50, n_steps=256,
                       batch_size=128)


if __name__ == "__main__":
    main()
