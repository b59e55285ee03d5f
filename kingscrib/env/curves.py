"""Learning curves for agents trained in the single-agent environments: win rates against
computer players at checkpoints of training, and the training speed.

What the MaskablePPO examples (``examples/maskable_ppo_*.py``) and
``benchmarks/rl_curves.py`` share. A policy here is any function from a flat observation
and its action mask to an action index; a model is anything with Stable-Baselines3's
``learn(total_timesteps, reset_num_timesteps=...)``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import gymnasium
import numpy as np

from kingscrib.env.flat import Masked

Policy = Callable[[np.ndarray, np.ndarray], int]


@dataclass(frozen=True)
class Checkpoint:
    steps: int  # training steps taken so far
    cpu_seconds: float  # CPU time of the training so far (evaluation not included)
    win_rates: dict[str, float]  # opponent -> wins (ties half) over the evaluation games
    illegal: int  # evaluation games ended by an illegal action (0 when the mask is used)

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.cpu_seconds if self.cpu_seconds else 0.0


def win_rate(policy: Policy, make_env: Callable[[int], gymnasium.Env], games: int,
             seed: int) -> tuple[float, int]:
    """Wins of ``policy`` (ties count half) over ``games`` games, seats alternating (the
    environment of seat ``s`` from ``make_env(s)``, with no shaping), and how many games an
    illegal action ended. The same seeds give the same games."""
    envs = [make_env(0), make_env(1)]
    points, illegal = 0.0, 0
    for g in range(games):
        env = envs[g % 2]
        obs, info = env.reset(seed=seed + g)
        total, done = 0.0, False  # the first step pays what came before the first turn
        while not done:
            if not isinstance(env, Masked):
                raise TypeError(f"{env} gives no action_masks()")
            obs, reward, done, truncated, info = env.step(policy(obs, env.action_masks()))
            total += float(reward)
            done = done or truncated
        illegal += "illegal_action" in info
        points += 1.0 if total > 0 else 0.5 if total == 0 else 0.0
    return points / games, illegal


def _seated(make_eval_env: Callable[[str, int], gymnasium.Env], opponent: str,
            seat: int) -> gymnasium.Env:
    return make_eval_env(opponent, seat)


def learning_curve(model, policy: Policy, make_eval_env: Callable[[str, int], gymnasium.Env],
                   opponents: Sequence[str], steps: int, checkpoints: int, games: int,
                   seed: int, report: Callable[[Checkpoint], None] | None = None
                   ) -> list[Checkpoint]:
    """Evaluate untrained, then train ``steps`` in ``checkpoints`` equal chunks, evaluating
    after each against every opponent (``make_eval_env(opponent, seat)``) on the same
    seeds; ``report`` sees each checkpoint as it comes."""
    out: list[Checkpoint] = []
    done_steps, cpu = 0, 0.0
    chunk = max(1, steps // max(1, checkpoints))
    while True:
        rates, illegal = {}, 0
        for opponent in opponents:
            rate, bad = win_rate(policy, partial(_seated, make_eval_env, opponent), games, seed)
            rates[opponent] = rate
            illegal += bad
        point = Checkpoint(done_steps, cpu, rates, illegal)
        out.append(point)
        if report:
            report(point)
        if done_steps >= steps:
            return out
        start = time.process_time()
        model.learn(total_timesteps=chunk, reset_num_timesteps=False)
        cpu += time.process_time() - start
        done_steps = int(model.num_timesteps)


def model_policy(model) -> Policy:
    """The masked, deterministic choice of a Stable-Baselines3 (sb3-contrib) model."""
    def policy(obs: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return int(action)
    return policy


def print_checkpoint(opponents: Sequence[str]) -> Callable[[Checkpoint], None]:
    """A ``report`` for :func:`learning_curve` printing one line a checkpoint."""
    def report(point: Checkpoint) -> None:
        rates = "  ".join(f"v {o} {point.win_rates[o]:6.1%}" for o in opponents)
        print(f"{point.steps:>9,} steps  {rates}  {point.cpu_seconds:7.0f} s CPU"
              f"  {point.steps_per_second:6,.0f} steps/s", flush=True)
    return report


def curve_table(points: Sequence[Checkpoint], opponents: Sequence[str]) -> str:
    """The curve as a Markdown table (docs/rl.md)."""
    head = "| training steps | " + " | ".join(f"wins v `{o}`" for o in opponents) \
        + " | training CPU s | steps/s |"
    rule = "| ---: |" + " ---: |" * len(opponents) + " ---: | ---: |"
    rows = [head, rule]
    for p in points:
        rates = " | ".join(f"{p.win_rates[o]:.1%}" for o in opponents)
        speed = f"{p.steps_per_second:,.0f}" if p.steps else ""
        rows.append(f"| {p.steps:,} | {rates} | {p.cpu_seconds:,.0f} | {speed} |")
    return "\n".join(rows)


__all__ = ["Checkpoint", "curve_table", "learning_curve", "model_policy", "print_checkpoint",
           "win_rate"]
