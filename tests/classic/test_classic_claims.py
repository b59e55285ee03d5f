"""Claims under the muggins option: a claim is made once and is final (docs/classic.md).
A claim above the hand's value is never refused, which would tell the value; it is
corrected, and the next player (the other side in partnerships), who would take missed
points, scores the excess, so over-claiming never pays."""

from __future__ import annotations

import copy
import random

import pytest
from classic_reference import ref_score
from classic_stacked import StackedGame
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from kingscrib.classic.cards import parse_cards
from kingscrib.classic.game import Claim, ClassicGame, Discard, IllegalAction
from kingscrib.classic.record import dumps, loads, replay
from kingscrib.classic.rules import RuleSet


def to_the_show(g: ClassicGame, throws: list[str]) -> None:
    for seat, cards in zip(g.order_from_left(), throws):
        g.apply(Discard(tuple(parse_cards(cards))), seat)
    while g.phase == "play":
        g.apply(g.legal_actions()[0])


def test_an_over_claim_is_corrected_and_the_excess_goes_to_the_opponent():
    g = StackedGame(["5H 5S 5C JD 2C 3C", "AH 2H 4S 6D 8C 9C"], starter="5D",
                    rules=RuleSet(players=2, muggins=True))
    pone, dealer = g.order_from_left()
    to_the_show(g, ["2C 3C", "8C 9C"])
    g.apply(Claim(29))  # the pone's 29 hand, claimed exactly
    assert g.show_item.seat == dealer
    worth = ref_score(parse_cards("AH 2H 4S 6D"), parse_cards("5D")[0])
    assert worth == 5  # 4-5-6 fifteen 2, run 3
    before = list(g.scores)
    events = g.apply(Claim(9))
    assert g.scores[dealer] == before[dealer] + worth
    assert g.scores[pone] == before[pone] + 9 - worth
    entry = g.deals[0]["show"][1]
    assert entry["claimed"] == 9 and entry["score"] == worth
    assert entry["overclaim"] == {"player": pone, "score": 4} and "muggins" not in entry
    over = [e for e in events if e.kind == "overclaim"]
    assert [(e.seat, e.points) for e in over] == [(pone, 4)]
    assert "worth 5, not 9" in over[0].text
    assert g.record()["deals"][0]["show"][1]["overclaim"] == {"player": pone, "score": 4}


def test_in_partnerships_the_excess_goes_to_the_other_side():
    hands = ["AH 2H 4S 6D 9C", "KD QC 8H 8D 3S", "7C 7D 6S JH 9H", "TC TH 4D 3H 2S"]
    g = StackedGame(hands, starter="5D", rules=RuleSet(players=4, muggins=True))
    to_the_show(g, ["9C", "3S", "9H", "2S"])
    first = g.show_item.seat
    worth = ref_score(parse_cards("AH 2H 4S 6D"), parse_cards("5D")[0])
    before = list(g.scores)
    g.apply(Claim(worth + 7))
    side, other = g.rules.side_of(first), 1 - g.rules.side_of(first)
    assert g.scores[side] - before[side] == worth
    assert g.scores[other] - before[other] == 7


def test_a_claim_past_the_bound_of_every_hand_is_refused_without_telling_the_value():
    g = StackedGame(["5H 5S 5C JD 2C 3C", "AH 2H 4S 6D 8C 9C"], starter="5D",
                    rules=RuleSet(players=2, muggins=True))
    to_the_show(g, ["2C 3C", "8C 9C"])
    g.apply(Claim(29))
    before = (list(g.scores), g.record())
    for bad in (30, -1, True):
        with pytest.raises(IllegalAction) as refused:
            g.apply(Claim(bad))
        assert "29" in str(refused.value) and "5" not in str(refused.value).replace("29", "")
    assert (list(g.scores), g.record()) == before
    # every claim from 0 to 29 is offered, whatever the hand is worth
    assert g.legal_actions() == [Claim(p) for p in range(30)]


def at_a_show(players: int, seed: int, choice_seed: int) -> ClassicGame:
    """A muggins game played at random up to a hand waiting for its claim."""
    rng = random.Random(choice_seed)
    g = ClassicGame(RuleSet(players=players, muggins=True), seed=seed)
    while g.phase != "over" and g.show_item is None:
        g.apply(rng.choice(g.legal_actions()))
    return g


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 4), st.integers(0, 10**6), st.integers(0, 10**6), st.integers(0, 29))
def test_over_claiming_never_pays(players, seed, choice_seed, claim):
    g = at_a_show(players, seed, choice_seed)
    assume(g.phase == "show")
    item = g.show_item
    value = ref_score(list(item.cards), g.starter, crib=item.kind == "crib")
    assume(claim >= value)
    honest, greedy = copy.deepcopy(g), copy.deepcopy(g)
    honest.apply(Claim(value))
    greedy.apply(Claim(claim))
    me = g.rules.side_of(item.seat)
    assert greedy.scores[me] <= honest.scores[me]
    assert all(greedy.scores[s] >= honest.scores[s] for s in range(g.rules.sides) if s != me)
    # the record (with its over-claim) replays to the same game
    assert replay(loads(dumps(greedy))).record() == greedy.record()
