"""RLlib's PPO learns classic Cribbage by self-play, with action masking.

    python examples/rllib_cribbage.py [--iterations 10] [--players 2] [--batch 2000]

``cribbage_v1`` (a PettingZoo AEC environment) becomes an RLlib ``MultiAgentEnv`` through
RLlib's own ``PettingZooEnv``; every seat plays the one shared policy. The observation is
flattened (:class:`kingscrib.env.flat.FlatObservationAEC`) and handed over under the keys
RLlib's :class:`ActionMaskingTorchRLModule` reads, ``observations`` and ``action_mask``
(as float32): the module adds log(mask) to the action logits, so an illegal action is
never sampled. Needs the ``rllib`` extra (``pip install -e ".[rllib]"``).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo.utils.wrappers import BaseWrapper
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
    ActionMaskingTorchRLModule,
)
from ray.tune.registry import register_env

from kingscrib.env import cribbage_v1
from kingscrib.env.flat import FlatObservationAEC

ENV_NAME = "kingscrib_cribbage_v1"
POLICY = "shared"


class MaskedObservation(BaseWrapper):
    """``{"observations": 1-D float32, "action_mask": float32}`` for every agent."""

    def __init__(self, env: Any) -> None:
        super().__init__(FlatObservationAEC(env))

    def observation_space(self, agent: str) -> spaces.Dict:
        flat = self.env.observation_space(agent)
        inner, mask = flat["observation"], flat["action_mask"]
        return spaces.Dict({
            "observations": spaces.Box(inner.low.astype(np.float32),
                                       inner.high.astype(np.float32), dtype=np.float32),
            "action_mask": spaces.Box(0.0, 1.0, mask.shape, np.float32)})

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        obs = self.env.observe(agent)
        return {"observations": obs["observation"].astype(np.float32),
                "action_mask": obs["action_mask"].astype(np.float32)}


def make_env(config: dict[str, Any] | None = None) -> PettingZooEnv:
    """The RLlib environment: ``cribbage_v1`` with ``config["players"]`` seats."""
    players = int((config or {}).get("players", 2))
    return PettingZooEnv(MaskedObservation(cribbage_v1.env(players=players)))


def make_config(players: int = 2, batch: int = 2000, minibatch: int = 250,
                hidden: int = 128, epochs: int = 4) -> PPOConfig:
    """PPO on one local environment runner, every seat on the shared masked module."""
    register_env(ENV_NAME, make_env)
    module = RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                          model_config={"head_fcnet_hiddens": (hidden,),
                                        "fcnet_hiddens": (hidden,)})
    return (
        PPOConfig()
        .environment(ENV_NAME, env_config={"players": players})
        .env_runners(num_env_runners=0, num_envs_per_env_runner=1)
        .multi_agent(policies={POLICY},
                     policy_mapping_fn=lambda agent_id, episode, **kwargs: POLICY)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={POLICY: module}))
        .training(train_batch_size_per_learner=batch, minibatch_size=minibatch,
                  num_epochs=epochs, lr=3e-4)
    )


def run_training(algo: Any, iterations: int) -> list[dict[str, Any]]:
    """Train ``iterations`` times; per iteration, the steps sampled and their speed."""
    rows = []
    for i in range(iterations):
        start = time.perf_counter()
        result = algo.train()
        runners = result["env_runners"]
        steps = int(runners["num_env_steps_sampled"])
        length = runners.get("episode_len_mean")
        rows.append({"iteration": i + 1, "env_steps": steps,
                     "steps_per_s": round(steps / (time.perf_counter() - start), 1),
                     "episode_len_mean": None if length is None else float(length)})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--batch", type=int, default=2000)
    args = parser.parse_args()
    import ray

    ray.init(num_cpus=2, include_dashboard=False)
    algo = make_config(players=args.players, batch=args.batch).build_algo()
    try:
        for row in run_training(algo, args.iterations):
            print(json.dumps(row), flush=True)
    finally:
        algo.stop()
        ray.shutdown()


if __name__ == "__main__":
    main()
