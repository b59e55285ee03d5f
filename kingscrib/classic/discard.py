"""Discard analysis: the expected value of each way to lay cards away.

For every choice, the hand kept is scored against each possible starter and
the crib against every way the unseen cards may fill it, exactly (no
sampling). The crib counts for the player when their side deals and against
them otherwise.

>>> from kingscrib.classic.cards import parse_cards
>>> best = analyse_discards(parse_cards("5H 5S 5C JD 6D 9C"), dealer=True)[0]
>>> [str(c) for c in best.discard]
['6D', '9C']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations, combinations_with_replacement
from math import comb

from kingscrib.classic.cards import SUITS, Card
from kingscrib.counting import JACK, count_hand

RANKS = range(1, 14)


_COMB = [[comb(n, k) for k in range(5)] for n in range(5)]


@lru_cache(maxsize=64)
def _fill_weights(counts: tuple[int, ...], k: int) -> list[tuple[tuple[int, ...], int]]:
    """Each multiset of ``k`` ranks (the crib's unseen cards and the starter) and the
    number of (starter, crib cards) deals giving it, from ``counts`` unseen per rank.

    The rank score does not care which of the ``k`` cards is the starter, so a set
    of ``k`` cards stands for ``k`` deals.
    """
    out = []
    for fill, items in _fills(k):
        ways = k
        for r, m in items:
            have = counts[r]
            if have < m:
                ways = 0
                break
            ways *= _COMB[have][m]
        if ways:
            out.append((fill, ways))
    return out


@cache
def _fills(u: int) -> list[tuple[tuple[int, ...], tuple[tuple[int, int], ...]]]:
    """Every multiset of ``u`` ranks, with its (rank, multiplicity) pairs."""
    return [
        (fill, tuple(Counter(fill).items()))
        for fill in combinations_with_replacement(RANKS, u)
    ]


@cache
def rank_points(ranks: tuple[int, ...]) -> int:
    """Fifteens, pairs and runs of sorted ranks (cached)."""
    return count_hand(ranks).total


@dataclass(frozen=True)
class DiscardOption:
    """One way to discard, with its expected values (crib signed for the player)."""

    discard: tuple[Card, ...]
    keep: tuple[Card, ...]
    hand: float  # expected show points of the kept hand over the starters
    crib: float  # expected crib points, + when the player's side owns the crib, - otherwise

    @property
    def total(self) -> float:
        return self.hand + self.crib

    def to_json(self) -> dict[str, object]:
        return {
            "discard": [str(c) for c in self.discard],
            "keep": [str(c) for c in self.keep],
            "hand": round(self.hand, 4),
            "crib": round(self.crib, 4),
            "total": round(self.total, 4),
        }


def unseen_cards(known: Sequence[Card]) -> list[Card]:
    """The cards of the pack not in ``known``."""
    k = set(known)
    return [Card(r, s) for r in RANKS for s in SUITS if Card(r, s) not in k]


def expected_hand(keep: Sequence[Card], unseen: Sequence[Card]) -> float:
    """Mean show score of four kept cards over each unseen card as starter."""
    keep_ranks = [c.rank for c in keep]
    suit = keep[0].suit
    flush = all(c.suit == suit for c in keep)
    jack_suits = {c.suit for c in keep if c.rank == JACK}
    total = 0
    by_rank: dict[int, int] = {}
    for s in unseen:
        pts = by_rank.get(s.rank)
        if pts is None:
            pts = rank_points(tuple(sorted(keep_ranks + [s.rank])))
            by_rank[s.rank] = pts
        if flush:
            pts += 5 if s.suit == suit else 4
        if s.suit in jack_suits:
            pts += 1
        total += pts
    return total / len(unseen)


def expected_crib(known_crib: Sequence[Card], unseen: Sequence[Card]) -> float:
    """Mean crib score when the crib holds ``known_crib`` and is filled from ``unseen``.

    The crib is filled up to four cards with cards drawn from ``unseen``, and
    the starter is another card from ``unseen``; every such deal is equally likely.
    """
    u = 4 - len(known_crib)
    n = len(unseen)
    counts = [0] * 14
    for c in unseen:
        counts[c.rank] += 1
    known_ranks = tuple(c.rank for c in known_crib)
    total_weight = 0
    total_points = 0
    for fill, ways in _fill_weights(tuple(counts), u + 1):
        total_weight += ways
        total_points += ways * rank_points(tuple(sorted(known_ranks + fill)))
    expected = total_points / total_weight
    # nobs: a jack of the starter's suit in the crib
    nobs = 0.0
    known_jacks = {c.suit for c in known_crib if c.rank == JACK}
    unseen_set = set(unseen)
    for st in unseen:
        if st.rank == JACK:
            continue
        if st.suit in known_jacks:
            nobs += 1
        elif Card(JACK, st.suit) in unseen_set:
            nobs += u / (n - 1)
    expected += nobs / n
    # flush: all five cards of one suit
    if known_crib and all(c.suit == known_crib[0].suit for c in known_crib):
        same = sum(1 for c in unseen if c.suit == known_crib[0].suit)
        if same > u:
            expected += 5 * same * comb(same - 1, u) / (n * comb(n - 1, u))
    return expected


def analyse_discards(
    cards: Sequence[Card], dealer: bool, discards: int | None = None
) -> list[DiscardOption]:
    """Every way to discard from ``cards``, best first.

    ``dealer`` says whether the crib belongs to the player's side. ``discards``
    defaults to ``len(cards) - 4`` (two from six, one from five).
    """
    cards = list(cards)
    if len(set(cards)) != len(cards):
        raise ValueError("a card is given twice")
    if discards is None:
        discards = len(cards) - 4
    if len(cards) - discards != 4 or discards not in (1, 2):
        raise ValueError(f"give 6 cards (or 5 with one discard), not {len(cards)}")
    unseen = unseen_cards(cards)
    sign = 1.0 if dealer else -1.0
    crib_cache: dict[tuple[Card, ...], float] = {}
    options = []
    for throw in combinations(sorted(cards), discards):
        keep = tuple(c for c in sorted(cards) if c not in throw)
        hand = expected_hand(keep, unseen)
        crib = crib_cache.get(throw)
        if crib is None:
            crib = expected_crib(throw, unseen)
            crib_cache[throw] = crib
        options.append(DiscardOption(throw, keep, hand, sign * crib))
    options.sort(key=lambda o: -o.total)
    return options
