"""The Kings Cribbage action encoding: one Discrete space per turn's legal actions.

Index layout (``ACTIONS`` = 1 + 31 + ``MAX_PLAYS``):

- ``0``: pass.
- ``1..31``: exchange; index ``k`` returns the rack tiles whose positions (in the
  sorted rack of the observation) are the set bits of ``k`` (bit 0 = the first tile).
  Subsets holding the same tiles as a lower index are masked out, so each distinct
  exchange has exactly one index.
- ``32..32 + MAX_PLAYS - 1``: the legal plays in the engine's reference order (highest
  score first, then fewer tiles, then by the (square, face) pairs), at most
  ``MAX_PLAYS`` of them. Openings have up to some 70,000 plays and a few mid-game
  racks more than ``MAX_PLAYS`` (docs/rl.md has the measured sizes). ``kings_v0``
  keeps the first ``MAX_PLAYS``; ``kings_v1`` (``keep_leaves``) keeps the best play of
  every leave (the tiles a play leaves on the rack), then the best placement of every
  tile sequence, then the highest-scoring others (:func:`keep_best`): what the cap
  drops are other placements of tiles it keeps.

The legal set comes from the engine (:func:`kingscrib.kings.fastgen.best_plays`,
:meth:`Game.can_exchange`); nothing here knows a rule beyond that layout.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache

import numpy as np

from kingscrib.env.kings_openings import EveryOpeningPlay, opening_plays
from kingscrib.kings.fastgen import FACE_TILE, RawPlay, best_plays, face_index, to_play
from kingscrib.kings.game import Game
from kingscrib.kings.moves import Action, Exchange, Pass
from kingscrib.kings.notation import format_action
from kingscrib.kings.rules import EXCHANGE_WHEN_STUCK
from kingscrib.kings.tiles import NINE, RACK_SIZE, SIX, Tile

PASS = 0
FIRST_EXCHANGE = 1
EXCHANGES = 2**RACK_SIZE - 1
FIRST_PLAY = FIRST_EXCHANGE + EXCHANGES
MAX_PLAYS = 2048
ACTIONS = FIRST_PLAY + MAX_PLAYS


# The per-play features (``TurnActions.features``), one row per play index, int16:
FEATURES = ("score", "tiles",
            *(f"square_{i}" for i in range(RACK_SIZE)),  # square + 1 (A1 = 1), 0 = none
            *(f"rank_{i}" for i in range(RACK_SIZE)),  # the rank shown (a 6/9 as laid)
            *(f"colour_{i}" for i in range(RACK_SIZE)),  # 1 light, 2 dark
            *(f"leave_rank_{i}" for i in range(RACK_SIZE)),  # the tiles left, as in ``rack``
            *(f"leave_colour_{i}" for i in range(RACK_SIZE)))


def _held(face: int) -> tuple[int, int]:
    """(rank as held, colour index) of a face: a 6/9 tile laid as a 9 is held as a 6."""
    rank, colour = divmod(face, 2)
    return (SIX if rank == NINE else rank), colour


# _held of every face index, looked up rather than computed: keep_best takes the leave
# of thousands of plays a turn.
_HELD_OF_FACE = tuple(_held(f) for f in range(len(FACE_TILE)))


def leave_key(raw: RawPlay) -> tuple[tuple[int, int], ...]:
    """What a play takes from the rack (so, what it leaves), whatever the squares."""
    return tuple(sorted([_HELD_OF_FACE[f] for f in raw[3]]))


def keep_best(raw: list[RawPlay], cap: int) -> list[RawPlay]:
    """At most ``cap`` of the plays (in reference order, best first), in reference order:
    the best play of every leave (what a play keeps on the rack), then the best placement
    of every tile sequence (the same tiles in the same order elsewhere on the board), then
    the highest-scoring others. Each tier is taken best first while room is left."""
    if len(raw) <= cap:
        return raw
    # One pass: the first play of each sequence (faces in square order: along the line),
    # and of each leave among those (a leave's best play is its best sequence's).
    sequence_firsts: list[int] = []
    leave_firsts: list[int] = []
    sequences: set[tuple[int, ...]] = set()
    leaves: set[tuple] = set()
    for i, play in enumerate(raw):
        faces = play[3]
        if faces in sequences:
            continue
        sequences.add(faces)
        sequence_firsts.append(i)
        key = leave_key(play)
        if key not in leaves:
            leaves.add(key)
            leave_firsts.append(i)
    keep = set(leave_firsts[:cap])
    for tier in (sequence_firsts, range(len(raw))):
        for i in tier:
            if len(keep) >= cap:
                break
            keep.add(i)
    return [raw[j] for j in sorted(keep)]


def distinct_exchanges(faces: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """(tiles returned, index) of the lowest index of each distinct exchange of a sorted
    rack, given as its tiles' face indexes (equal tiles, equal faces)."""
    # Which tiles are alike is all that matters: a sorted rack has few such patterns.
    pattern = tuple(faces.index(f) for f in faces)
    return _distinct_exchanges(pattern)


