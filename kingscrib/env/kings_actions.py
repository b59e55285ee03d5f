"""The Kings Cribbage action encoding: one Discrete space per turn's legal actions.

Index layout (``ACTIONS`` = 1 + 31 + ``MAX_PLAYS``):

- ``0``: pass.
- ``1..31``: exchange; index ``k`` returns the rack tiles whose positions (in the
  sorted rack of the observation) are the set bits of ``k`` (bit 0 = the first tile).
  Subsets holding the same tiles as a lower index are masked out, so each distinct
  exchange has exactly one index.
- ``32..32 + MAX_PLAYS - 1``: the legal plays in the engine's reference order (highest
  score first, then fewer tiles, then by the (square, face) pairs), the first
  ``MAX_PLAYS`` of them. Only an opening play ever has more (up to about 40,000, all
  the placements of the same few hands); the cap keeps its best ``MAX_PLAYS``.

The legal set comes from the engine (:func:`kingscrib.kings.fastgen.best_plays`,
:meth:`Game.can_exchange`); nothing here knows a rule beyond that layout.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import numpy as np

from kingscrib.kings.fastgen import RawPlay, best_plays, to_play
from kingscrib.kings.game import Game
from kingscrib.kings.moves import Action, Exchange, Pass
from kingscrib.kings.notation import format_action
from kingscrib.kings.rules import EXCHANGE_WHEN_STUCK
from kingscrib.kings.tiles import RACK_SIZE, Tile

PASS = 0
FIRST_EXCHANGE = 1
EXCHANGES = 2**RACK_SIZE - 1
FIRST_PLAY = FIRST_EXCHANGE + EXCHANGES
MAX_PLAYS = 2048
ACTIONS = FIRST_PLAY + MAX_PLAYS


def exchange_tiles(rack: list[Tile], index: int) -> list[Tile]:
    """The tiles an exchange index returns from the sorted rack."""
    bits = index - FIRST_EXCHANGE + 1
    return [t for i, t in enumerate(rack) if bits >> i & 1]


@dataclass
class TurnActions:
    """The legal actions of one turn: the mask and what each masked index means."""

    rack: list[Tile]  # sorted, as in the observation
    plays: list[RawPlay]  # reference order, at most MAX_PLAYS
    all_plays: int  # how many legal plays there were before the cap
    mask: np.ndarray
    uncapped: list[RawPlay]  # every legal play, reference order

    def action(self, index: int) -> Action:
        """The engine action of a legal index."""
        if index == PASS:
            return Pass()
        if index < FIRST_PLAY:
            return Exchange.of(exchange_tiles(self.rack, index))
        raw = self.plays[index - FIRST_PLAY]
        return to_play(raw[2], raw[3])

    def notation(self, game: Game) -> LegalNotation:
        """Every legal index with its action in notation (formatted when looked up)."""
        return LegalNotation(self, dict(game.board))


class LegalNotation(Mapping[int, str]):
    """Legal action index -> notation, e.g. ``{0: "pass", 32: "G7 across 7L 8D"}``.

    A read-only mapping that formats an action only when it is looked up, so an
    environment step does not pay for the notation of thousands of opening plays.
    """

    def __init__(self, actions: TurnActions, board: dict) -> None:
        self._actions = actions
        self._board = board
        self._indexes = [int(i) for i in np.flatnonzero(actions.mask)]
        self._legal = set(self._indexes)
        self._cache: dict[int, str] = {}

    def __getitem__(self, index: int) -> str:
        index = int(index)
        if index not in self._legal:
            raise KeyError(index)
        text = self._cache.get(index)
        if text is None:
            text = self._cache[index] = format_action(self._actions.action(index), self._board)
        return text

    def __iter__(self) -> Iterator[int]:
        return iter(self._indexes)

    def __len__(self) -> int:
        return len(self._indexes)

    def __repr__(self) -> str:
        return f"LegalNotation({len(self)} actions)"


def turn_actions(game: Game) -> TurnActions:
    """The legal actions of the seat to move, encoded."""
    seat = game.turn
    rack = sorted(game.racks[seat])
    raw = best_plays(game.board, rack, game.rules)
    plays = raw[:MAX_PLAYS]
    mask = np.zeros(ACTIONS, np.int8)
    mask[FIRST_PLAY:FIRST_PLAY + len(plays)] = 1
    # Under the when-stuck rule, passing and exchanging wait until no play is possible.
    stuck_only = game.rules.exchange == EXCHANGE_WHEN_STUCK
    if not (stuck_only and raw):
        mask[PASS] = 1
        allowed = [False] + [game.can_exchange(n) for n in range(1, RACK_SIZE + 1)]
        seen: set[tuple[Tile, ...]] = set()
        for index in range(FIRST_EXCHANGE, FIRST_PLAY):
            if index - FIRST_EXCHANGE + 1 >= 2 ** len(rack):
                break  # the remaining indexes name positions beyond a short rack
            tiles = exchange_tiles(rack, index)
            key = tuple(tiles)
            if tiles and allowed[len(tiles)] and key not in seen:
                seen.add(key)
                mask[index] = 1
    return TurnActions(rack, plays, len(raw), mask, raw)


__all__ = ["ACTIONS", "EXCHANGES", "FIRST_EXCHANGE", "FIRST_PLAY", "MAX_PLAYS", "PASS",
           "LegalNotation", "TurnActions", "exchange_tiles", "turn_actions"]
