"""Slow, obviously-correct reference counters used by the classic tests."""

from __future__ import annotations

from functools import cache
from itertools import combinations

from kingscrib.classic.cards import Card

SUITS = "CDHS"


def value(rank: int) -> int:
    return min(rank, 10)


@cache
def ref_rank_points(ranks: tuple[int, ...]) -> int:
    """Fifteens, pairs and runs of five ranks, by trying every subset."""
    points = 0
    for k in range(2, 6):
        for combo in combinations(ranks, k):
            if sum(value(r) for r in combo) == 15:
                points += 2
    for a, b in combinations(ranks, 2):
        if a == b:
            points += 2
    for k in (5, 4, 3):
        runs = 0
        for combo in combinations(ranks, k):
            ordered = sorted(combo)
            if all(ordered[i + 1] == ordered[i] + 1 for i in range(k - 1)):
                runs += 1
        if runs:
            points += k * runs
            break
    return points


def ref_score(hand: list[Card], starter: Card, crib: bool = False) -> int:
    """Score a show hand: every subset of the five ranks, then flush and nobs."""
    cards = list(hand) + [starter]
    points = ref_rank_points(tuple(sorted(c.rank for c in cards)))
    if len({c.suit for c in hand}) == 1:
        if starter.suit == hand[0].suit:
            points += 5
        elif not crib:
            points += 4
    if any(c.rank == 11 and c.suit == starter.suit for c in hand):
        points += 1
    return points


def ref_peg(ranks: list[int]) -> int:
    """Points for the last card of a pile, found the slow way."""
    total = sum(value(r) for r in ranks)
    points = 2 if total in (15, 31) else 0
    same = 0
    for r in reversed(ranks):
        if r != ranks[-1]:
            break
        same += 1
    points += {1: 0, 2: 2, 3: 6, 4: 12}[same]
    best = 0
    for k in range(3, len(ranks) + 1):
        tail = sorted(ranks[-k:])
        if all(tail[i + 1] == tail[i] + 1 for i in range(k - 1)):
            best = k
    return points + best


def full_deck() -> list[Card]:
    return [Card(r, s) for r in range(1, 14) for s in SUITS]