@cache
def _distinct_exchanges(pattern: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    seen: set[tuple[int, ...]] = set()
    out = []
    for index in range(FIRST_EXCHANGE, FIRST_EXCHANGE + 2 ** len(pattern) - 1):
        bits = index - FIRST_EXCHANGE + 1
        key = tuple(f for i, f in enumerate(pattern) if bits >> i & 1)
        if key not in seen:
            seen.add(key)
            out.append((len(key), index))
    return tuple(out)


def exchange_tiles(rack: list[Tile], index: int) -> list[Tile]:
    """The tiles an exchange index returns from the sorted rack."""
    bits = index - FIRST_EXCHANGE + 1
    return [t for i, t in enumerate(rack) if bits >> i & 1]


# Every legal play of a turn: the list, or an opening's tile sequences (see play_source).
PlaySource = list[RawPlay] | EveryOpeningPlay


@dataclass(frozen=True)
class GivenPlays:
    """``every_play`` of a turn whose plays are all built already (a class, not a
    closure, so that an environment holding it pickles)."""

    plays: list[RawPlay]

    def __call__(self) -> list[RawPlay]:
        return self.plays


@dataclass
class TurnActions:
    """The legal actions of one turn: the mask and what each masked index means."""

    rack: list[Tile]  # sorted, as in the observation
    plays: list[RawPlay]  # reference order, at most MAX_PLAYS
    all_plays: int  # how many legal plays there were before the cap
    mask: np.ndarray
    every_play: Callable[[], list[RawPlay]]  # builds every legal play (see uncapped)
    _uncapped: list[RawPlay] | None = None

    @property
    def uncapped(self) -> list[RawPlay]:
        """Every legal play, reference order (built when first asked for: an opening has
        tens of thousands, which only the factored encoding needs)."""
        if self._uncapped is None:
            self._uncapped = self.every_play()
        return self._uncapped

    def play_source(self) -> PlaySource:
        """Every legal play, compactly: an opening's as its tile sequences (the factored
        encoding places them in the board's windows), else the list (:attr:`uncapped`)."""
        if self._uncapped is None and isinstance(self.every_play, EveryOpeningPlay):
            return self.every_play
        return self.uncapped

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

    def features(self) -> np.ndarray:
        """(MAX_PLAYS, len(FEATURES)) int16: row ``k`` describes the play of index
        ``FIRST_PLAY + k`` (zeros past the last play), for policies that score actions."""
        out = np.zeros((MAX_PLAYS, len(FEATURES)), np.int16)
        rack = [(t.rank, face_index(t) % 2) for t in self.rack]
        n = RACK_SIZE
        for k, (_, total, squares, faces) in enumerate(self.plays):
            row = out[k]
            row[0], row[1] = total, len(squares)
            left = list(rack)
            for i, (square, face) in enumerate(zip(squares, faces)):
                rank, colour = divmod(face, 2)
                row[2 + i], row[2 + n + i], row[2 + 2 * n + i] = square + 1, rank, 2 - colour
                left.remove(_held(face))
            for i, (rank, colour) in enumerate(left):
                row[2 + 3 * n + i], row[2 + 4 * n + i] = rank, 2 - colour
        return out


class LegalNotation(Mapping[int, str]):
    """Legal action index -> notation, e.g. ``{0: "pass", 32: "G7 across 7L 8D"}``.

    A read-only mapping that formats an action only when it is looked up, so an
    environment step does not pay for the notation of thousands of opening plays.
    """

    def __init__(self, actions: TurnActions, board: dict) -> None:
        self._actions = actions
        self._board = board
        self._index_list: list[int] | None = None  # listed when first asked for
        self._cache: dict[int, str] = {}

    @property
    def _indexes(self) -> list[int]:
        if self._index_list is None:
            self._index_list = [int(i) for i in np.flatnonzero(self._actions.mask)]
        return self._index_list

    def __getitem__(self, index: int) -> str:
        index = int(index)
        mask = self._actions.mask
        if not 0 <= index < len(mask) or not mask[index]:
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


def turn_actions(game: Game, keep_leaves: bool = False) -> TurnActions:
    """The legal actions of the seat to move, encoded; past ``MAX_PLAYS`` plays, the
    first ones (``kings_v0``) or, with ``keep_leaves``, :func:`keep_best` ones."""
    seat = game.turn
    rack = sorted(game.racks[seat])
    every: Callable[[], list[RawPlay]]
    if game.board:
        raw = best_plays(game.board, rack, game.rules)
        plays = keep_best(raw, MAX_PLAYS) if keep_leaves else raw[:MAX_PLAYS]
        count, every = len(raw), GivenPlays(raw)
    else:  # the same plays, found without building all of an opening's
        plays, count, every = opening_plays(rack, game.rules, MAX_PLAYS,
                                            keep_best if keep_leaves else None)
    mask = np.zeros(ACTIONS, np.int8)
    mask[FIRST_PLAY:FIRST_PLAY + len(plays)] = 1
    # Under the when-stuck rule, passing and exchanging wait until no play is possible.
    stuck_only = game.rules.exchange == EXCHANGE_WHEN_STUCK
    if not (stuck_only and count):
        mask[PASS] = 1
        allowed = [game.can_exchange(n) for n in range(RACK_SIZE + 1)]
        faces = tuple(face_index(t) for t in rack)
        for size, index in distinct_exchanges(faces):
            if allowed[size]:
                mask[index] = 1
    return TurnActions(rack, plays, count, mask, every)


__all__ = ["ACTIONS", "EXCHANGES", "FEATURES", "FIRST_EXCHANGE", "FIRST_PLAY", "MAX_PLAYS",
           "PASS", "LegalNotation", "PlaySource", "TurnActions", "exchange_tiles", "keep_best",
           "leave_key", "turn_actions"]
