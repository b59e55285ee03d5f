"""MaskablePPO (sb3-contrib) learns classic Cribbage against the computer.

    python examples/maskable_ppo_cribbage.py [--steps 200000] [--checkpoints 8]
        [--eval 100] [--seed 1] [--opponent easy]

The learner plays two-player ``cribbage_v1`` in :class:`~kingscrib.env.single.
CribbageSingleEnv`, its observation flattened by :class:`~kingscrib.env.flat.
FlatObservation` (1,401 numbers: its information state) and its actions masked to the
legal ones, so it never plays an illegal card. It trains against ``--opponent`` (by
default ``easy``, the level above ``random``) in two environments, one for each seat,
with a little point shaping (0.01 a point of score difference) on top of the +1/-1
result. The script prints the learning curve: the win rate against ``random`` and
``easy`` (the same seeds at every checkpoint, seats alternating, no shaping), untrained
and after each chunk of training, with the training speed in steps/s (CPU).
Needs ``pip install -e ".[rl,sb3]"``.
"""

from __future__ import annotations

from kingscrib.env.flat import FlatObservation
from kingscrib.env.maskable_ppo import run_example
from kingscrib.env.single import CribbageSingleEnv


def make_env(opponent: str, seat: int, shaping: float = 0.0) -> FlatObservation:
    return FlatObservation(CribbageSingleEnv(opponent=opponent, seat=seat, shaping=shaping))


def main(argv: list[str] | None = None) -> list:
    return run_example(make_env, "Cribbage", argv, steps=200_000, games=100, n_steps=1024,
                       batch_size=256)


if __name__ == "__main__":
    main()
