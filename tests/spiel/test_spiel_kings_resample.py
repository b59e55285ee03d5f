"""Kings' information-state resampler: a resampled state is one the seat cannot tell from
the true one, and OpenSpiel's ISMCTS plays Kings with it and no code of its user's."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts

import kingscrib.spiel  # noqa: F401  (registers the games)
from kingscrib.spiel.evaluators import KingsScoreEvaluator


def _views(state, seat):
    return (state.information_state_string(seat), state.observation_string(seat),
            list(state.information_state_tensor(seat)), list(state.observation_tensor(seat)))


def _hidden(state, seat):
    """The tiles the seat has not seen, as a multiset per bag, and every rack's size."""
    e = state.engine
    pools = []
    for bag in e.bags:
        pool = Counter(bag)
        for other in range(state.num_players()):
            if other != seat and e.bag_of(other) is bag:
                pool.update(e.racks[other])
        pools.append(pool)
    return pools, [len(r) for r in e.racks]


@pytest.mark.parametrize("params", [{"players": 2}, {"players": 3},
                                    {"players": 2, "solitaire": True}],
                         ids=["2", "3", "solitaire"])
def test_a_resampled_state_looks_the_same_to_the_seat(params):
    game = pyspiel.load_game("kings_cribbage", params)
    rng = random.Random(4)
    state, checked, changed = game.new_initial_state(), 0, 0
    step = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        step += 1
        if step % 12 == 0:
            for seat in range(state.num_players()):
                new = state.resample_from_infostate(seat, None, rng)
                assert _views(new, seat) == _views(state, seat)
                assert _hidden(new, seat) == _hidden(state, seat)
                assert new.engine.racks[seat] == state.engine.racks[seat]
                assert new.engine.board == state.engine.board
                if seat == state.current_player():
                    assert new.legal_actions() == state.legal_actions()
                others = [s for s in range(state.num_players()) if s != seat]
                changed += any(sorted(new.engine.racks[s]) != sorted(state.engine.racks[s])
                               for s in others)
                checked += 1
                # the resampled state plays on: a random game to its end from it
                if checked % 8 == 0:
                    _play_out(new, rng)
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 8 and changed > checked // 2


def _play_out(state, rng):
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def test_ismcts_plays_a_game_of_kings_with_the_resampler():
    game = pyspiel.load_game("kings_cribbage")
    rng = random.Random(2)
    bot = ismcts.ISMCTSBot(game, KingsScoreEvaluator(), uct_c=1.0, max_simulations=4,
                           random_state=np.random.RandomState(2),
                           final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                           use_observation_string=True)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, None, rng))
    state, moves = game.new_initial_state(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        elif state.current_player() == 0 and len(state.legal_actions()) > 1:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            moves += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert moves > 10 and state.returns()[0] in (-1.0, 0.0, 1.0)
