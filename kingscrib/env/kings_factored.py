"""The factored Kings Cribbage encoding: a play is placed tile by tile, then committed.

Index layout (``FACTORED_ACTIONS`` = 32 + 169 x 26 + 1 = 4427):

- ``0``: pass, ``1..31``: exchange, as in the enumerated encoding (only before a tile
  is placed this turn);
- ``32 + square * 26 + face``: place a tile on ``square`` (``row * 13 + column``,
  A1 = 0) showing ``face`` = ``(rank - 1) * 2 + colour`` (colour 0 dark, 1 light);
- ``COMMIT`` (the last index): end the turn with the tiles placed so far.

The mask is exact: it is computed from every legal play of the turn (no cap). A
placement is legal when at least one legal play holds every tile placed so far and
this one, and commit when the tiles placed so far are a legal play. So every sequence
of masked actions ends in a legal play, and every legal play can be placed, its tiles
in any order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from kingscrib.env.kings_actions import FIRST_PLAY, TurnActions
from kingscrib.kings.board import SIZE, Square, square_name
from kingscrib.kings.fastgen import RawPlay, face_tile
from kingscrib.kings.moves import Play

FACES = 26
FIRST_PLACE = FIRST_PLAY
COMMIT = FIRST_PLACE + SIZE * SIZE * FACES
FACTORED_ACTIONS = COMMIT + 1


def place_index(square: Square, face: int) -> int:
    """The index that places ``face`` (a fastgen face index: rank * 2 + colour) on
    ``square``."""
    return FIRST_PLACE + square * FACES + face - 2


def placement(index: int) -> tuple[Square, int]:
    """(square, fastgen face index) of a placement index."""
    square, face = divmod(index - FIRST_PLACE, FACES)
    return square, face + 2


@dataclass
class Placing:
    """One turn of the factored encoding: every legal play (uncapped), the tiles placed
    so far, and the plays that still hold them all."""

    plays: list[RawPlay]
    placed: dict[Square, int] = field(default_factory=dict)
    _mask: tuple[tuple, np.ndarray] | None = None  # (tiles placed, mask) of the last call

    def consistent(self) -> list[RawPlay]:
        if not self.placed:
            return self.plays
        need = self.placed.items()
        return [p for p in self.plays
                if len(p[2]) >= len(self.placed)
                and all(s in p[2] and p[3][p[2].index(s)] == f for s, f in need)]

    def mask(self, base: TurnActions) -> np.ndarray:
        """The legal factored actions; ``base`` gives pass and the exchanges."""
        key = tuple(sorted(self.placed.items()))
        if self._mask is not None and self._mask[0] == key:
            return self._mask[1].copy()
        mask = np.zeros(FACTORED_ACTIONS, np.int8)
        if not self.placed:
            mask[:FIRST_PLAY] = base.mask[:FIRST_PLAY]
        for squares, faces in ((p[2], p[3]) for p in self.consistent()):
            if len(squares) == len(self.placed):
                mask[COMMIT] = 1
            for s, f in zip(squares, faces):
                if s not in self.placed:
                    mask[place_index(s, f)] = 1
        self._mask = (key, mask)
        return mask.copy()

    def play(self) -> Play:
        return Play(tuple((s, face_tile(f)) for s, f in sorted(self.placed.items())))


def describe(index: int) -> str:
    """A placement in words, e.g. ``place 7L on G7``."""
    square, face = placement(index)
    return f"place {face_tile(face)} on {square_name(square)}"


__all__ = ["COMMIT", "FACES", "FACTORED_ACTIONS", "FIRST_PLACE", "Placing", "describe",
           "place_index", "placement"]
