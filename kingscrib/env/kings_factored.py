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

from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from kingscrib.env.kings_actions import FIRST_PLAY, PlaySource, TurnActions
from kingscrib.env.kings_openings import WINDOWS, EveryOpeningPlay
from kingscrib.kings.board import SIZE, Square, square_name
from kingscrib.kings.fastgen import face_tile
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


def placements(plays: PlaySource) -> Iterator[tuple[tuple[Square, ...], tuple[int, ...]]]:
    """(squares, faces) of every play: an opening's from its tile sequences and the
    windows of the empty board, built one at a time."""
    if isinstance(plays, EveryOpeningPlay):
        for _, _, _, faces in plays.sequences:
            for _, squares in WINDOWS[len(faces)]:
                yield squares, faces
    else:
        for _, _, squares, faces in plays:
            yield squares, faces


@dataclass
class Placing:
    """One turn of the factored encoding: every legal play (uncapped), the tiles placed
    so far, and the plays that still hold them all.

    An opening's plays (up to 76,068) are kept as its tile sequences (a few hundred), each
    placed in every window of the empty board when the mask is made, so that a turn's
    state stays small (an opening's was up to 1.6 MB pickled)."""

    plays: PlaySource
    placed: dict[Square, int] = field(default_factory=dict)
    _mask: tuple[tuple, np.ndarray] | None = None  # (tiles placed, mask) of the last call

    def consistent(self) -> Iterator[tuple[tuple[Square, ...], tuple[int, ...]]]:
        """(squares, faces) of the plays that hold every tile placed so far."""
        if not self.placed:
            yield from placements(self.plays)
            return
        need = self.placed.items()
        n = len(self.placed)
        for squares, faces in placements(self.plays):
            if len(squares) >= n and all(s in squares and faces[squares.index(s)] == f
                                         for s, f in need):
                yield squares, faces

    def mask(self, base: TurnActions) -> np.ndarray:
        """The legal factored actions; ``base`` gives pass and the exchanges."""
        key = tuple(sorted(self.placed.items()))
        if self._mask is not None and self._mask[0] == key:
            return self._mask[1].copy()
        mask = np.zeros(FACTORED_ACTIONS, np.int8)
        if not self.placed:
            mask[:FIRST_PLAY] = base.mask[:FIRST_PLAY]
        for squares, faces in self.consistent():
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
