"""Seat-named actions (discards in any order) and the explicit Go of the browser game."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kingscrib.classic.cards import Card, deck, parse_cards
from kingscrib.classic.game import (
    ClassicGame,
    Discard,
    Go,
    IllegalAction,
    Play,
    actions_from_record,
    seated_actions_from_record,
)
from kingscrib.classic.rules import RuleSet
from kingscrib.classic.show import score_show, show_combinations


def random_game(players: int, seed: int, muggins: bool, steps: int) -> ClassicGame:
    """An explicit-go game driven by random legal actions of random waiting seats."""
    rng = random.Random(seed)
    game = ClassicGame(RuleSet(players=players, muggins=muggins), seed=seed, explicit_go=True)
    for _ in range(steps):
        if game.phase == "over":
            break
        seat = rng.choice(game.waiting_for())
        game.apply(rng.choice(game.legal_for(seat)), seat)
    return game


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 10_000), st.booleans(), st.integers(1, 400))
def test_explicit_go_and_any_discard_order_give_the_same_record(players, seed, muggins, steps):
    game = random_game(players, seed, muggins, steps)
    while game.phase == "play" and game.legal_for(game.to_act) == [Go()]:
        game.apply(Go(), game.to_act)  # the default mode says these at once
    record = game.record()
    # the same game in the default mode: Go actions left out, discards from the left
    auto = ClassicGame(RuleSet(players=players, muggins=muggins), seed=seed)
    for seat, action in seated_actions_from_record(record):
        auto.apply(action, seat)
    assert auto.record() == record
    if all(None not in d["discards"] for d in record["deals"]):
        plain = ClassicGame(RuleSet(players=players, muggins=muggins), seed=seed)
        for action in actions_from_record(record):
            plain.apply(action)
        assert plain.record() == record
    # and the explicit-go game rebuilds from its own record, Go included
    again = ClassicGame(RuleSet(players=players, muggins=muggins), seed=seed, explicit_go=True)
    for seat, action in seated_actions_from_record(record, explicit_go=True):
        again.apply(action, seat)
    assert again.record() == record
    assert again.waiting_for() == game.waiting_for()


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 10_000), st.integers(1, 300))
def test_go_is_legal_exactly_when_no_card_fits(players, seed, steps):
    game = random_game(players, seed, False, steps)
    if game.phase != "play":
        return
    seat = game.to_act
    fits = [c for c in game.hand(seat) if game.count + c.points <= 31]
    legal = game.legal_for(seat)
    if fits:
        assert legal == [Play(c) for c in sorted(fits)]
        before = game.record()
        with pytest.raises(IllegalAction, match="can be laid"):
            game.apply(Go(), seat)
        assert game.record() == before
    else:
        assert game.hand(seat) and legal == [Go()]


def test_discards_in_any_order_and_refusals():
    game = ClassicGame(RuleSet(players=3), seed=5, explicit_go=True)
    dealer = game.dealer
    assert sorted(game.waiting_for()) == [0, 1, 2]
    card = game.hand(dealer)[0]
    game.apply(Discard((card,)), dealer)  # the dealer first, out of the usual order
    assert dealer not in game.waiting_for()
    with pytest.raises(IllegalAction, match="already laid away"):
        game.apply(Discard((game.hand(dealer)[0],)), dealer)
    other = (dealer + 1) % 3
    with pytest.raises(IllegalAction, match="exactly 1"):
        game.apply(Discard(tuple(game.hand(other)[:2])), other)
    with pytest.raises(IllegalAction, match="not in"):
        game.apply(Discard((card,)), other)
    assert sorted(game.waiting_for()) == sorted({0, 1, 2} - {dealer})


def test_go_said_by_the_player_in_the_first_example():
    # pone 4 4 7 9 (after laying away K K), dealer 7 J 5 8
    from classic_stacked import StackedGame

    class Explicit(StackedGame):
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            self.explicit_go = True

    g = Explicit(["4H 4S 7C 9D KC KD", "7H JS 5C 8D QC QD"], starter="2C")
    pone, dealer = g.order_from_left()
    g.apply(Discard(tuple(parse_cards("KC KD"))), pone)
    g.apply(Discard(tuple(parse_cards("QC QD"))), dealer)
    for seat, c in [(pone, "4H"), (dealer, "JS"), (pone, "7C"), (dealer, "8D")]:
        g.apply(Play(Card.parse(c)), seat)
    # count 29: the pone holds 4S 9D and must say go
    assert g.to_act == pone and g.legal_for(pone) == [Go()]
    with pytest.raises(IllegalAction, match="turn"):
        g.apply(Go(), dealer)
    g.apply(Go(), pone)
    # the dealer (7H 5C left) cannot lay on 29 either: one for the go
    assert g.deals[0]["plays"][-2:] == [{"player": pone, "action": "go"},
                                        {"player": dealer, "action": "go", "score": 1}]
    assert g.count == 0 and g.to_act == pone


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(deck()), min_size=5, max_size=5, unique=True), st.booleans())
def test_show_combinations_add_up_to_the_count(cards, crib):
    *hand, starter = cards
    combos = show_combinations(hand, starter, crib)
    assert sum(c.points for c in combos) == score_show(hand, starter, crib).total
    for c in combos:
        if c.kind == "fifteen":
            assert sum(x.points for x in c.cards) == 15
        if c.kind in ("pair", "run"):
            assert len({x.rank for x in c.cards}) == (1 if c.kind == "pair" else len(c.cards))
