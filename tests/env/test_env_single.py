"""The Gymnasium single-agent environments: the learner against built-in players."""

from __future__ import annotations

import numpy as np
import pytest

from kingscrib.env.cribbage import GO
from kingscrib.env.single import CribbageSingleEnv, KingsSingleEnv


def _play(env, seed: int, rng: np.random.Generator) -> tuple[float, int]:
    obs, info = env.reset(seed=seed)
    total, steps, done = 0.0, 0, False  # the first step pays info["reward_before"]
    while not done:
        assert env.aec.agent_selection == env.agent
        mask = obs["action_mask"]
        assert np.array_equal(mask.astype(bool), env.action_masks())
        obs, reward, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert not truncated
        total += reward
        steps += 1
    return total, steps


@pytest.mark.parametrize("seat", [0, 1])
def test_kings_against_greedy(seat):
    env = KingsSingleEnv(opponent="greedy", seat=seat)
    rng = np.random.default_rng(seat)
    total, steps = _play(env, 5, rng)
    game = env.aec.game
    assert game.is_over and steps >= 3
    mine, theirs = game.final_scores[seat], game.final_scores[1 - seat]
    assert total == (1.0 if mine > theirs else -1.0 if mine < theirs else 0.0)
    # Every turn of the opponent is greedy's: its highest-scoring play (or an exchange).
    for turn in game.history:
        if turn.player != seat and turn.action == "play":
            assert turn.score > 0


@pytest.mark.parametrize("seat", [0, 1])
def test_the_steps_rewards_add_up_to_the_whole_return_with_shaping(seat):
    """What Stable-Baselines3 sums, the rewards step() returns, is the outcome plus the
    shaping over the whole game: c x (own final score - the other's), the opponent's
    opening play included when the learner sits second."""
    c = 0.01
    env = KingsSingleEnv(opponent="greedy", seat=seat, shaping=c)
    obs, info = env.reset(seed=7)
    assert (info["reward_before"] < 0) == (seat == 1)  # greedy scored at the opening
    total, done = 0.0, False
    rng = np.random.default_rng(seat)
    while not done:
        obs, reward, done, _, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        total += reward
    final = env.aec.game.final_scores
    mine, theirs = final[seat], final[1 - seat]
    outcome = 1.0 if mine > theirs else -1.0 if mine < theirs else 0.0
    assert total == pytest.approx(outcome + c * (mine - theirs))


def test_kings_seeded_episodes_repeat():
    env = KingsSingleEnv(opponent="equity", players=3)
    a = _play(env, 9, np.random.default_rng(1)), env.aec.game.to_record()
    b = _play(env, 9, np.random.default_rng(1)), env.aec.game.to_record()
    assert a == b


@pytest.mark.parametrize("players", [2, 4])
def test_cribbage_against_expert(players):
    opponents = "expert" if players == 2 else [None, "expert", "random", "hard"]
    env = CribbageSingleEnv(opponent=opponents, players=players, rules={"muggins": True})
    total, steps = _play(env, 3, np.random.default_rng(3))
    game = env.aec.game
    assert game.phase == "over"
    assert total == (1.0 if game.winner == 0 else -1.0)
    # the partner (seat 2) is a computer player too, and the learner said its gos
    assert steps > 30


def test_an_illegal_action_is_refused_and_changes_nothing():
    env = CribbageSingleEnv(opponent="random", illegal="raise")
    obs, _ = env.reset(seed=1)
    before = env.aec.game.record()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=f"action {illegal} is not legal"):
        env.step(illegal)
    assert env.aec.game.record() == before
    assert env.observation_space.contains(obs)


@pytest.mark.parametrize("make", [CribbageSingleEnv, KingsSingleEnv])
def test_an_illegal_action_ends_the_episode_with_a_penalty(make):
    env = make(opponent="random")
    obs, _ = env.reset(seed=1)
    before = len(env.aec.game.record()["deals"]) if make is CribbageSingleEnv else \
        env.aec.game.to_record()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_action"].startswith(f"action {illegal} is not legal for player_0")
    assert not obs["action_mask"].any()  # nothing more to do
    after = len(env.aec.game.record()["deals"]) if make is CribbageSingleEnv else \
        env.aec.game.to_record()
    assert after == before  # no opponent played on
    obs, _ = env.reset(seed=1)  # and a new episode starts as usual
    assert obs["action_mask"].any()


def test_version_0_keeps_the_v0_environments():
    assert CribbageSingleEnv(version=0).aec.metadata["name"] == "cribbage_v0"
    assert KingsSingleEnv(version=0).aec.metadata["name"] == "kings_v0"
    assert KingsSingleEnv().aec.metadata["name"] == "kings_v1"
    with pytest.raises(ValueError, match="version must be one of 0, 1, not 2"):
        CribbageSingleEnv(version=2)


def test_bad_opponents_are_refused():
    with pytest.raises(ValueError, match="unknown player 'grandmaster'"):
        KingsSingleEnv(opponent="grandmaster")
    with pytest.raises(ValueError, match="2 opponent names are needed"):
        CribbageSingleEnv(opponent=["expert"] * 3)
    with pytest.raises(ValueError, match="seat must be 0 to 1"):
        CribbageSingleEnv(seat=2)


def test_go_index_is_in_the_space():
    env = CribbageSingleEnv()
    assert env.action_space.n > GO
