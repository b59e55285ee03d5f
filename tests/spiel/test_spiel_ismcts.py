"""OpenSpiel's ISMCTS runs on ``kingscrib_cribbage``: the example plays whole games
against a built-in level, and its evaluator values positions as the win table says."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pyspiel

import kingscrib.spiel  # noqa: F401  (registers the games)
from kingscrib.players.classic.winprob import win_probability
from kingscrib.spiel.evaluators import DealRolloutEvaluator

EXAMPLE = Path(__file__).parents[2] / "examples" / "openspiel_ismcts.py"


def load_example():
    spec = importlib.util.spec_from_file_location("openspiel_ismcts", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_ismcts_plays_whole_games_against_a_level():
    result = load_example().play_match(games=2, opponent="easy", simulations=8, seed=3)
    assert result["games"] == 2
    assert 0 <= result["wins"] <= 2
    assert result["win_rate"] == result["wins"] / 2


def test_ismcts_with_a_levels_rollouts_plays_a_whole_game():
    result = load_example().play_match(games=1, opponent="medium", simulations=6, seed=4,
                                       rollout="easy")
    assert result["games"] == 1 and result["rollout"] == "easy"
    assert result["wins"] in (0, 1)


def test_the_evaluator_reads_the_win_table_at_the_end_of_the_deal():
    game = pyspiel.load_game("kingscrib_cribbage")
    rng = random.Random(6)
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(outcomes, probs)[0])
    evaluator = DealRolloutEvaluator(rng=random.Random(1))
    values = evaluator.evaluate(state)
    assert values[0] == -values[1]
    # the same rollout by hand: random to the end of the deal, then the table
    rollout = state.clone()
    again = random.Random(1)
    while not (rollout.dealing() and not rollout.dealt) and not rollout.is_terminal():
        if rollout.is_chance_node():
            outcomes, probs = zip(*rollout.chance_outcomes())
            rollout.apply_action(again.choices(outcomes, probs)[0])
        else:
            rollout.apply_action(again.choice(rollout.legal_actions()))
    scores = rollout.engine.scores
    dealer_next = (rollout.engine.dealer + 1) % 2
    assert values[0] == 2 * win_probability(scores[0], scores[1], dealer_next == 0) - 1
    assert sum(scores) > 0
    assert evaluator.prior(state) == [(a, 1 / len(state.legal_actions()))
                                      for a in state.legal_actions()]
