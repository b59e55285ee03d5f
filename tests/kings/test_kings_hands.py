"""Crib hands: the worked examples of RULES.md and the whole hand table against the
brute-force reference (tests/kings_reference.py)."""

from __future__ import annotations

from itertools import combinations_with_replacement

import pytest
from hypothesis import given
from hypothesis import strategies as st
from kings_reference import ranks_of, ref_hand, ref_hand_parts

from kingscrib.counting import count_hand
from kingscrib.kings.hands import hand_table, hand_value, parse_hand

# RULES.md "Crib hands", worked examples: (hand, points).
WORKED = [
    ("98799", 17), ("K69K", 4), ("JJ5", 6), ("7A7A", 8), ("5QKK", 8), ("7833", 4),
    ("7447", 8), ("87879", 24), ("9TJJ5", 14), ("5555J", 28),
]
INVALID = ["676878", "666T", "677", "4568"]


@pytest.mark.parametrize("text, points", WORKED)
def test_worked_examples(text, points):
    value = hand_value(parse_hand(text))
    assert value.total == points
    assert value.valid
    assert ref_hand(ranks_of(text)) == (points, True)


def test_worked_breakdown_98799():
    # "2 + 6 + 9": one fifteen, three of a kind, three runs of three.
    count = hand_value(parse_hand("98799")).count
    assert (count.fifteen_points, count.pair_points, count.run_points) == (2, 6, 9)
    assert ref_hand_parts(ranks_of("98799")) == (2, 6, 9)


@pytest.mark.parametrize("text", INVALID)
def test_invalid_examples(text):
    value = hand_value(parse_hand(text))
    assert not value.valid
    assert value.reason
    assert ref_hand(ranks_of(text))[1] is False


def test_6677_is_valid():
    assert hand_value(parse_hand("6677")).valid


@pytest.mark.parametrize("text", ["QKA", "KA2"])
def test_ace_is_low_only(text):
    # Q K A and K A 2 are no runs: the hand has no combination at all.
    value = hand_value(parse_hand(text))
    assert value.total == 0 and not value.valid


def test_the_whole_hand_table_matches_brute_force():
    table = hand_table()
    expected_keys = {c for k in range(2, 6) for c in combinations_with_replacement(range(1, 14), k)}
    assert len(expected_keys) == 8554
    assert set(table) == expected_keys
    for ranks, value in table.items():
        assert (value.total, value.valid) == ref_hand(ranks), ranks
        f, p, r = ref_hand_parts(ranks)
        c = value.count
        assert (c.fifteen_points, c.pair_points, c.run_points) == (f, p, r), ranks


@given(st.lists(st.integers(1, 13), min_size=2, max_size=5))
def test_order_does_not_matter(ranks):
    assert hand_value(ranks) == hand_value(sorted(ranks))
    assert count_hand(ranks).total == ref_hand(ranks)[0]


@pytest.mark.parametrize("text, ranks", [
    ("9TJJ5", [9, 10, 11, 11, 5]), ("9 10 j j 5", [9, 10, 11, 11, 5]),
    ("a23", [1, 2, 3]), ("  K 6 9 k ", [13, 6, 9, 13]),
])
def test_parse_hand(text, ranks):
    assert parse_hand(text) == ranks


@pytest.mark.parametrize("text", ["", "   ", "1", "7X", "7-8", "0"])
def test_parse_hand_rejects(text):
    with pytest.raises(ValueError):
        parse_hand(text)


def test_six_tiles_is_never_a_hand():
    assert not hand_value(parse_hand("676878")).valid
    assert "at most 5" in hand_value(parse_hand("676878")).reason
