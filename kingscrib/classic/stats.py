"""The exact distribution of show scores over all 12,994,800 hands with a starter.

Fifteens, pairs and runs depend only on the five ranks; flush and nobs only on
the suits. So instead of dealing every hand, we go through every multiset of
four hand ranks and every starter rank (23,000 cases) and count in closed form
how many ways of giving them suits make a flush, nobs, both or neither.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from math import comb
from typing import Any

from kingscrib.counting import JACK, count_hand

TOTAL_HANDS = comb(52, 4) * 48  # 12,994,800
MAX_SCORE = 29


@cache
def _rank_points(ranks: tuple[int, ...]) -> int:
    return count_hand(ranks).total


def _suit_bonus_counts(hand: tuple[int, ...], starter: int) -> tuple[dict[int, int], dict[int, int]]:
    """For a starter of one fixed suit: ways to suit the hand, by flush+nobs bonus.

    Returns (hand rules, crib rules) as {bonus: ways}.
    """
    mult = Counter(hand)
    h_s = mult.get(starter, 0)
    others = 1
    for r, m in mult.items():
        if r != starter:
            others *= comb(4, m)
    total = others * comb(3, h_s)
    distinct = len(mult) == 4
    f5 = 1 if distinct and h_s == 0 else 0
    f4 = 3 if distinct else 0
    h_j = mult.get(JACK, 0)
    f5n = 1 if f5 and h_j == 1 else 0
    nobs = 0
    if h_j and starter != JACK:
        rest = 1
        for r, m in mult.items():
            if r not in (JACK, starter):
                rest *= comb(4, m)
        nobs = comb(3, h_j - 1) * rest * comb(3, h_s)
    plain_nobs = nobs - f5n
    hand_rules = {6: f5n, 5: f5 - f5n, 4: f4, 1: plain_nobs}
    hand_rules[0] = total - sum(hand_rules.values())
    crib_rules = {6: f5n, 5: f5 - f5n, 1: plain_nobs}
    crib_rules[0] = total - sum(crib_rules.values())
    return hand_rules, crib_rules


def starter_distribution(starter: int) -> tuple[list[int], list[int]]:
    """Score counts (index = score) over the C(51,4) hands with a given starter card.

    The suit of the starter does not matter; only its rank.
    """
    hand = [0] * (MAX_SCORE + 1)
    crib = [0] * (MAX_SCORE + 1)
    for ranks in combinations_with_replacement(range(1, 14), 4):
        if ranks.count(starter) > 3 or any(ranks.count(r) > 4 for r in set(ranks)):
            continue
        base = _rank_points(tuple(sorted(ranks + (starter,))))
        by_hand, by_crib = _suit_bonus_counts(ranks, starter)
        for bonus, ways in by_hand.items():
            if ways:
                hand[base + bonus] += ways
        for bonus, ways in by_crib.items():
            if ways:
                crib[base + bonus] += ways
    return hand, crib


@dataclass(frozen=True)
class ScoreStats:
    """How many of the 12,994,800 (hand, starter) deals score each total."""

    hand: tuple[int, ...]
    crib: tuple[int, ...]

    @staticmethod
    def _mean(counts: tuple[int, ...]) -> float:
        return sum(i * n for i, n in enumerate(counts)) / sum(counts)

    @property
    def mean_hand(self) -> float:
        return self._mean(self.hand)

    @property
    def mean_crib(self) -> float:
        return self._mean(self.crib)

    def to_json(self) -> dict[str, Any]:
        return {
            "hand": {str(i): n for i, n in enumerate(self.hand)},
            "crib": {str(i): n for i, n in enumerate(self.crib)},
            "total": sum(self.hand),
            "mean": {"hand": round(self.mean_hand, 6), "crib": round(self.mean_crib, 6)},
        }


def score_stats() -> ScoreStats:
    """The full distribution under hand rules and under crib rules.

    >>> s = score_stats()
    >>> s.hand[29], s.hand[28], sum(s.hand)
    (4, 76, 12994800)
    """
    hand = [0] * (MAX_SCORE + 1)
    crib = [0] * (MAX_SCORE + 1)
    for starter in range(1, 14):
        h, c = starter_distribution(starter)
        for i in range(MAX_SCORE + 1):
            hand[i] += 4 * h[i]  # four suits of starter
            crib[i] += 4 * c[i]
    return ScoreStats(tuple(hand), tuple(crib))
