"""RLlib works with the ``rllib`` extra: its environment pre-check passes on
``cribbage_v1`` and PPO trains with action masking (examples/rllib_cribbage.py)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest
import ray
import torch
from ray.rllib.core.columns import Columns
from ray.rllib.utils.pre_checks.env import check_multiagent_environments

EXAMPLE = Path(__file__).parents[2] / "examples" / "rllib_cribbage.py"


def load_example():
    spec = importlib.util.spec_from_file_location("rllib_cribbage", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rllib_precheck_passes(players):
    check_multiagent_environments(load_example().make_env({"players": players}))


def test_ppo_trains_with_the_mask_and_picks_only_legal_actions():
    example = load_example()
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        algo = example.make_config(players=2, batch=64, minibatch=32, hidden=16,
                                   epochs=1).build_algo()
        try:
            (row,) = example.run_training(algo, 1)
            assert row["env_steps"] >= 64
            assert json.loads(json.dumps(row)) == row  # the example prints it as JSON
            weights = algo.get_module(example.POLICY).state_dict()
            assert all(np.isfinite(w).all() for w in weights.values())
            # The trained module's greedy action is legal in every position of a game.
            module = algo.get_module(example.POLICY)
            env = example.make_env({"players": 2})
            obs, _ = env.reset(seed=5)
            for _ in range(60):
                (agent, seen), = obs.items()
                batch = {Columns.OBS: {k: torch.from_numpy(v[None]) for k, v in seen.items()}}
                logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0]
                action = int(torch.argmax(logits))
                assert seen["action_mask"][action] == 1
                obs, rewards, terminated, truncated, _ = env.step({agent: action})
                if terminated["__all__"]:
                    break
        finally:
            algo.stop()
    finally:
        ray.shutdown()
