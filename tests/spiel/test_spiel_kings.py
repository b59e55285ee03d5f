"""``kings_cribbage``, the OpenSpiel game over the Kings engine: OpenSpiel's own random
simulation checks, tile draws as chance nodes that leave nothing of the future in a
state, what a seat may know, and the factored actions reaching the engine's plays."""

from __future__ import annotations

import random
from collections import Counter

import pyspiel
import pytest

import kingscrib.spiel  # noqa: F401  (registers the games)
from kingscrib.env.kings_factored import COMMIT
from kingscrib.kings.movegen import legal_plays as reference_plays
from kingscrib.kings.tiles import full_set
from kingscrib.spiel.kings import kind, kind_tile


@pytest.mark.parametrize("params", [
    {"players": 2},
    {"players": 3, "joker": True, "servant": True},
    {"players": 2, "solitaire": True, "exchange": "when-stuck"},
    {"players": 4, "reduced_first_bonus": True},
])
def test_openspiel_random_simulations_pass(params):
    game = pyspiel.load_game("kings_cribbage", params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def deal(game, rng: random.Random, draws: list[int] | None = None):
    """A state after the first player and the racks are drawn (``draws`` first)."""
    state = game.new_initial_state()
    state.apply_action(0)
    for k in range(5 * game.num_players()):
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(draws[k] if draws and k < len(draws) else
                           rng.choices(outcomes, probs)[0])
    assert not state.is_chance_node()
    return state


def test_a_draw_is_a_tile_kind_with_its_count_in_the_bag():
    game = pyspiel.load_game("kings_cribbage")
    state = game.new_initial_state()
    state.apply_action(1)
    assert dict(state.chance_outcomes()) == {
        kind(t): n / 104 for t, n in Counter(full_set()).items()}
    rng = random.Random(4)
    state = deal(game, rng)
    # a random turn that draws: its draws are chance nodes over what the bag holds
    while not state.is_chance_node():
        actions = state.legal_actions()
        state.apply_action(COMMIT if COMMIT in actions else
                           rng.choice([a for a in actions if a > 31]))
    bag = Counter(state.engine.bags[0])
    assert dict(state.chance_outcomes()) == {
        kind(t): n / sum(bag.values()) for t, n in bag.items()}
    # a clone draws whatever chance gives it: the bag is a sorted multiset, no order
    assert state.engine.bags[0] == sorted(state.engine.bags[0])
    drawn = set()
    for outcome, _ in state.chance_outcomes()[:4]:
        other = state.clone()
        other.apply_action(outcome)
        drawn.add(str(other.drawn[-1]))
    assert len(drawn) == 4


def test_the_engine_draws_exactly_the_chance_outcomes():
    game = pyspiel.load_game("kings_cribbage", {"players": 3})
    rng = random.Random(8)
    state = game.new_initial_state()
    draws: dict[int, list[str]] = {0: [], 1: [], 2: []}
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            action = rng.choices(outcomes, probs)[0]
            if state.engine is not None:
                draws[state.drawing_seat()].append(str(kind_tile(action)))
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
    engine = state.engine
    for seat in range(3):
        racks = [t for t in engine.history if t.player == seat]
        dealt = [str(x) for x in (racks[0].rack if racks else engine.racks[seat])]
        drew = [str(x) for turn in racks for x in turn.drew]
        assert sorted(draws[seat]) == sorted(dealt + drew)
    assert engine.is_over
    assert abs(sum(state.returns())) < 1e-9


def test_a_seat_knows_its_own_rack_and_not_the_others():
    game = pyspiel.load_game("kings_cribbage")
    rng = random.Random(1)
    first = deal(game, rng)
    seat0 = [kind(t) for t in first.engine.racks[0]]
    # the same rack for seat 0 (drawn first), other tiles for seat 1
    other = deal(game, random.Random(2), draws=seat0)
    assert sorted(other.engine.racks[0]) == sorted(first.engine.racks[0])
    assert sorted(other.engine.racks[1]) != sorted(first.engine.racks[1])
    for method in ("information_state_string", "information_state_tensor",
                   "observation_string", "observation_tensor"):
        assert getattr(first, method)(0) == getattr(other, method)(0), method
        assert getattr(first, method)(1) != getattr(other, method)(1), method


def test_the_factored_actions_commit_exactly_the_reference_plays():
    # Explore every masked placement sequence of a mid-game turn: the plays it commits
    # are the legal plays of the readable reference generator, no cap.
    game = pyspiel.load_game("kings_cribbage")
    rng = random.Random(3)
    state = deal(game, rng)
    for _ in range(2):  # two turns in, so the board has tiles
        while not state.is_chance_node():
            actions = state.legal_actions()
            state.apply_action(COMMIT if COMMIT in actions else
                               rng.choice([a for a in actions if a > 31]))
        while state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
    engine = state.engine
    expected = {frozenset(p.play.placed.items())
                for p in reference_plays(engine.board, engine.racks[engine.turn], engine.rules)}
    committed: set[frozenset] = set()

    def explore(s, placed_before):
        for action in s.legal_actions():
            if action == COMMIT:
                committed.add(frozenset(s.engine_action(COMMIT).placed.items()))
            elif action > 31 and action not in placed_before:
                child = s.clone()
                child.apply_action(action)
                explore(child, placed_before | {action})

    explore(state, frozenset())
    assert committed == expected
    assert len(expected) > 20
