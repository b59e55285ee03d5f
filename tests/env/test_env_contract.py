"""The AEC plumbing written once against the engine contract (env.base.ContractEnv): a toy
game of the contract runs through it with nothing but its encoding, and both games'
environments pay what their engines' scores say."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium import spaces

from kingscrib.env.base import ContractEnv
from kingscrib.env.cribbage_v1 import CribbageEnvV1
from kingscrib.env.kings_v1 import KingsEnvV1


class Race:
    """A toy game of the contract: seats take turns adding 1 or 2 to their total; the
    first to reach ``rules`` wins."""

    game_id = "race"

    def __init__(self, target, seed, names):
        self.target, self.totals, self.turn = target, [0] * len(names), seed % len(names)

    @classmethod
    def start(cls, rules=None, seed=None, names=None):
        return cls(rules or 5, seed or 0, names or ["a", "b"])

    @classmethod
    def from_record(cls, record):
        raise NotImplementedError

    @property
    def players(self):
        return len(self.totals)

    @property
    def is_over(self):
        return max(self.totals) >= self.target

    def to_move(self):
        return None if self.is_over else self.turn

    def legal_actions(self):
        return [] if self.is_over else [1, 2]

    def apply(self, action, seat=None):
        self.totals[self.turn] += action
        if not self.is_over:
            self.turn = (self.turn + 1) % self.players

    def winners(self):
        return [s for s, t in enumerate(self.totals) if t >= self.target]


class RaceEnv(ContractEnv):
    """All a game's environment says: its mask, its actions, what a seat sees."""

    def __init__(self, players=2, target=5):
        super().__init__(Race, target, players, 2,
                         spaces.Dict({"totals": spaces.Box(0, 9, (players,), np.int8)}))

    def _mask(self):
        return np.ones(2, np.int8)

    def _apply(self, action):
        self.game.apply(action + 1)

    def _seat_points(self):
        return list(self.game.totals)

    def _observation(self, seat):
        return {"totals": np.array(self.game.totals, np.int8)}


@pytest.mark.parametrize("players", [2, 3])
def test_a_toy_game_of_the_contract_runs_through_the_shared_plumbing(players):
    env = RaceEnv(players)
    env.reset(seed=11)
    first = env.game.turn
    assert env.agent_selection == f"player_{first}"
    while not all(env.terminations.values()):
        env.step(1)  # add 2: the first seat reaches 6 first
    assert env.game.totals[first] == 6
    expected = {f"player_{s}": 1.0 if s == first else -1.0 for s in range(players)}
    assert env._cumulative_rewards == expected


def play_to_the_end(env, seed):
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    paid = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        paid[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return paid


@pytest.mark.parametrize("players", [2, 4])
def test_cribbage_pays_the_side_that_reached_121(players):
    env = CribbageEnvV1(players=players)
    paid = play_to_the_end(env, seed=players)
    rules = env.rules
    winner = next(side for side, score in enumerate(env.game.scores) if score >= 121)
    assert paid == {f"player_{s}": 1.0 if rules.side_of(s) == winner else -1.0
                    for s in range(players)}


def test_kings_pays_the_highest_final_score():
    env = KingsEnvV1(players=2, encoding="factored")
    paid = play_to_the_end(env, seed=3)
    game = env.game
    final = [s - p for s, p in zip(game.scores, game.end.penalties)]
    best = [s for s in range(2) if final[s] == max(final)]
    assert paid == {f"player_{s}": (2 / len(best) - 1) if s in best else -1.0
                    for s in range(2)}
