"""Faults of the command-line tools found by playing as a new user, each pinned down."""

from __future__ import annotations

import json
from itertools import combinations
from math import comb

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from kingscrib.cli.kings_commands import score
from kingscrib.counting import card_points, count_hand, unscored_positions


def _brute_fifteens(ranks):
    return sum(1 for size in range(2, len(ranks) + 1)
               for idx in combinations(range(len(ranks)), size)
               if sum(card_points(ranks[i]) for i in idx) == 15)


def _brute_unscored(ranks):
    covered = set()
    for size in range(2, len(ranks) + 1):
        for idx in combinations(range(len(ranks)), size):
            if sum(card_points(ranks[i]) for i in idx) == 15:
                covered.update(idx)
    return [i for i, r in enumerate(ranks)
            if i not in covered and ranks.count(r) == 1
            and not (count_hand(ranks).run_length and r in _run_of(ranks))]


def _run_of(ranks):
    from kingscrib.counting import longest_run
    return set(longest_run(ranks))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 13), min_size=1, max_size=9))
def test_fifteens_and_unscored_tiles_match_the_subset_enumeration(ranks):
    assert count_hand(ranks).fifteens == _brute_fifteens(ranks)
    assert unscored_positions(ranks) == _brute_unscored(ranks)


def test_score_of_a_long_line_is_counted_without_listing_subsets():
    # n fives: every three of them make fifteen; every two a pair. 2^38 subsets would
    # never finish; the count by sums answers at once.
    result = CliRunner().invoke(score, ["--json", "5" * 38])
    data = json.loads(result.output)
    assert data["fifteens"] == 2 * comb(38, 3) and data["pairs"] == 2 * comb(38, 2)
    assert data["valid"] is False and "38 tiles" in data["reason"]


def test_score_error_shows_the_line_read_not_its_python_repr():
    result = CliRunner().invoke(score, ["--json", "-"], input="bogus\n")
    data = json.loads(result.output)
    assert data["error"] == "bogus: 'B' is not a rank (use A 2-9 T J Q K)"
    assert "\\n" not in result.output
