"""The equity player's defence: the next player's best reply to each option, estimated
over racks drawn from the unseen tiles, checked against the reference generator."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kingscrib.kings import movegen
from kingscrib.kings.fastgen import to_play
from kingscrib.kings.game import Game
from kingscrib.players.kings.defence import expected_reply, sample_racks
from kingscrib.players.kings.driver import take_turn
from kingscrib.players.kings.equity import EquityPlayer, candidates, defend, distinct
from kingscrib.players.kings.leaves import shipped
from kingscrib.players.kings.simple import GreedyPlayer

SETTINGS = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def game_after(seed: int, turns: int) -> Game:
    game = Game.new(2, seed=seed)
    players = [GreedyPlayer(), GreedyPlayer()]
    for _ in range(turns):
        if game.is_over or not game.bags[0]:
            break
        take_turn(game, players)
    return game


@SETTINGS
@given(seed=st.integers(0, 10**6), turns=st.integers(0, 14), pick=st.integers(0, 5))
def test_expected_reply_is_the_mean_of_the_references_best_scores(seed: int, turns: int,
                                                                    pick: int) -> None:
    game = game_after(seed, turns)
    view = game.view()
    options = [c for c in candidates(view, shipped()) if c.raw is not None]
    if not options:
        return
    option = options[min(pick, len(options) - 1)]
    racks = sample_racks(view, random.Random(seed), 3)
    after = dict(game.board)
    after.update(to_play(option.raw[2], option.raw[3]).tiles)
    best = [max((p.total for p in movegen.legal_plays(after, rack, game.rules)), default=0)
            for rack in racks]
    placed = list(zip(option.raw[2], option.raw[3]))
    assert expected_reply(game.board, placed, racks, game.rules) == sum(best) / len(best)


@SETTINGS
@given(seed=st.integers(0, 10**6), turns=st.integers(0, 20))
def test_racks_are_drawn_only_from_the_unseen_tiles(seed: int, turns: int) -> None:
    game = game_after(seed, turns)
    view = game.view()
    for rack in sample_racks(view, random.Random(seed), 8):
        assert len(rack) == min(view.rack_sizes[1 - view.seat], sum(view.unseen.values()))
        assert not Counter(rack) - view.unseen


def test_defend_takes_the_weighted_reply_off_the_equity() -> None:
    game = game_after(5, 6)
    view = game.view()
    static = candidates(view, shipped())
    before = {c.order: c.equity for c in static}
    weight = 0.75
    top = defend(view, static, random.Random(1), weight=weight, width=5, racks=3)
    assert len(top) == len(distinct(candidates(view, shipped()), 5))
    for c in top:
        assert c.reply is not None and c.reply >= 0
        assert abs(c.defence - weight * c.reply) < 1e-9
        assert abs(c.equity - (before[c.order] - c.defence)) < 1e-9
        assert abs(c.equity - (c.score + c.leave_value - c.defence)) < 1e-9
    assert top == sorted(top, key=lambda c: (-c.equity, c.order))


@pytest.mark.parametrize("turns", [0, 7])
def test_an_exchange_is_judged_on_the_board_as_it_is(turns: int) -> None:
    """Exchanging on the empty board hands the next player the first play and its bonus."""
    game = game_after(3, turns)
    view = game.view()
    racks = sample_racks(view, random.Random(2), 3)
    best = [max((p.total for p in movegen.legal_plays(game.board, rack, game.rules)), default=0)
            for rack in racks]
    assert expected_reply(game.board, [], racks, game.rules) == sum(best) / len(best)
    if turns == 0:
        assert min(best) >= 12  # a first play scores its hand and the 10-point bonus


def test_without_defence_the_player_takes_the_best_static_option() -> None:
    for seed in range(4):
        game = game_after(seed, 8)
        view = game.view()
        best = candidates(view, shipped())[0]
        chosen = EquityPlayer(defence=0.0).choose(view)
        assert chosen == (best.action or to_play(best.raw[2], best.raw[3]))


def test_the_same_seed_makes_the_same_choices() -> None:
    game = game_after(9, 5)
    view = game.view()
    assert EquityPlayer(seed=4).choose(view) == EquityPlayer(seed=4).choose(view)
