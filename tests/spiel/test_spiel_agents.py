"""ISMCTS as a player of the engine: the state it searches from is one its seat cannot
tell from the game it is in, and it plays whole games (the arena's ``ismcts``)."""

from __future__ import annotations

import random

import pyspiel

import kingscrib.spiel  # noqa: F401  (registers the games)
from kingscrib.classic.rules import RuleSet
from kingscrib.players.classic import make_player, play_game
from kingscrib.spiel.agents import CribbageIsmcts, state_from_view


def test_the_searched_state_looks_to_the_seat_as_the_true_one():
    """Random games through OpenSpiel's state; at every choice, the state built from the
    seat's engine view shows the seat the same observation and information-state tensor,
    the same legal actions and the same scores."""
    game = pyspiel.load_game("kingscrib_cribbage")
    rng = random.Random(2)
    checked = 0
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            seat, legal = state.current_player(), state.legal_actions()
            if len(legal) > 1:
                built = state_from_view(game, state.engine.view(seat), rng)
                assert built.current_player() == seat
                assert built.legal_actions() == legal
                assert built.observation_string(seat) == state.observation_string(seat)
                assert built.information_state_tensor(seat) == \
                    state.information_state_tensor(seat)
                assert built.engine.scores == state.engine.scores
                checked += 1
            state.apply_action(rng.choice(legal))
    assert checked > 150


def test_ismcts_plays_whole_games_through_the_engine():
    for seed in (1, 2):
        players = [CribbageIsmcts(seed, simulations=3), make_player("random", seed)]
        if seed == 2:
            players.reverse()
        game = play_game(RuleSet(), seed=seed, players=players)
        assert game.phase == "over" and max(game.scores) >= 121
