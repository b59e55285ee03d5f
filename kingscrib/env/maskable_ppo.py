"""What the MaskablePPO examples (``examples/maskable_ppo_*.py``) share: the model, the
command line and the run that prints the learning curve. Each example only names its
environment and its defaults. Needs ``pip install -e ".[rl,sb3]"``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from functools import partial

import gymnasium
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

from kingscrib.env.curves import curve_table, learning_curve, model_policy, print_checkpoint

OPPONENTS = ("random", "easy")  # the weakest player and the level above it
# make_env(opponent, seat, shaping) -> the flattened, masked environment of that seat
MakeEnv = Callable[..., gymnasium.Env]


def make_model(make_env: MakeEnv, opponent: str, seed: int, n_steps: int,
               batch_size: int) -> MaskablePPO:
    """MaskablePPO with a small MLP, learning in both seats at once."""
    train = DummyVecEnv([partial(make_env, opponent, s, shaping=0.01) for s in (0, 1)])
    return MaskablePPO("MlpPolicy", train, n_steps=n_steps, batch_size=batch_size,
                       learning_rate=3e-4, gamma=0.995, ent_coef=0.01, seed=seed,
                       policy_kwargs={"net_arch": [256, 256]}, device="cpu", verbose=0)


def run_example(make_env: MakeEnv, game: str, argv: list[str] | None, *, steps: int,
                games: int, n_steps: int, batch_size: int) -> list:
    """Parse the example's command line (its defaults given here), train, print the
    learning curve after each checkpoint and as a table; return the checkpoints."""
    parser = argparse.ArgumentParser(description=f"MaskablePPO learns {game}.")
    parser.add_argument("--steps", type=int, default=steps, help="training steps")
    parser.add_argument("--checkpoints", type=int, default=8)
    parser.add_argument("--eval", type=int, default=games, help="games per opponent")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponent", default="easy", help="the opponent trained against")
    parser.add_argument("--n-steps", type=int, default=n_steps, help="PPO rollout per env")
    parser.add_argument("--batch-size", type=int, default=batch_size)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)  # one core: more threads only contend on a shared machine
    model = make_model(make_env, args.opponent, args.seed, args.n_steps, args.batch_size)

    points = learning_curve(model, model_policy(model), make_env, OPPONENTS, args.steps,
                            args.checkpoints, args.eval, 10_000_000 + args.seed,
                            print_checkpoint(OPPONENTS))
    print(curve_table(points, OPPONENTS))
    return points
