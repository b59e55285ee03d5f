"""The outcome of a finished game, written once against the contract (kingscrib.core.outcome):
worked values, and both engines played to the end through the contract only."""

import random
from types import SimpleNamespace

import pytest

from kingscrib.classic.game import ClassicGame
from kingscrib.classic.rules import RuleSet
from kingscrib.core.outcome import outcome_rewards, winning_sides, zero_sum_returns
from kingscrib.kings.game import Game


def finished(players, winners):
    return SimpleNamespace(players=players, is_over=True, winners=lambda: list(winners))


@pytest.mark.parametrize("players, winners, sides, rewards, returns", [
    (2, [0], None, [1, -1], [1, -1]),
    (2, [0, 1], None, [0, 0], [0, 0]),
    (3, [2], None, [-1, -1, 1], [-0.5, -0.5, 1]),
    (3, [0, 2], None, [0, -1, 0], [0.25, -0.5, 0.25]),
    (4, [1], None, [-1, 1, -1, -1], [-1 / 3, 1, -1 / 3, -1 / 3]),
    (4, [0, 1, 2, 3], None, [-0.5, -0.5, -0.5, -0.5], [0, 0, 0, 0]),
    # partners opposite: seats 0 and 2 one side, 1 and 3 the other
    (4, [1, 3], [0, 1, 0, 1], [-1, 1, -1, 1], [-1, 1, -1, 1]),
])
def test_worked_outcomes(players, winners, sides, rewards, returns):
    game = finished(players, winners)
    assert outcome_rewards(game, sides) == pytest.approx(rewards)
    assert zero_sum_returns(game, sides) == pytest.approx(returns)
    assert sum(zero_sum_returns(game, sides)) == pytest.approx(0)


def test_no_outcome_before_the_end_or_without_a_winner():
    with pytest.raises(ValueError, match="not over"):
        outcome_rewards(SimpleNamespace(players=2, is_over=False, winners=lambda: []))
    with pytest.raises(ValueError, match="no winner"):
        zero_sum_returns(finished(2, []))
    with pytest.raises(ValueError, match="3 sides given for 2 seats"):
        winning_sides(finished(2, [0]), [0, 1, 0])
    with pytest.raises(ValueError, match="two sides"):
        zero_sum_returns(finished(2, [0, 1]), [0, 0])


def play_at_random(engine, rules, names, seed):
    """A whole game by the contract's verbs only, each action drawn among the legal ones."""
    game = engine.start(rules, seed, names)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_cribbage_games_pay_the_side_that_reached_121(players):
    names = [f"p{i}" for i in range(players)]
    rules = RuleSet(players=players)
    sides = [rules.side_of(s) for s in range(players)]
    game = play_at_random(ClassicGame, rules, names, seed=players)
    # Independent: the side whose score reached the winning total won.
    top = [side for side, score in enumerate(game.scores) if score >= 121]
    assert len(top) == 1
    expected_rewards = [1.0 if side == top[0] else -1.0 for side in sides]
    assert outcome_rewards(game, sides) == expected_rewards
    loser = -0.5 if players == 3 else -1.0
    assert zero_sum_returns(game, sides) == [1.0 if side == top[0] else loser
                                              for side in sides]


def test_a_kings_game_pays_the_highest_final_score():
    game = play_at_random(Game, None, ["Ann", "Bob", "Cy"], seed=5)
    # Independent: scores less what is left on each rack at the end.
    final = [score - penalty for score, penalty in zip(game.scores, game.end.penalties)]
    best = [seat for seat, score in enumerate(final) if score == max(final)]
    k = len(best)
    assert outcome_rewards(game) == [2 / k - 1 if s in best else -1.0 for s in range(3)]
    assert zero_sum_returns(game) == pytest.approx(
        [1.5 * (1 / k - 1 / 3) if s in best else -0.5 for s in range(3)])
