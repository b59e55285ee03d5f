"""Tiles: a rank and a colour. ``7D`` is a dark seven, ``TL`` a light ten.

A six turned upside down is a nine, so on a rack or in the bag a six and a nine
are the same tile, written ``6L``/``6D`` (``9L`` is read as the same tile). On
the board a tile shows the face it was placed with.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from kingscrib.counting import RANKS, card_points, parse_rank, rank_char

LIGHT, DARK = "L", "D"
COLOURS = (LIGHT, DARK)
SIX, NINE = 6, 9
COPIES_PER_RANK = 4  # per colour
RACK_SIZE = 5


@dataclass(frozen=True, slots=True, order=True)
class Tile:
    """A tile showing ``rank`` (1-13) in ``colour`` (``L`` or ``D``)."""

    rank: int
    colour: str

    def __post_init__(self) -> None:
        if self.rank not in RANKS:
            raise ValueError(f"rank must be 1-13, not {self.rank!r}")
        if self.colour not in COLOURS:
            raise ValueError(f"colour must be L or D, not {self.colour!r}")

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read ``7L``, ``TD``, ``10L``, ``AD`` (case-insensitive)."""
        t = str(text).strip().upper()
        if len(t) < 2 or t[-1] not in COLOURS:
            raise ValueError(f"{text!r} is not a tile: write a rank then L or D, e.g. 7L or TD")
        rank = parse_rank(t[:-1])
        return _SHARED.get((rank, t[-1])) or cls(rank, t[-1])

    def __str__(self) -> str:
        return _NAMES[self.rank, self.colour]

    @property
    def is_six_nine(self) -> bool:
        return self.rank in (SIX, NINE)

    @property
    def points(self) -> int:
        """Card points of the face shown (A=1, faces 10)."""
        return card_points(self.rank)

    @property
    def penalty(self) -> int:
        """Card points lost for the tile left on a rack at the end (a 6/9 counts 6)."""
        return card_points(self.held().rank)

    def held(self) -> Tile:
        """The tile as held on a rack: a nine is the 6/9 tile, written as a six."""
        return _SHARED[SIX, self.colour] if self.rank == NINE else self

    def faces(self) -> tuple[Tile, ...]:
        """The faces this tile can be placed with: both 6 and 9 for a 6/9 tile."""
        if self.is_six_nine:
            return (_SHARED[SIX, self.colour], _SHARED[NINE, self.colour])
        return (self,)


# One instance of each of the 26 tiles, shared by every bag and rack (tiles are frozen):
# a server holding thousands of games keeps 106 pointers a bag, not 106 objects.
_SHARED = {(rank, colour): Tile(rank, colour) for rank in RANKS for colour in COLOURS}
# Their names, one string each (a game's turns, as JSON, name the tiles placed).
_NAMES = {(rank, colour): rank_char(rank) + colour for rank in RANKS for colour in COLOURS}


def parse_tiles(text: str | Iterable[str]) -> list[Tile]:
    """Read tiles separated by spaces or commas, or an iterable of tile strings."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Tile.parse(item) for item in items]


def full_set(colours: Iterable[str] = COLOURS) -> list[Tile]:
    """Every tile of the given colours, as held: 4 of each rank, the 8 6/9 tiles as sixes."""
    return [
        _SHARED[SIX if rank == NINE else rank, colour]
        for colour in colours
        for rank in RANKS
        for _ in range(COPIES_PER_RANK)
    ]


def held_counts(tiles: Iterable[Tile]) -> Counter[Tile]:
    """Count tiles as held (a placed nine counts as its 6/9 tile)."""
    return Counter(t.held() for t in tiles)
