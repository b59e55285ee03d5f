"""Defence: what a play opens for the next player.

A play that scores well may leave a spot where the next player scores even more. The
equity player estimates, for each of its best few options, the next player's best reply
(highest score, as a greedy opponent would play) over a few racks drawn from the tiles
it cannot see, and takes a share of that from the option's equity. Every option is
measured against the same racks, so what differs between them is what each one opens
or closes. Only unseen tiles are drawn: never the real racks or the bag's order.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from kingscrib.kings.board import Square
from kingscrib.kings.fastgen import best_score, face_tile
from kingscrib.kings.game import PlayerView
from kingscrib.kings.rules import RuleSet
from kingscrib.kings.tiles import RACK_SIZE, Tile

DEFENCE_WEIGHT = 0.5  # share of the expected reply taken off (docs/ai.md: how it was chosen)
DEFENCE_WIDTH = 6  # how many of the best options are looked at
DEFENCE_RACKS = 4  # racks drawn for the next player


def sample_racks(view: PlayerView, rng: random.Random, count: int) -> list[list[Tile]]:
    """``count`` racks the next player might hold, drawn from the unseen tiles."""
    unseen = [t for t, n in sorted(view.unseen.items()) for _ in range(n)]
    size = min(view.rack_sizes[(view.seat + 1) % view.players] or RACK_SIZE, len(unseen))
    return [rng.sample(unseen, size) for _ in range(count)]


def expected_reply(board: Mapping[Square, Tile], placed: Sequence[tuple[Square, int]],
                   racks: Sequence[Sequence[Tile]], rules: RuleSet) -> float:
    """The mean over ``racks`` of the best score on ``board`` once the faces ``placed``
    (square, fastgen face index) are on it; a rack with no play scores 0. Only the best
    score is needed, so no play is built (:func:`~kingscrib.kings.fastgen.best_score`)."""
    after = dict(board)
    for square, face in placed:
        after[square] = face_tile(face)
    total = 0
    for rack in racks:
        total += best_score(after, rack, rules) or 0
    return total / len(racks) if racks else 0.0


__all__ = ["DEFENCE_RACKS", "DEFENCE_WEIGHT", "DEFENCE_WIDTH", "expected_reply", "sample_racks"]
