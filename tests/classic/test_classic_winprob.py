"""The win-probability table: 1 at 121, monotone in both scores, and each cell the mean over
one deal's outcomes of the cells they lead to."""

from __future__ import annotations

import random
from functools import cache

import pytest

from kingscrib.classic.rules import RuleSet
from kingscrib.players.classic import make_player, play_game
from kingscrib.players.classic.winprob import shipped_deals, shipped_table, win_probability
from kingscrib.training.winprob import build_table, deal_scoring

GOAL = 121


def test_a_player_on_121_has_won() -> None:
    table = shipped_table()
    assert all(table[GOAL][y] == 1.0 for y in range(GOAL))
    assert all(table[x][GOAL] == 0.0 for x in range(GOAL))
    for other in (0, 60, 120):
        for i_deal in (True, False):
            assert win_probability(GOAL, other, i_deal) == 1.0
            assert win_probability(other, GOAL, i_deal) == 0.0


def test_monotone_in_each_score() -> None:
    table = shipped_table()
    for x in range(GOAL + 1):
        for y in range(GOAL + 1):
            assert 0.0 <= table[x][y] <= 1.0
            if x < GOAL:
                assert table[x][y] <= table[x + 1][y], (x, y)
            if y < GOAL:
                assert table[x][y] >= table[x][y + 1], (x, y)
    for i_deal in (True, False):
        assert win_probability(50, 40, i_deal) > win_probability(40, 40, i_deal) > \
            win_probability(40, 50, i_deal)


def outcome(deal, x: int, y: int, table) -> float:
    """One deal from the pone on x and the dealer on y, walked point by point."""
    pone, dealer = x, y
    for points in deal:
        if points > 0:
            pone += points
            if pone >= GOAL:
                return 1.0
        else:
            dealer -= points
            if dealer >= GOAL:
                return 0.0
    return 1.0 - table[dealer][pone]  # the deal passes: the dealer is the next pone


def test_each_cell_is_the_mean_over_one_deal_of_the_cells_it_leads_to() -> None:
    table = shipped_table()
    deals = shipped_deals()
    assert len(deals) >= 10_000
    rng = random.Random(3)
    cells = [(rng.randrange(GOAL), rng.randrange(GOAL)) for _ in range(12)]
    cells += [(0, 0), (120, 120), (100, 110), (90, 60)]
    for x, y in cells:
        mean = sum(outcome(d, x, y, table) for d in deals) / len(deals)
        assert table[x][y] == pytest.approx(mean, abs=2e-5), (x, y)


def test_the_dynamic_programme_equals_a_recursion_on_a_small_sample() -> None:
    deals = [[3, -2, 5], [-2, 1, -20], [30, -10], [-1, 8, -4, 2]]
    table = build_table(deals)

    @cache
    def pone_wins(x: int, y: int) -> float:
        total = 0.0
        for deal in deals:
            pone, dealer, done = x, y, None
            for points in deal:
                if points > 0:
                    pone += points
                    if pone >= GOAL:
                        done = 1.0
                        break
                else:
                    dealer -= points
                    if dealer >= GOAL:
                        done = 0.0
                        break
            total += done if done is not None else 1.0 - pone_wins(dealer, pone)
        return total / len(deals)

    for x, y in [(0, 0), (100, 90), (118, 120), (61, 75), (120, 0)]:
        assert table[x][y] == pytest.approx(pone_wins(x, y), abs=1e-12)


def test_deal_scoring_follows_the_record() -> None:
    game = play_game(RuleSet(), seed=4, players=[make_player("baseline", 1),
                                                  make_player("baseline", 2)])
    record = game.record()
    deal = record["deals"][0]
    scoring = deal_scoring(deal)
    dealer = deal["dealer"]
    pone_total = sum(e.get("score", 0) for e in deal["plays"] if e["player"] != dealer) + \
        sum(s["score"] for s in deal["show"] if s["player"] != dealer)
    dealer_total = deal.get("heels", 0) + \
        sum(e.get("score", 0) for e in deal["plays"] if e["player"] == dealer) + \
        sum(s["score"] for s in deal["show"] if s["player"] == dealer)
    assert sum(p for p in scoring if p > 0) == pone_total
    assert -sum(p for p in scoring if p < 0) == dealer_total
    # the pone's hand is counted before the dealer's hand and crib
    assert scoring[-1] < 0 or deal["show"][1]["score"] + deal["show"][2]["score"] == 0
