"""The show: worked hands from the rule texts, flushes, nobs, and a brute-force reference."""

from __future__ import annotations

import pytest
from classic_reference import full_deck, ref_score
from hypothesis import given, settings
from hypothesis import strategies as st

from kingscrib.classic.cards import Card, parse_cards
from kingscrib.classic.show import score_show


def show(text: str, crib: bool = False):
    *hand, starter = parse_cards(text)
    return score_show(hand, starter, crib=crib)


def test_the_29_hand():
    s = show("5H 5S 5C JD 5D")
    assert s.to_json() == {"total": 29, "fifteens": 16, "pairs": 12, "runs": 0, "flush": 0, "nobs": 1}
    assert s.explain().startswith("fifteen two, fifteen four")
    assert s.explain().endswith("one for his nobs is twenty-nine")


@pytest.mark.parametrize(
    "text, total",
    [
        ("5H 5S TC 6D 4C", 16),  # example hand 1: 8 + 2 + 6
        ("JH 2S 3C 3D AH", 13),  # example hand 2: 4 + 2 + 6 + nobs
        ("3H 3S 4C 4D AH", 6),  # example hand 3: the 3-3-4-4-A fifteen and two pairs
        ("8H 7S 7C AD KC", 8),  # 8-7-7-A: three fifteens and a pair
        ("9H TS JC QD 2D", 4),  # a run of four
        ("5H 5S KD 9C 2C", 6),  # fifteen two, fifteen four, a pair is six
        ("2H 4S 6C 8D KC", 0),  # nineteen hand
        ("4H 6S 5C 5S TD", 16),
    ],
)
def test_worked_hands(text, total):
    assert show(text).total == total


def test_hasbro_multiple_runs():
    double_run_four = show("5H 6S 7C 8D 8C")
    assert (double_run_four.runs, double_run_four.pairs) == (8, 2)
    triple = show("4H 4S 4C 5D 6C")
    assert (triple.runs, triple.pairs) == (9, 6)
    quadruple = show("6H 6S 7C 7D 8C")
    assert (quadruple.runs, quadruple.pairs) == (12, 4)


def test_explanation_words():
    assert show("5H 5S KD 9C 2C").explain() == "fifteen two, fifteen four, a pair is six"
    assert show("2H 4S 6C 8D KC").explain().startswith("nothing")


def test_hand_flush_four_and_five():
    assert show("2H 4H 6H 8H KC").flush == 4
    assert show("2H 4H 6H 8H KH").flush == 5
    assert show("2H 4H 6H 8C KH").flush == 0  # the starter cannot complete a flush


def test_crib_flush_needs_all_five():
    assert show("2H 4H 6H 8H KC", crib=True).flush == 0
    assert show("2H 4H 6H 8H KH", crib=True).flush == 5


def test_nobs_only_for_jack_of_starter_suit():
    assert show("JH 2S 4C 8D 3H").nobs == 1
    assert show("JH 2S 4C 8D 3S").nobs == 0
    assert show("2H 2S 4C 8D JH").nobs == 0  # the starter itself is no nobs


def test_bad_hands_are_refused():
    with pytest.raises(ValueError):
        score_show(parse_cards("5H 5S 5C"), Card.parse("5D"))
    with pytest.raises(ValueError):
        score_show(parse_cards("5H 5S 5C JD"), Card.parse("5H"))
    with pytest.raises(ValueError):
        parse_cards("5H 5H")
    with pytest.raises(ValueError):
        Card.parse("1H")
    with pytest.raises(ValueError):
        Card.parse("5X")


def test_card_notation():
    assert Card.parse("10h") == Card.parse("TH") == Card(10, "H")
    assert str(Card(10, "S")) == "TS"
    assert Card(5, "H").pretty() == "5♥"


five_cards = st.lists(st.sampled_from(full_deck()), min_size=5, max_size=5, unique=True)


@settings(max_examples=250, deadline=None)
@given(five_cards, st.booleans())
def test_matches_brute_force_reference(cards, crib):
    hand, starter = cards[:4], cards[4]
    result = score_show(hand, starter, crib=crib)
    assert result.total == ref_score(hand, starter, crib)
    # the total is the sum of its parts, and the parts never go negative
    assert result.total == sum(result.to_json()[k] for k in ("fifteens", "pairs", "runs", "flush", "nobs"))
