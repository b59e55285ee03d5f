"""Mirrored pairs and their intervals (kingscrib.arena)."""

from __future__ import annotations

import math

import pytest

from kingscrib.arena import cribbage, kings
from kingscrib.arena.intervals import pair_interval, wilson


def test_wilson_is_the_score_interval_and_stays_in_bounds() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(60, 100)
    # the interval solves |p - 0.6| = z * sqrt(p (1 - p) / n) at both ends
    for end in (low, high):
        assert abs(end - 0.6) == pytest.approx(1.96 * math.sqrt(end * (1 - end) / 100))
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_pair_interval_is_the_normal_one_over_pair_means() -> None:
    assert pair_interval([1.0]) == (0.0, 1.0)
    means = [1.0, 0.5, 0.75, 0.25, 0.5]
    low, high = pair_interval(means)
    sd = math.sqrt(sum((x - 0.6) ** 2 for x in means) / 4)
    assert (low + high) / 2 == pytest.approx(0.6)
    assert high - low == pytest.approx(2 * 1.96 * sd / math.sqrt(5))
    assert pair_interval([1.0, 1.0, 1.0]) == (1.0, 1.0)


def test_a_cribbage_pair_swaps_the_seats() -> None:
    assert cribbage.seating("a", "b", 2, False) == ["a", "b"]
    assert cribbage.seating("a", "b", 2, True) == ["b", "a"]
    assert cribbage.seating("a", "b", 4, True) == ["b", "a", "b", "a"]
    assert cribbage.a_seats(3, True) == [1]
    # the same deals with the seats swapped: with both sides alike, each game is the
    # other seen from the other side
    same = cribbage.play_pair(("baseline", "baseline", 2, 5))
    assert same[0].won != same[1].won and same[0].spread == -same[1].spread


def test_a_cribbage_match_sums_its_pairs() -> None:
    result = cribbage.match("baseline", "random", pairs=2, seed=3)
    games = [g for i in range(2) for g in cribbage.play_pair(("baseline", "random", 2, 3 + i))]
    assert result == cribbage.summarise("baseline", "random", 2, 3, games)
    assert result["games"] == 4 and result["a_wins"] == sum(g.won for g in games)
    low, high = result["ci95"]
    assert [low, high] == [round(x, 4) for x in wilson(result["a_wins"], 4)]


def test_a_kings_pair_is_one_seed_with_the_seats_swapped() -> None:
    first, second = kings.pair_jobs("greedy", "random", 7)
    assert first[2] == second[2] == 7
    assert (first[4], second[4]) == ((0,), (1,))
    results = [kings.play_one(job) for job in (first, second)]
    summary = kings.summarise("greedy", "random", results, 7)
    assert summary["games"] == 2 and summary["pairs"] == 1
    points = sum(r.points_for_a for r in results)
    assert summary["ci95"] == [round(x, 4) for x in wilson(points, 2)]


def test_a_kings_match_won_every_game_has_a_wilson_interval_not_a_point() -> None:
    won = kings.GameResult(1, (0,), (120, 80), 0, 30)
    assert won.points_for_a == 1.0
    summary = kings.summarise("a", "b", [won] * 4, 1)
    assert summary["a_win_rate"] == 1.0
    assert summary["ci95"] == [0.5101, 1.0]  # Wilson: 4/4 gives [0.510, 1]
