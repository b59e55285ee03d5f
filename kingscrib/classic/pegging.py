"""The play (pegging): what laying one card on the current count scores."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kingscrib.counting import card_points

MAX_COUNT = 31
PAIR_POINTS = {2: 2, 3: 6, 4: 12}


@dataclass(frozen=True)
class PegScore:
    """Points for the last card laid: fifteen, thirty-one, pairs and run."""

    fifteen: int = 0
    thirty_one: int = 0
    pairs: int = 0
    run: int = 0

    @property
    def total(self) -> int:
        return self.fifteen + self.thirty_one + self.pairs + self.run

    def reasons(self) -> list[str]:
        """Short words for each part: ``["fifteen", "pair"]``."""
        out: list[str] = []
        if self.fifteen:
            out.append("fifteen")
        if self.thirty_one:
            out.append("thirty-one")
        if self.pairs:
            out.append({2: "pair", 6: "pair royal", 12: "double pair royal"}[self.pairs])
        if self.run:
            out.append(f"run of {self.run}")
        return out


def count_of(ranks: Sequence[int]) -> int:
    """The running count of a sequence of ranks."""
    return sum(card_points(r) for r in ranks)


def can_play(rank: int, count: int) -> bool:
    """Whether a card of this rank may be laid on the count (never above 31)."""
    return count + card_points(rank) <= MAX_COUNT


def peg_score(pile: Sequence[int]) -> PegScore:
    """Score the last rank of ``pile`` (the ranks laid since the count was reset).

    Pairs count the last cards of equal rank; a run is the longest 3 to 7 last
    cards forming consecutive ranks in any order.

    >>> peg_score([4, 4, 4]).pairs
    6
    >>> peg_score([3, 5, 4]).run
    3
    """
    if not pile:
        raise ValueError("no card has been laid")
    total = count_of(pile)
    if total > MAX_COUNT:
        raise ValueError(f"the count {total} is above 31")
    fifteen = 2 if total == 15 else 0
    thirty_one = 2 if total == MAX_COUNT else 0
    last = pile[-1]
    same = 1
    for r in reversed(pile[:-1]):
        if r != last:
            break
        same += 1
    pairs = PAIR_POINTS.get(same, 0)
    run = 0
    for k in range(len(pile), 2, -1):
        tail = pile[-k:]
        if len(set(tail)) == k and max(tail) - min(tail) == k - 1:
            run = k
            break
    return PegScore(fifteen=fifteen, thirty_one=thirty_one, pairs=pairs, run=run)
