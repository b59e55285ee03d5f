"""Helpers for the environment tests: random masked play through the AEC loop."""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np
from pettingzoo.test import api_test


def play_random(env, seed: int, rng: np.random.Generator,
                on_step: Callable[[str, dict], None] | None = None) -> dict[str, float]:
    """Play one game with uniformly random legal actions; the total reward of each agent."""
    env.reset(seed=seed)
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        if on_step is not None:
            on_step(agent, obs)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


def quiet_api_test(env, cycles: int = 300) -> None:
    """PettingZoo's api_test, without its advice that observations be one array (ours
    are documented dicts of arrays)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        api_test(env, num_cycles=cycles)
