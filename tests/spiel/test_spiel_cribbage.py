"""``kingscrib_cribbage``, the OpenSpiel game over the classic engine: OpenSpiel's own
random-simulation checks, chance nodes that leave nothing of the future in a state, the
engine's rules, and resampling for information-set search."""

from __future__ import annotations

import doctest
import importlib
import pickle
import random

import pyspiel
import pytest

import kingscrib.spiel  # noqa: F401  (registers the games)
from kingscrib.classic.cards import deck
from kingscrib.classic.game import ClassicGame, Go
from kingscrib.classic.rules import RuleSet
from kingscrib.env.cribbage import PAIR_INDEX
from kingscrib.spiel.cribbage import GO

CARDS = {c.number: c for c in deck()}


def random_walk(state, rng: random.Random, stop=lambda s: False):
    """Random chance outcomes and random legal moves until the end (or ``stop``)."""
    while not state.is_terminal() and not stop(state):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("params", [{"players": 2}, {"players": 3, "muggins": True},
                                    {"players": 4}])
def test_openspiel_random_simulations_pass(params):
    # OpenSpiel's own checks: clones equal their state, serialization round-trips, legal
    # actions sorted and empty for the others, chance outcomes sum to 1, tensors of the
    # declared sizes, returns zero-sum within the utility bounds, game length bounded.
    game = pyspiel.load_game("kingscrib_cribbage", params)
    assert game.num_players() == params["players"]
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_the_name_cribbage_stays_openspiels():
    # Ours must not replace OpenSpiel's own C++ game of that name for the whole process.
    assert pyspiel.load_game("cribbage").get_type().long_name != \
        pyspiel.load_game("kingscrib_cribbage").get_type().long_name


def _contains_generator(value, seen=None) -> bool:
    seen = seen if seen is not None else set()
    if id(value) in seen:
        return False
    seen.add(id(value))
    if isinstance(value, random.Random):
        return True
    if isinstance(value, dict):
        return any(_contains_generator(v, seen) for v in value.values())
    if isinstance(value, (list, tuple, set)):
        return any(_contains_generator(v, seen) for v in value)
    if hasattr(value, "__dict__") and not isinstance(value, type):
        return _contains_generator(vars(value), seen)
    return False


def test_a_clone_knows_no_card_before_it_is_dealt():
    game = pyspiel.load_game("kingscrib_cribbage")
    rng = random.Random(3)
    state = random_walk(game.new_initial_state(), rng,
                        stop=lambda s: s.is_chance_node() and s.pending is not None)
    # The starter is a chance node: every card not dealt, equally likely, and a clone
    # holds no generator that could tell which comes.
    clone = state.clone()
    seen = {c.number for hand in state.engine._deal.dealt for c in hand}
    assert dict(clone.chance_outcomes()) == {i: 1 / 40 for i in range(52) if i not in seen}
    assert not _contains_generator(vars(clone))
    assert not _contains_generator(pickle.loads(pickle.dumps(vars(state))))
    starters = set()
    for card in sorted(set(range(52)) - seen)[:5]:
        other = clone.clone()
        other.apply_action(card)
        starters.add(str(other.engine.starter))
    assert len(starters) == 5


def stacked_game(rules: RuleSet, first_dealer: int, packs: list) -> ClassicGame:
    """The engine's game, dealt ``packs`` in turn (explicit gos, as the OpenSpiel game)."""

    class Stacked(ClassicGame):
        def _cut_for_deal(self):
            return first_dealer

        def _shuffled_pack(self):
            return packs.pop(0)

    return Stacked(rules, explicit_go=True)


def test_the_game_is_the_engines_game():
    # Deal the engine's own game the cards the chance nodes chose and apply the same
    # moves: the records (every card, score and go) and the winner are the same.
    rng = random.Random(11)
    for players in (2, 3, 4):
        game = pyspiel.load_game("kingscrib_cribbage", {"players": players})
        state = game.new_initial_state()
        first, packs, dealt, moves = None, [], [], []
        while not state.is_terminal():
            if not state.is_chance_node():
                action = rng.choice(state.legal_actions())
                moves.append((state.current_player(), state.engine_action(action)))
            else:
                action = rng.choice([o for o, _ in state.chance_outcomes()])
                if state.first_dealer is None:
                    first = action
                elif state.dealing():
                    dealt.append(CARDS[action])
                else:  # the starter: the first card of the stock
                    rest = [c for c in deck() if c not in dealt and c.number != action]
                    packs.append([*dealt, CARDS[action], *rest])
                    dealt = []
            state.apply_action(action)
        engine = stacked_game(RuleSet(players), first, packs)
        for seat, move in moves:
            engine.apply(move, seat)
        assert engine.phase == "over"
        assert engine.record()["deals"] == state.engine.record()["deals"]
        assert engine.scores == state.engine.scores
        winners = [s for s in range(players) if state.returns()[s] > 0]
        assert winners == [s for s in range(players) if engine.rules.side_of(s) == engine.winner]
        assert sum(state.returns()) == 0


def test_a_seat_that_cannot_lay_a_card_says_go():
    game = pyspiel.load_game("kingscrib_cribbage")
    state = random_walk(game.new_initial_state(), random.Random(5),
                        stop=lambda s: not s.is_chance_node() and s.legal_actions() == [GO])
    seat = state.current_player()
    count = state.engine.count
    assert all(c.points + count > 31 for c in state.engine.hand(seat))
    assert isinstance(state.engine_action(GO), Go)


def test_an_illegal_move_is_refused_and_changes_nothing():
    game = pyspiel.load_game("kingscrib_cribbage")
    state = random_walk(game.new_initial_state(), random.Random(2),
                        stop=lambda s: not s.is_chance_node())
    hand = state.engine.hand(state.current_player())
    a, b = [i for i in range(52) if CARDS[i] not in hand][:2]
    before = str(state)
    with pytest.raises(Exception, match="not in"):
        state.apply_action(PAIR_INDEX[(a, b)])
    assert str(state) == before


@pytest.mark.parametrize("players", [2, 4])
def test_resampling_keeps_what_the_seat_knows_and_deals_the_rest_anew(players):
    game = pyspiel.load_game("kingscrib_cribbage", {"players": players})
    rng = random.Random(players)
    state = game.new_initial_state()
    checked = changed = 0
    while not state.is_terminal() and checked < 120:
        if state.is_chance_node():
            state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
            continue
        for seat in range(players):
            other = state.resample_from_infostate(seat, None, rng)
            assert other.information_state_string(seat) == \
                state.information_state_string(seat)
            assert other.information_state_tensor(seat) == \
                state.information_state_tensor(seat)
            assert other.current_player() == state.current_player()
            if seat == state.current_player():
                assert other.legal_actions() == state.legal_actions()
            changed += str(other) != str(state)
            checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked >= 100
    assert changed > checked * 0.9  # the hidden cards are dealt anew, not copied


@pytest.mark.parametrize("name", ["kingscrib.spiel.cribbage", "kingscrib.spiel.kings"])
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0


def test_a_state_answers_everything_the_views_and_resampling_read():
    # views.py and resample.py are written against DealState, not the state's class.
    from kingscrib.spiel.deal_state import DealState

    members = [m for m in vars(DealState) if not m.startswith("_")]
    assert "deal_start" in members and "clone" in members
    state = random_walk(pyspiel.load_game("kingscrib_cribbage").new_initial_state(),
                        random.Random(5), stop=lambda s: s.phase() == "play")
    assert state.phase() == "play"
    for member in members:
        assert hasattr(state, member), member
    assert type(state.deal_start) is type(state)
