"""The score distribution and the discard analysis, against independent counts."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, product

from classic_reference import SUITS, full_deck, ref_score
from hypothesis import given, settings
from hypothesis import strategies as st

from kingscrib.classic.cards import Card, parse_cards
from kingscrib.classic.discard import analyse_discards, expected_crib, unseen_cards
from kingscrib.classic.stats import TOTAL_HANDS, _suit_bonus_counts, score_stats

# The published distribution of cribbage hand scores (hand rules).
PUBLISHED_HAND = {
    0: 1009008, 1: 99792, 2: 2813796, 3: 505008, 4: 2855676, 5: 697508, 6: 1800268,
    7: 751324, 8: 1137236, 9: 361224, 10: 388740, 11: 51680, 12: 317340, 13: 19656,
    14: 90100, 15: 9168, 16: 58248, 17: 11196, 18: 2708, 19: 0, 20: 8068, 21: 2496,
    22: 444, 23: 356, 24: 3680, 25: 0, 26: 0, 27: 0, 28: 76, 29: 4,
}


def test_hand_distribution_matches_published_table():
    stats = score_stats()
    assert dict(enumerate(stats.hand)) == PUBLISHED_HAND
    assert sum(stats.hand) == sum(stats.crib) == TOTAL_HANDS == 12_994_800
    assert round(stats.mean_hand, 4) == 4.7692


def test_crib_distribution_is_hand_less_the_four_card_flushes():
    """Crib rules differ only for 4-card flushes whose starter is off-suit: enumerate those."""
    stats = score_stats()
    moved = Counter()
    for suit in SUITS:
        for ranks in combinations(range(1, 14), 4):
            hand = [Card(r, suit) for r in ranks]
            for starter in full_deck():
                if starter.suit == suit:
                    continue
                # no nobs here: a jack in the hand is of another suit than the starter
                crib_points = ref_score(hand, starter, crib=True)
                moved[crib_points + 4] -= 1
                moved[crib_points] += 1
    expected = [stats.hand[i] + moved.get(i, 0) for i in range(30)]
    assert list(stats.crib) == expected


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 13), min_size=4, max_size=4), st.integers(1, 13))
def test_suit_counting_matches_enumeration(hand_ranks, starter_rank):
    """The closed-form flush/nobs counts against every way to give the cards suits."""
    hand_ranks = sorted(hand_ranks)
    counts = Counter(hand_ranks)
    if any(m > 4 for m in counts.values()) or counts[starter_rank] > 3:
        return
    by_hand, by_crib = _suit_bonus_counts(tuple(hand_ranks), starter_rank)
    starter = Card(starter_rank, "S")
    seen: set = set()
    want_hand: Counter = Counter()
    want_crib: Counter = Counter()
    for suits in product(SUITS, repeat=4):
        cards = [Card(r, s) for r, s in zip(hand_ranks, suits)]
        key = frozenset(cards)
        if len(key) < 4 or starter in key or key in seen:
            continue
        seen.add(key)
        base = ref_score(cards, starter, crib=True)
        want_hand[ref_score(cards, starter) - ref_score(cards, starter, crib=True) + _bonus(cards, starter, True)] += 1
        want_crib[_bonus(cards, starter, True)] += 1
        assert base >= 0
    assert {k: v for k, v in by_hand.items() if v} == {k: v for k, v in want_hand.items() if v}
    assert {k: v for k, v in by_crib.items() if v} == {k: v for k, v in want_crib.items() if v}


def _bonus(cards: list[Card], starter: Card, crib: bool) -> int:
    flush = 0
    if len({c.suit for c in cards}) == 1:
        flush = 5 if starter.suit == cards[0].suit else (0 if crib else 4)
    nobs = 1 if any(c.rank == 11 and c.suit == starter.suit for c in cards) else 0
    return flush + nobs


def test_discard_values_against_brute_force():
    six = parse_cards("5H 5S JD 6C 9C QH")
    options = analyse_discards(six, dealer=True)
    assert len(options) == 15
    assert [o.total for o in options] == sorted((o.total for o in options), reverse=True)
    unseen = unseen_cards(six)
    rng = random.Random(4)
    for option in rng.sample(options, 2):
        hand = sum(ref_score(list(option.keep), s) for s in unseen) / len(unseen)
        assert abs(option.hand - hand) < 1e-9
        total = 0
        n = 0
        for starter in unseen:
            rest = [c for c in unseen if c != starter]
            for pair in combinations(rest, 2):
                total += ref_score(list(option.discard) + list(pair), starter, crib=True)
                n += 1
        assert n == 46 * 990
        assert abs(option.crib - total / n) < 1e-9
    pone = analyse_discards(six, dealer=False)
    by_throw = {o.discard: o for o in options}
    for o in pone:
        assert abs(o.crib + by_throw[o.discard].crib) < 1e-12


def test_crib_flush_and_nobs_expectation_small_case():
    # a crib with three known cards of one suit, filled by one card, against brute force
    known = parse_cards("2H 7H JH")
    unseen = unseen_cards(known + parse_cards("AS 3C"))
    total = 0
    n = 0
    for starter in unseen:
        for fill in unseen:
            if fill == starter:
                continue
            total += ref_score(known + [fill], starter, crib=True)
            n += 1
    assert abs(expected_crib(known, unseen) - total / n) < 1e-9


def test_discard_refuses_bad_input():
    import pytest

    with pytest.raises(ValueError):
        analyse_discards(parse_cards("5H 5S JD 6C 9C"), dealer=True, discards=2)
    with pytest.raises(ValueError):
        analyse_discards([Card(5, "H")] * 6, dealer=True)
