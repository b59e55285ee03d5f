"""Reading the opponent's hand: the keep ratios, the plays' likelihood and their use."""

from __future__ import annotations

import math
import random
from collections import Counter
from itertools import combinations, combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kingscrib.classic.cards import Card
from kingscrib.classic.discard import expected_crib
from kingscrib.counting import count_hand
from kingscrib.players.classic import pegtable, reader
from kingscrib.players.classic.pegsearch import opponent_holdings, solve
from kingscrib.players.classic.reader import (
    TEMPERATURE,
    keep_ratios,
    opponent_turns,
    play_likelihood,
)
from kingscrib.training.keep_ratios import compute_keep_ratios
from kingscrib.training.pegtable import build as build_pegging

SUITS = "SHDC"


def _crib(a: int, b: int) -> float:
    thrown = (Card(a, "S"), Card(b, "H"))
    unseen = [Card(r, s) for r in range(1, 14) for s in SUITS if Card(r, s) not in thrown]
    return expected_crib(thrown, unseen)


def _keep_chance(four: tuple[int, ...], dealer: bool) -> float:
    """P(a discarder keeps exactly the ranks ``four``), summed over every pair of ranks the
    other two cards may have, each six-rank deal scored from scratch: the kept hand's show
    averaged over the starters left, plus or minus the crib of the two laid away, and the
    choice a softmax over the options (as the module documents)."""
    total = 0.0
    for a, b in combinations_with_replacement(range(1, 14), 2):
        six = tuple(sorted(four + (a, b)))
        counts = Counter(six)
        if max(counts.values()) > 4:
            continue
        p_six = math.prod(math.comb(4, m) for m in counts.values()) / math.comb(52, 6)
        left = {r: 4 - counts[r] for r in range(1, 14)}
        options: dict[tuple[int, ...], float] = {}
        for i, j in combinations(range(6), 2):
            keep = tuple(r for k, r in enumerate(six) if k not in (i, j))
            show = sum(n * count_hand(tuple(sorted(keep + (s,)))).total
                       for s, n in left.items()) / 46
            value = show + (1 if dealer else -1) * _crib(six[i], six[j])
            options[keep] = max(options.get(keep, -math.inf), value)
        top = max(options.values())
        weights = {k: math.exp((v - top) / TEMPERATURE) for k, v in options.items()}
        total += p_six * weights.get(four, 0.0) / sum(weights.values())
    return total


@pytest.mark.parametrize("four,dealer", [((5, 5, 10, 10), True), ((2, 7, 9, 13), False),
                                         ((4, 5, 6, 6), False), ((1, 1, 1, 1), True)])
def test_keep_ratio_is_the_keep_chance_over_the_deals_chance(four, dealer) -> None:
    p_dealt = math.prod(math.comb(4, m) for m in Counter(four).values()) / math.comb(52, 4)
    assert keep_ratios(dealer)[four] == pytest.approx(_keep_chance(four, dealer) / p_dealt,
                                                      rel=1e-9)


def test_shipped_keep_ratios_are_the_computed_ones() -> None:
    for dealer in (True, False):
        assert reader.keep_ratios(dealer) == pytest.approx(compute_keep_ratios(dealer))


def test_keep_ratios_are_a_distribution_over_kept_hands() -> None:
    for dealer in (True, False):
        total = 0.0
        for four, ratio in keep_ratios(dealer).items():
            p_dealt = math.prod(math.comb(4, m) for m in Counter(four).values()) / math.comb(52, 4)
            total += ratio * p_dealt
        assert total == pytest.approx(1.0)
    # players keep what scores: a double run over four cards nobody would keep
    assert keep_ratios(True)[(4, 5, 6, 6)] > 5 > 0.2 > keep_ratios(True)[(2, 7, 9, 13)]


