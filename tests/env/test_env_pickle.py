"""Environments pickle with the standard library (for subprocess vector environments,
Ray and checkpoints), and a copy goes on exactly as the original would."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from kingscrib.env import cribbage_v1, kings_v1
from kingscrib.env.single import CribbageSingleEnv, KingsSingleEnv


def _lowest(mask):
    return int(np.flatnonzero(mask)[-1 if mask[32:].any() else 0])


def _play_on(env, steps):
    """The rest of the game (at most ``steps``), a fixed rule choosing: what it saw."""
    seen = []
    for agent in env.agent_iter(steps):
        obs, reward, terminated, truncated, _ = env.last()
        seen.append((agent, reward, obs["action_mask"].tobytes(),
                     {k: v.tobytes() for k, v in obs["observation"].items()}))
        env.step(None if terminated or truncated else _lowest(obs["action_mask"]))
    return seen


@pytest.mark.parametrize("make", [
    lambda: kings_v1.env(), lambda: kings_v1.env(encoding="factored"),
    lambda: kings_v1.env(players=3, rules={"joker": True}), lambda: cribbage_v1.env()],
    ids=["kings", "kings-factored", "kings-3-joker", "cribbage"])
def test_an_environment_pickled_mid_game_goes_on_as_the_original(make):
    env = make()
    env.reset(seed=3)
    _play_on(env, 7)  # the first turns: an opening's plays were built and cached
    copy = pickle.loads(pickle.dumps(env))
    assert _play_on(copy, 60) == _play_on(env, 60)


@pytest.mark.parametrize("make", [lambda: KingsSingleEnv(opponent="greedy", seat=1),
                                  lambda: CribbageSingleEnv(opponent="easy")],
                         ids=["kings", "cribbage"])
def test_the_single_agent_environments_pickle(make):
    env = make()
    env.reset(seed=4)
    copy = pickle.loads(pickle.dumps(env))
    for _ in range(5):
        mask = env.action_masks()
        assert np.array_equal(copy.action_masks(), mask)
        a = _lowest(mask)
        first, second = env.step(a), copy.step(a)
        assert first[1:3] == second[1:3]
        if first[2]:
            break
