"""The three kinds of turn: a play, an exchange, a pass."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kingscrib.kings.board import Square, parse_square, square_name
from kingscrib.kings.play import PlayScore
from kingscrib.kings.tiles import Tile


@dataclass(frozen=True)
class Play:
    """Tiles put on the board, as (square, face) pairs sorted by square.

    Two plays are equal when they put the same faces on the same squares.
    """

    tiles: tuple[tuple[Square, Tile], ...]

    @classmethod
    def of(cls, placed: Mapping[Square, Tile]) -> Play:
        return cls(tuple(sorted(placed.items())))

    @classmethod
    def from_json(cls, data: Any) -> Play:
        """Read ``{"F7": "7L", ...}`` (or a move object holding it under ``tiles``)."""
        if isinstance(data, dict) and "tiles" in data:
            data = data["tiles"]
        if not isinstance(data, dict) or not data:
            raise ValueError('a play is an object of squares to tiles, e.g. {"F7": "7L"}')
        placed: dict[Square, Tile] = {}
        for name, tile in data.items():
            square = parse_square(name)
            if square in placed:
                raise ValueError(f"square {name} is given twice")
            placed[square] = Tile.parse(tile)
        return cls.of(placed)

    @property
    def placed(self) -> dict[Square, Tile]:
        return dict(self.tiles)

    def tiles_json(self) -> dict[str, str]:
        return {square_name(s): str(t) for s, t in self.tiles}

    def __len__(self) -> int:
        return len(self.tiles)


@dataclass(frozen=True)
class Exchange:
    """Tiles (as held) swapped with the bag."""

    tiles: tuple[Tile, ...]

    @classmethod
    def of(cls, tiles: list[Tile] | tuple[Tile, ...]) -> Exchange:
        return cls(tuple(sorted(t.held() for t in tiles)))


@dataclass(frozen=True)
class Pass:
    """Doing nothing this turn."""


Action = Play | Exchange | Pass


@dataclass(frozen=True)
class ScoredPlay:
    """A legal play with what it scores."""

    play: Play
    score: PlayScore

    @property
    def total(self) -> int:
        return self.score.total

    def to_json(self, notation: str | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {"tiles": self.play.tiles_json(), "score": self.total}
        data.update(self.score.to_json())
        if notation is not None:
            data["notation"] = notation
        return data
