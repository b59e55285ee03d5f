"""Cribbage combinatorics shared by both games: fifteens, pairs and runs.

Ranks are integers 1 (ace) to 13 (king). Nothing here knows about tiles,
cards, suits or boards; flush and nobs belong to the classic game.

>>> count_hand([9, 8, 7, 9, 9]).total
17
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

ACE, JACK, QUEEN, KING = 1, 11, 12, 13
RANKS = range(1, 14)
RANK_CHARS = "A23456789TJQK"


def card_points(rank: int) -> int:
    """The value of a rank when adding up to fifteen (or 31): A=1, faces=10."""
    return rank if rank < 10 else 10


def rank_char(rank: int) -> str:
    """The one-character name of a rank: ``A 2 ... 9 T J Q K``."""
    return RANK_CHARS[rank - 1]


def parse_rank(text: str) -> int:
    """Read one rank written as ``A``, ``2``-``9``, ``T`` or ``10``, ``J``, ``Q``, ``K``."""
    t = text.strip().upper()
    if t == "10":
        return 10
    if len(t) == 1 and t in RANK_CHARS:
        return RANK_CHARS.index(t) + 1
    raise ValueError(f"{text!r} is not a rank (use A 2-9 T/10 J Q K)")


def fifteen_subsets(ranks: Sequence[int]) -> list[tuple[int, ...]]:
    """Every distinct set of positions whose card points add up to 15."""
    points = [card_points(r) for r in ranks]
    found: list[tuple[int, ...]] = []
    for size in range(2, len(ranks) + 1):
        for idx in combinations(range(len(ranks)), size):
            if sum(points[i] for i in idx) == 15:
                found.append(idx)
    return found


def count_fifteens(ranks: Sequence[int]) -> int:
    """How many distinct sets of positions add up to 15, in time linear in the hand's length
    (a count of subsets by their sum, not a list of them)."""
    ways = [1] + [0] * 15  # ways[s]: subsets so far whose points add up to s
    for r in ranks:
        p = card_points(r)
        for s in range(15, p - 1, -1):
            ways[s] += ways[s - p]
    return ways[15]


def _in_some_fifteen(ranks: Sequence[int]) -> list[bool]:
    """For each position, whether some set of positions holding it adds up to 15."""
    points = [card_points(r) for r in ranks]
    out = []
    for i, p in enumerate(points):
        reach = 1  # bit s: the other positions can make s
        for j, q in enumerate(points):
            if j != i:
                reach |= (reach << q) & 0xFFFF
        out.append(bool(reach >> (15 - p) & 1))
    return out


def count_pairs(ranks: Iterable[int]) -> int:
    """How many pairs of equal rank there are (three of a kind holds 3 pairs)."""
    return sum(n * (n - 1) // 2 for n in Counter(ranks).values())


def longest_run(ranks: Iterable[int]) -> tuple[int, ...]:
    """The ranks of the longest run of 3 or more consecutive distinct ranks, or ``()``.

    Ace is low only. With at most 5 cards there is never more than one run of
    three or more, so "the longest" is unambiguous.
    """
    present = sorted(set(ranks))
    best: tuple[int, ...] = ()
    start = 0
    for i in range(1, len(present) + 1):
        if i == len(present) or present[i] != present[i - 1] + 1:
            if i - start >= 3 and i - start > len(best):
                best = tuple(present[start:i])
            start = i
    return best


@dataclass(frozen=True)
class HandCount:
    """How a set of ranks scores: counts of each kind of combination and their points."""

    fifteens: int  # number of distinct fifteens
    pairs: int  # number of pairs
    run_length: int  # length of the run, 0 when there is none
    runs: int  # number of distinct runs of that length (double runs etc.)

    @property
    def fifteen_points(self) -> int:
        return 2 * self.fifteens

    @property
    def pair_points(self) -> int:
        return 2 * self.pairs

    @property
    def run_points(self) -> int:
        return self.run_length * self.runs

    @property
    def total(self) -> int:
        return self.fifteen_points + self.pair_points + self.run_points


def count_hand(ranks: Sequence[int]) -> HandCount:
    """Count fifteens, pairs and runs of a hand (no flush, no nobs)."""
    run = longest_run(ranks)
    multiplicity = Counter(ranks)
    ways = 1
    for r in run:
        ways *= multiplicity[r]
    return HandCount(
        fifteens=count_fifteens(ranks),
        pairs=count_pairs(ranks),
        run_length=len(run),
        runs=ways if run else 0,
    )


def unscored_positions(ranks: Sequence[int]) -> list[int]:
    """Positions of ranks that belong to no fifteen, no pair and not to the run."""
    covered = {i for i, hit in enumerate(_in_some_fifteen(ranks)) if hit}
    multiplicity = Counter(ranks)
    run = set(longest_run(ranks))
    for i, r in enumerate(ranks):
        if multiplicity[r] > 1 or r in run:
            covered.add(i)
    return [i for i in range(len(ranks)) if i not in covered]