def test_opponent_turns_follow_the_count_through_31_and_a_go() -> None:
    # 5, 10 (15), 10, 6 (31): the count starts again; 9, K, 8, 2 (29), and a 5 would
    # make 34: after the go the count starts again
    played = [(0, 5), (1, 10), (0, 10), (1, 6), (0, 9), (1, 13), (0, 8), (1, 2), (0, 5)]
    assert opponent_turns(played, 1) == [((5,), 10), ((5, 10, 10), 6), ((9,), 13),
                                         ((9, 13, 8), 2)]
    assert opponent_turns(played, 0) == [((), 5), ((5, 10), 10), ((), 9), ((9, 13), 8), ((), 5)]


def test_play_likelihood_takes_the_points_a_player_saw() -> None:
    turns = [((5,), 10)]  # they answered a five with a ten: fifteen for two
    # holding a 3 then, they chose the 10 (2 points) over the 3 (none)
    assert play_likelihood(turns, (3,), greed=1.0) == pytest.approx(math.e**2 / (math.e**2 + 1))
    # holding a 5, the pair (2) was as good as the fifteen
    assert play_likelihood(turns, (5,), greed=1.0) == pytest.approx(0.5)
    # with another ten, the choice was between two cards of one rank: no news
    assert play_likelihood(turns, (10,), greed=1.0) == pytest.approx(1.0)
    # a queen would have made fifteen as well: one of two ranks alike
    assert play_likelihood(turns, (12,), greed=1.0) == pytest.approx(0.5)
    assert play_likelihood(turns, (3,), greed=0.0) == 1.0


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 3))
def test_holdings_weighed_by_a_reader_are_a_distribution_over_possible_hands(seed, k) -> None:
    rng = random.Random(seed)
    deck = [r for r in range(1, 14) for _ in range(4)]
    rng.shuffle(deck)
    unseen, laid = deck[:30], tuple(deck[30:30 + 4 - k])
    ratio = keep_ratios(False)
    got = opponent_holdings(unseen, k, laid, 0, rng,
                            weigh=lambda h: ratio[tuple(sorted(laid + h))])
    assert sum(w for _, w in got) == pytest.approx(1.0)
    for holding, w in got:
        assert len(holding) == k and w > 0
        assert not Counter(holding) - Counter(unseen)


def _exact_pegging(mine: tuple[int, ...], dealer: bool) -> float:
    """A kept hand's net pegging over every hand the opponent may keep from the rest of
    the deck, each weighed by the ways the deal gives it and by its keep ratio."""
    left = Counter({r: 4 - mine.count(r) for r in range(1, 14)})
    ratio = keep_ratios(not dealer)
    total = norm = 0.0
    for theirs in combinations_with_replacement(range(1, 14), 4):
        ways = math.prod(math.comb(left[r], m) for r, m in Counter(theirs).items())
        if not ways:
            continue
        w = ways * ratio[theirs]
        total += w * solve((mine, theirs), (), 1 if dealer else 0)
        norm += w
    return total / norm


@pytest.mark.parametrize("mine,dealer", [((4, 5, 6, 7), True), ((5, 5, 10, 10), False)])
def test_pegging_table_entries_estimate_the_exact_average(mine, dealer) -> None:
    built = build_pegging(400, seed=3, kept=[mine])
    exact = _exact_pegging(mine, dealer)
    # 400 hands: the standard error of an entry is under 0.2 points
    assert built["dealer" if dealer else "pone"][mine] == pytest.approx(exact, abs=0.6)
    assert pegtable.kept_pegging(mine, dealer) == pytest.approx(exact, abs=0.6)


def test_pegging_table_ranks_kept_hands_as_players_know_them() -> None:
    # the pone with four fives must lead one into a ten; touching low cards peg well
    assert pegtable.kept_pegging((5, 5, 5, 5), False) < pegtable.kept_pegging((1, 2, 3, 4), False)
    assert pegtable.kept_pegging((4, 5, 6, 7), True) > pegtable.kept_pegging((10, 10, 13, 13), True)
