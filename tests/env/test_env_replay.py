"""1,000 games of each environment with random legal actions, each replayed through the
engine's own record checker: the environment's game is the real game."""

from __future__ import annotations

import numpy as np
from env_support import play_random

from kingscrib.classic.record import replay
from kingscrib.env import cribbage_v0, kings_v0
from kingscrib.kings.record import check_record

GAMES = 500
# Every kind of turn, end, penalty and tile each Kings setup shows in 500 games it shows by
# game 143 (the last first: a scoreless end with the solitaire rules).
KINGS_GAMES = 150
KINGS_SETUPS = [
    (2, {}), (3, {"joker": True}), (4, {"servant": True}), (2, {"solitaire": True}),
    (2, {"exchange": "when-stuck", "reduced_first_bonus": True}),
]
CRIBBAGE_SETUPS = [(2, {}), (3, {"muggins": True}), (4, {"skunk": True}), (2, {"muggins": True})]


def test_kings_games_replay_through_the_engine():
    rng = np.random.default_rng(2024)
    envs = [kings_v0.env(players=p, rules=r, notation=False) for p, r in KINGS_SETUPS]
    reasons = set()
    for i in range(KINGS_GAMES):
        env = envs[i % len(envs)]
        totals = play_random(env, i, rng)
        game = env.unwrapped.game
        record = game.to_record()
        checked = check_record(record)  # raises on any turn that breaks a rule
        assert checked.final_scores == game.final_scores
        assert checked.end == game.end
        top = max(game.final_scores)
        for seat, agent in enumerate(env.possible_agents):
            assert (totals[agent] > -1.0) == (game.final_scores[seat] == top)
        reasons.add(game.end.reason)
    assert reasons == {"out", "blocked", "scoreless"}


def test_cribbage_games_replay_through_the_engine():
    rng = np.random.default_rng(2025)
    envs = [cribbage_v0.env(players=p, rules=r) for p, r in CRIBBAGE_SETUPS]
    for i in range(GAMES):
        env = envs[i % len(envs)]
        totals = play_random(env, i, rng)
        game = env.unwrapped.game
        again = replay(game.record())  # raises where the record and the rules disagree
        assert again.scores == game.scores and again.winner == game.winner
        for seat, agent in enumerate(env.possible_agents):
            won = game.rules.side_of(seat) == game.winner
            assert totals[agent] == (1.0 if won else -1.0)
