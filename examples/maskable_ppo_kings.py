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

import argparse

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

from kingscrib.env.curves import curve_table, learning_curve, model_policy, print_checkpoint
from kingscrib.env.flat import FlatObservation
from kingscrib.env.single import KingsSingleEnv

OPPONENTS = ("random", "easy")  # the weakest player and the level above it


def make_env(opponent: str, seat: int, shaping: float = 0.0) -> FlatObservation:
    return FlatObservation(KingsSingleEnv(opponent=opponent, seat=seat, shaping=shaping,
                                          notation=False))


def make_model(opponent: str, seed: int, n_steps: int = 256,
               batch_size: int = 128) -> MaskablePPO:
    """MaskablePPO with a small MLP, learning in both seats at once."""
    train = DummyVecEnv([lambda s=s: make_env(opponent, s, shaping=0.01) for s in (0, 1)])
    return MaskablePPO("MlpPolicy", train, n_steps=n_steps, batch_size=batch_size,
                       learning_rate=3e-4, gamma=0.995, ent_coef=0.01, seed=seed,
                       policy_kwargs={"net_arch": [256, 256]}, device="cpu", verbose=0)


def main(argv: list[str] | None = None) -> list:
    parser = argparse.ArgumentParser(description="MaskablePPO learns Kings Cribbage.")
    parser.add_argument("--steps", type=int, default=50_000, help="training steps")
    parser.add_argument("--checkpoints", type=int, default=8)
    parser.add_argument("--eval", type=int, default=50, help="games per opponent")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponent", default="easy", help="the opponent trained against")
    parser.add_argument("--n-steps", type=int, default=256, help="PPO rollout per env")
    parser.add_argument("--batch-size", type=int, default=128)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)  # one core: more threads only contend on a shared machine
    model = make_model(args.opponent, args.seed, args.n_steps, args.batch_size)

    points = learning_curve(model, model_policy(model), make_env, OPPONENTS, args.steps,
                            args.checkpoints, args.eval, 10_000_000 + args.seed,
                            print_checkpoint(OPPONENTS))
    print(curve_table(points, OPPONENTS))
    return points


if __name__ == "__main__":
    main()
