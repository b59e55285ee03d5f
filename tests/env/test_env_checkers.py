"""The ecosystem's checkers pass: Gymnasium's and Stable-Baselines3's ``check_env`` on the
single-agent environments, PettingZoo's api_test on v1 and the flat wrapper; an illegal action
ends a v1 game with a penalty (the PettingZoo convention) unless told to raise."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from env_support import quiet_api_test
from gymnasium import spaces
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env

from kingscrib.env import cribbage_v1, kings_v1
from kingscrib.env.base import IllegalEnvAction
from kingscrib.env.flat import FlatObservation, FlatObservationAEC, flat_keys
from kingscrib.env.single import CribbageSingleEnv, KingsSingleEnv

SINGLE = [CribbageSingleEnv, KingsSingleEnv]


@pytest.mark.parametrize("make", SINGLE)
def test_gymnasium_check_env_passes(make):
    with warnings.catch_warnings():
        warnings.filterwarnings("error")
        warnings.filterwarnings("ignore", message=".*environment not having a spec")
        gymnasium_check_env(make(opponent="random"))


@pytest.mark.parametrize("make", SINGLE)
def test_gymnasium_check_env_steps_a_random_action_which_raise_refuses(make):
    """The check has teeth: it steps a random action, here an illegal one. The action space
    is seeded: in a Kings opening most actions are legal, so an unseeded draw would make
    the check pass now and then."""
    env = make(opponent="random", illegal="raise")
    env.action_space.seed(0)
    with pytest.raises(IllegalEnvAction):
        gymnasium_check_env(env)


@pytest.mark.parametrize("make", SINGLE)
def test_stable_baselines3_check_env_passes_on_flat_observations(make):
    with warnings.catch_warnings():
        warnings.filterwarnings("error")
        sb3_check_env(FlatObservation(make(opponent="random")))
        sb3_check_env(FlatObservation(make(opponent="random"), mask=True))
    with pytest.warns(UserWarning, match="Nested observation spaces are not supported"):
        sb3_check_env(make(opponent="random"))  # why the flat wrapper is there


@pytest.mark.parametrize("module", [cribbage_v1, kings_v1])
def test_an_illegal_action_ends_the_game_with_a_penalty(module):
    env = module.env(players=3)
    env.reset(seed=2)
    obs, *_ = env.last()
    offender = env.agent_selection
    record = env.unwrapped.game
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    env.step(illegal)
    assert env.unwrapped.game is record  # the engine's game is left as it was
    totals = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        assert terminated and not obs["action_mask"].any()
        assert info["illegal_action"].startswith(f"action {illegal} is not legal for "
                                                 f"{offender}")
        totals[agent] = reward
        env.step(None)
    assert totals == {a: (-1.0 if a == offender else 0.0) for a in env.possible_agents}
    env.reset(seed=2)
    assert env.agents == env.possible_agents and env.last()[0]["action_mask"].any()
    with pytest.raises(ValueError, match="illegal must be one of raise, penalty, not 'x'"):
        module.env(illegal="x")


def test_the_flat_array_is_the_observation_arrays_one_after_another():
    env = FlatObservation(CribbageSingleEnv(opponent="random"), mask=True)
    flat, _ = env.reset(seed=4)
    aec = env.unwrapped.aec
    nested = aec.observe(aec.agents[0])
    keys = flat_keys(aec.observation_space(aec.agents[0])["observation"])
    assert list(keys) == sorted(nested["observation"])
    for key, where in keys.items():
        assert np.array_equal(flat[where], nested["observation"][key].ravel()), key
    end = max(s.stop for s in keys.values())
    assert np.array_equal(flat[end:], nested["action_mask"])
    assert env.observation_space.contains(flat)
    assert np.array_equal(env.action_masks(), nested["action_mask"].astype(bool))


@pytest.mark.parametrize("module", [cribbage_v1, kings_v1])
def test_the_flat_pettingzoo_wrapper_passes_api_test(module):
    env = FlatObservationAEC(module.env(players=2))
    quiet_api_test(env, cycles=60)
    env.reset(seed=1)
    obs, *_ = env.last()
    space = env.observation_space(env.agent_selection)
    assert isinstance(space["observation"], spaces.Box) and obs["observation"].ndim == 1
    inner = env.unwrapped.observe(env.agent_selection)["observation"]
    assert obs["observation"].size == sum(a.size for a in inner.values())
    quiet_api_test(module.env(players=4), cycles=60)
