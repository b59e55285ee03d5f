"""Playing cards: a rank 1-13 and a suit, written ``5H``, ``TD``/``10D``, ``JS`` (or with
the suit's symbol, ``5♥``, as the game shows cards)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from kingscrib.common import shown
from kingscrib.common.people import SUIT_SIGNS as SUIT_SYMBOLS
from kingscrib.common.people import card_text
from kingscrib.counting import RANK_CHARS, card_points, parse_rank, rank_char

SUITS = "CDHS"
RED_SUITS = frozenset("DH")
# each suit's symbol, black and white, and the emoji form (symbol + U+FE0F) read as its letter
SUIT_OF_SYMBOL = {**{v: k for k, v in SUIT_SYMBOLS.items()},
                  "♧": "C", "♢": "D", "♡": "H", "♤": "S"}


class Card(NamedTuple):
    """One card of the 52-card pack. Orders by rank, then suit."""

    rank: int  # 1 (ace) .. 13 (king)
    suit: str  # one of C D H S

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``5H``, ``TD``, ``10D``, ``jS`` (case ignored) or ``5♥``.

        >>> Card.parse("10h"), Card.parse("J♦")
        (Card(rank=10, suit='H'), Card(rank=11, suit='D'))
        """
        if not isinstance(text, str):
            raise ValueError(f"{text!r} is not a card (write rank then suit, e.g. 5H, TD, 10D)")
        t = text.strip().upper().replace("\ufe0f", "")  # 5♥️: the emoji form of 5♥
        if len(t) < 2:
            raise ValueError(f"{shown.quoted(text)} is not a card"
                             " (write rank then suit, e.g. 5H, TD, 10D or 5♥)")
        suit = SUIT_OF_SYMBOL.get(t[-1], t[-1])
        if suit not in SUITS:
            raise ValueError(f"{shown.quoted(text)} is not a card: the suit {shown.quoted(t[-1])}"
                             " is not one of C D H S (or ♣ ♦ ♥ ♠)")
        try:
            rank = parse_rank(t[:-1])
        except ValueError:
            raise ValueError(f"{shown.quoted(text)} is not a card: the rank"
                             f" {shown.quoted(t[:-1])} is not one of A 2-9 T/10 J Q K") from None
        return cls(rank, suit)

    @property
    def points(self) -> int:
        """Value when counting to 15 or 31 (A=1, faces 10)."""
        return card_points(self.rank)

    @property
    def number(self) -> int:
        """A number 0..51 for this card, by rank then suit (the environments' card index;
        not called ``index``, which is the tuple's own method)."""
        return (self.rank - 1) * 4 + SUITS.index(self.suit)

    @property
    def is_red(self) -> bool:
        return self.suit in RED_SUITS

    def pretty(self) -> str:
        """``5♥``, ``10♠``, ``J♦``: the people's notation (:mod:`kingscrib.common.people`)."""
        return card_text(self.rank, self.suit)

    def __str__(self) -> str:
        return rank_char(self.rank) + self.suit


def deck() -> list[Card]:
    """The 52 cards in a fixed order (ace of clubs first)."""
    return [Card(r, s) for r in range(1, 14) for s in SUITS]


def parse_cards(texts: Iterable[str] | str) -> list[Card]:
    """Read cards separated by spaces or commas; refuses duplicates.

    >>> [str(c) for c in parse_cards("5H 10s,jd")]
    ['5H', 'TS', 'JD']
    """
    if isinstance(texts, str):
        texts = texts.replace(",", " ").split()
    cards = [Card.parse(t) for t in texts]
    seen: set[Card] = set()
    for c in cards:
        if c in seen:
            raise ValueError(f"card {c} is given twice")
        seen.add(c)
    return cards


def card_list(cards: Iterable[Card]) -> list[str]:
    """Cards as strings, for JSON."""
    return [str(c) for c in cards]


__all__ = ["RANK_CHARS", "SUITS", "SUIT_SYMBOLS", "Card", "card_list", "deck", "parse_cards"]
