"""Tiles, cards, squares and hands as people read them: the one notation of every
message a player reads (refusals, hints, analysis), in the terminal and on the web page.

The engine's own notation (``TD``, ``AL``, ``F7 down 7D (8L) 7L``) stays what records and
typed moves use; ``kingscrib/web/static/js/kings/spoken.js`` writes the same words on the page.

>>> from kingscrib.kings.tiles import Tile
>>> placement_text("E7", Tile.parse("AL")), hand_text([1, 5, 10])
('light ace at E7', 'A 5 10')
>>> cards_in_text("Lay away 6D TC and keep AS")
'Lay away 6♦ 10♣ and keep A♠'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Protocol

RANK_WORDS = {1: "ace", 11: "jack", 12: "queen", 13: "king"}
RANK_SIGNS = {1: "A", 11: "J", 12: "Q", 13: "K"}
COLOUR_WORDS = {"L": "light", "D": "dark"}


SUIT_SIGNS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_CARD_CODE = re.compile(r"\b([A2-9TJQK])([CDHS])\b")


class _Tile(Protocol):
    @property
    def rank(self) -> int: ...

    @property
    def colour(self) -> str: ...


def rank_sign(rank: int) -> str:
    """A rank as a tile or card face shows it: ``A``, ``2`` … ``10``, ``J``, ``Q``, ``K``."""
    return RANK_SIGNS.get(rank, str(rank))


def tile_text(tile: _Tile) -> str:
    """``light ace``, ``dark 10``."""
    return f"{COLOUR_WORDS[tile.colour]} {RANK_WORDS.get(tile.rank, str(tile.rank))}"


def tiles_text(tiles: Iterable[_Tile]) -> str:
    """``light ace, dark 10``."""
    return ", ".join(tile_text(t) for t in tiles)


def placement_text(square: str, tile: _Tile) -> str:
    """A tile on a square: ``light ace at E7``."""
    return f"{tile_text(tile)} at {square}"


def hand_text(ranks: Iterable[int]) -> str:
    """A hand's ranks as the board shows them, apart: ``A 5 10 K``."""
    return " ".join(rank_sign(r) for r in ranks)


def card_text(rank: int, suit: str) -> str:
    """A card as its face shows it: ``10♥``, ``A♠`` (``Card.pretty`` in the classic game)."""
    return f"{rank_sign(rank)}{SUIT_SIGNS[suit]}"


def cards_in_text(text: str) -> str:
    """The engine's card codes in a sentence (``6D``, ``TC``) written as faces (``6♦``,
    ``10♣``): for advice the classic coach writes in the notation players type."""
    return _CARD_CODE.sub(lambda m: ("10" if m[1] == "T" else m[1]) + SUIT_SIGNS[m[2]], text)
