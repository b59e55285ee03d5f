"""The play: fifteens, 31, pairs, runs in any order, go and the last card."""

from __future__ import annotations

import pytest
from classic_reference import ref_peg
from hypothesis import given, settings
from hypothesis import strategies as st

from kingscrib.classic.pegging import peg_score


@pytest.mark.parametrize(
    "pile, points",
    [
        ([4, 7, 4], 2),  # fifteen
        ([4, 7, 4, 11, 5], 0),  # thirty: nothing (the go is separate)
        ([7, 8], 2),
        ([7, 8, 9], 3),  # run 7-8-9 at 24
        ([4, 4], 2),
        ([4, 4, 4], 6),
        ([4, 4, 4, 3], 2),  # fifteen
        ([4, 4, 4, 3, 2], 3),  # run 4-3-2
        ([4, 4, 4, 3, 2, 5], 4),  # run 5-4-3-2 at 22
        ([4, 4, 4, 3, 2, 5, 9], 2),  # thirty-one
        ([3, 5, 4], 3),  # runs in any order
        ([3, 5, 4, 2], 4),
        ([3, 5, 4, 2, 3], 4),  # only the last cards: 5-4-2-3
        ([3, 5, 4, 2, 3, 4], 3),  # 2-3-4
        ([2, 3, 4, 4], 2),  # a pair, no run
        ([2, 3, 4, 4, 5], 0),  # the pair breaks the run
        ([7, 9, 6, 8], 4),
        ([1, 1, 1, 1], 12),
        ([5, 10], 2),
        ([10, 10, 10, 1], 2),  # 31
    ],
)
def test_pegging_sequences(pile, points):
    assert peg_score(pile).total == points


def test_parts_are_named():
    s = peg_score([4, 4, 4, 3])
    assert s.fifteen == 2 and s.pairs == 0
    assert peg_score([5, 10, 10, 6]).reasons() == ["thirty-one"]
    assert peg_score([1, 2, 3, 4, 5]).reasons() == ["fifteen", "run of 5"]


def test_above_31_is_refused():
    with pytest.raises(ValueError):
        peg_score([10, 10, 10, 5])


def _legal_prefix(ranks: list[int]) -> list[int]:
    """The longest start of ``ranks`` that a real pile could hold (count <= 31, 4 per rank)."""
    pile: list[int] = []
    for r in ranks:
        if sum(min(x, 10) for x in pile) + min(r, 10) > 31 or pile.count(r) == 4:
            break
        pile.append(r)
    return pile


piles = st.lists(st.integers(1, 13), min_size=1, max_size=8).map(_legal_prefix)


@settings(max_examples=300, deadline=None)
@given(piles)
def test_matches_reference(pile):
    assert peg_score(pile).total == ref_peg(pile)
