"""Slow, obviously-correct reference counters used by the classic tests."""

from __future__ import annotations

from itertools import combinations

from kingscrib.classic.cards import Card

SUITS = "CDHS"


def value(rank: int) -> int:
    return min(rank, 10)


def ref_score(hand: list[Card], starter: Card, crib: bool = False) -> int:
    """Score a show hand by trying every subset of the five cards."""
    cards = list(hand) + [starter]
    points = 0
    for k in range(2, 6):
        for combo in combinations(cards, k):
            if sum(value(c.rank) for c in combo) == 15:
                points += 2
    for a, b in combinations(cards, 2):
        if a.rank == b.rank:
            points += 2
    for k in (5, 4, 3):
        runs = 0
        for combo in combinations(cards, k):
            ranks = sorted(c.rank for c in combo)
            if all(ranks[i + 1] == ranks[i] + 1 for i in range(k - 1)):
                runs += 1
        if runs:
            points += k * runs
            break
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
