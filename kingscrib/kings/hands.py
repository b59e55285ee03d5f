"""Crib hands: the score and validity of a line of 2 to 5 tiles.

A hand's value depends only on the multiset of its ranks, so every hand of 2
to 5 ranks (8,554 of them) is looked up in one table built on first use.

>>> hand_value(parse_hand("98799")).total
17
>>> hand_value(parse_hand("666T")).valid
False
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement

from kingscrib.common import shown
from kingscrib.common.people import hand_text, rank_sign
from kingscrib.counting import (
    RANKS,
    HandCount,
    count_hand,
    parse_rank,
    unscored_positions,
)
from kingscrib.kings.board import SIZE

MIN_HAND, MAX_HAND = 2, 5
MAX_LINE = SIZE  # the longest row or column of the board


@dataclass(frozen=True)
class HandValue:
    """The count of a hand and whether every tile in it scores."""

    ranks: tuple[int, ...]  # sorted
    count: HandCount
    unscored: tuple[int, ...]  # ranks that take part in no combination (distinct)

    @property
    def valid(self) -> bool:
        return not self.unscored and MIN_HAND <= len(self.ranks) <= MAX_HAND

    @property
    def total(self) -> int:
        return self.count.total

    @property
    def reason(self) -> str | None:
        """Why the hand is invalid, or None."""
        text = hand_text(self.ranks)
        if len(self.ranks) > MAX_HAND:
            return f"{text} has {len(self.ranks)} tiles; a hand has at most {MAX_HAND}"
        if len(self.ranks) < MIN_HAND:
            return f"{text} has {len(self.ranks)} tile; a hand has at least {MIN_HAND}"
        if self.unscored:
            names = [rank_sign(r) for r in self.unscored]
            listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
            verb = "scores" if len(names) == 1 else "score"
            return f"in {text} the {listed} {verb} nothing (no fifteen, pair or run)"
        return None


def _evaluate(ranks: tuple[int, ...]) -> HandValue:
    unscored = tuple(sorted({ranks[i] for i in unscored_positions(ranks)}))
    return HandValue(ranks, count_hand(ranks), unscored)


@cache
def hand_table() -> dict[tuple[int, ...], HandValue]:
    """Every multiset of 2 to 5 ranks (as a sorted tuple) with its value."""
    return {
        combo: _evaluate(combo)
        for size in range(MIN_HAND, MAX_HAND + 1)
        for combo in combinations_with_replacement(RANKS, size)
    }


def hand_value(ranks: Sequence[int]) -> HandValue:
    """The value of the hand made of ``ranks`` in any order (any length)."""
    key = tuple(sorted(ranks))
    value = hand_table().get(key)
    return value if value is not None else _evaluate(key)


def parse_hand(text: str) -> list[int]:
    """Read a line of tiles written as rank characters, e.g. ``98799`` or ``9 10 J J 5``.

    Case and spaces are ignored and ``10`` may stand for ``T``. A line longer than
    :data:`MAX_LINE` cannot lie on the board, so it is refused before it is read (its
    count would take ever longer to no purpose).

    >>> parse_hand("5" * 14)
    Traceback (most recent call last):
    ValueError: 14 tiles: a row or column of the 13 x 13 board holds at most 13 (a hand at most 5)
    """
    t = "".join(str(text).split()).upper().replace("10", "T")
    if not t:
        raise ValueError("empty hand: write rank characters such as 98799")
    ranks = []
    for ch in t:
        try:
            ranks.append(parse_rank(ch))
        except ValueError:
            raise ValueError(f"{shown.quoted(ch)} is not a rank (use A 2-9 T J Q K)") from None
    if len(ranks) > MAX_LINE:
        raise ValueError(f"{len(ranks)} tiles: a row or column of the {SIZE} x {SIZE} board"
                         f" holds at most {MAX_LINE} (a hand at most {MAX_HAND})")
    return ranks
