"""The rules of a Kings Cribbage play: is it legal, and what does it score.

This is the one file that decides a play. :func:`check_play` either returns
a :class:`PlayScore` with the full breakdown or raises :class:`IllegalPlay`
with the precise reason.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kingscrib.common.people import COLOUR_WORDS, hand_text, placement_text, tile_text
from kingscrib.core import IllegalAction
from kingscrib.counting import rank_char
from kingscrib.kings.board import (
    ACROSS,
    DIRECTIONS,
    DOWN,
    PLAYABLE,
    Square,
    column_of,
    line_through,
    neighbours,
    other,
    row_of,
    square_name,
    step,
)
from kingscrib.kings.hands import MAX_HAND, HandValue, hand_value
from kingscrib.kings.rules import RuleSet
from kingscrib.kings.tiles import RACK_SIZE, Tile, held_counts

BONUS = 10  # first play, five tiles in one turn, a flush


class IllegalPlay(IllegalAction):
    """A play that breaks a rule; the message says which."""


@dataclass(frozen=True, slots=True)
class HandScore:
    """One hand formed or extended by a play."""

    squares: tuple[Square, ...]
    tiles: tuple[Tile, ...]  # faces, in board order
    direction: str
    value: HandValue

    @property
    def flush(self) -> bool:
        """Five tiles all of one colour."""
        return len(self.tiles) == MAX_HAND and len({t.colour for t in self.tiles}) == 1

    @property
    def flush_bonus(self) -> int:
        return BONUS if self.flush else 0

    @property
    def points(self) -> int:
        return self.value.total + self.flush_bonus

    @property
    def text(self) -> str:
        return "".join(rank_char(t.rank) for t in self.tiles)

    def describe(self) -> str:
        c = self.value.count
        parts = []
        if c.fifteens:
            parts.append(f"fifteens {c.fifteen_points}")
        if c.pairs:
            parts.append(f"pairs {c.pair_points}")
        if c.runs:
            parts.append(f"runs {c.run_points}")
        if self.flush:
            parts.append(f"flush {BONUS}")
        return f"{self.text} = {self.points} ({', '.join(parts)})"

    def to_json(self) -> dict[str, Any]:
        c = self.value.count
        return {
            "hand": self.text,
            "squares": [square_name(s) for s in self.squares],
            "direction": self.direction,
            "fifteens": c.fifteen_points,
            "pairs": c.pair_points,
            "runs": c.run_points,
            "flush": self.flush_bonus,
            "total": self.points,
        }


@dataclass(frozen=True, slots=True)
class PlayScore:
    """What a legal play scores, hand by hand, with its bonuses."""

    hands: tuple[HandScore, ...]
    first_play_bonus: int
    five_tile_bonus: int

    @property
    def total(self) -> int:
        return sum(h.points for h in self.hands) + self.first_play_bonus + self.five_tile_bonus

    def describe(self) -> str:
        parts = [h.describe() for h in self.hands]
        if self.five_tile_bonus:
            parts.append(f"five tiles {self.five_tile_bonus}")
        if self.first_play_bonus:
            parts.append(f"first play {self.first_play_bonus}")
        return "; ".join(parts) + f"; total {self.total}"

    def to_json(self) -> dict[str, Any]:
        return {
            "hands": [h.to_json() for h in self.hands],
            "bonuses": {"first_play": self.first_play_bonus, "five_tiles": self.five_tile_bonus},
        }


def play_direction(squares: Sequence[Square]) -> str:
    """The direction the placed squares lie along (``across`` for a single square)."""
    rows = {row_of(s) for s in squares}
    columns = {column_of(s) for s in squares}
    if len(rows) == 1:
        return ACROSS
    if len(columns) == 1:
        return DOWN
    raise IllegalPlay("the tiles of a play must all lie in one row or one column")


def _check_from_rack(tiles: Sequence[Tile], rack: Sequence[Tile]) -> None:
    need = held_counts(tiles)
    have = held_counts(rack)
    for tile, n in sorted(need.items()):
        if have[tile] < n:
            shown = f"{COLOUR_WORDS[tile.colour]} 6/9" if tile.is_six_nine else tile_text(tile)
            held = f"only {have[tile]}" if have[tile] else "none"
            raise IllegalPlay(f"you play {n} x {shown} but your rack has {held}")


def hands_formed(
    board: Mapping[Square, Tile], placed: Mapping[Square, Tile], direction: str
) -> list[tuple[str, list[Square]]]:
    """The lines of 2+ tiles a play forms or extends: along it, then across each tile.

    For a single tile both lines through it are "across" it.
    """
    occupied = {**board, **placed}
    squares = sorted(placed)
    found: list[tuple[str, list[Square]]] = []
    directions = DIRECTIONS if len(squares) == 1 else (direction,)
    for d in directions:
        line = line_through(occupied, squares[0], d)
        if len(line) >= 2:
            found.append((d, line))
    if len(squares) > 1:
        cross = other(direction)
        for s in squares:
            line = line_through(occupied, s, cross)
            if len(line) >= 2:
                found.append((cross, line))
    return found


def check_play(
    board: Mapping[Square, Tile],
    placed: Mapping[Square, Tile],
    rules: RuleSet = RuleSet(),
    rack: Sequence[Tile] | None = None,
) -> PlayScore:
    """Check that putting ``placed`` (square -> face) on ``board`` is legal; score it.

    ``rack`` is the player's rack; when given, the tiles must come from it.
    The first play of the game is the one made on an empty board.
    """
    if not placed:
        raise IllegalPlay("a play places at least one tile")
    if len(placed) > RACK_SIZE:
        raise IllegalPlay(f"a play places at most {RACK_SIZE} tiles, not {len(placed)}")
    for s, tile in placed.items():
        if s not in PLAYABLE:
            raise IllegalPlay(f"square {s} is not on the board")
        if s in board:
            raise IllegalPlay(f"{square_name(s)} is already taken by {tile_text(board[s])}")
        if not isinstance(tile, Tile):
            raise IllegalPlay(f"{tile!r} at {square_name(s)} is not a tile")
    if rack is not None:
        _check_from_rack(list(placed.values()), rack)
    squares = sorted(placed)
    direction = play_direction(squares)
    first = not board
    # Every square between the first and last placed tile must be filled.
    at = squares[0]
    while at != squares[-1]:
        following = step(at, direction)
        if following is None:
            raise IllegalPlay("the tiles of a play must form one unbroken line")
        at = following
        if at not in placed and at not in board:
            raise IllegalPlay(
                f"there is a gap at {square_name(at)}: the line from {square_name(squares[0])}"
                f" to {square_name(squares[-1])} must be unbroken"
            )
    if first:
        if len(placed) < 2:
            raise IllegalPlay("the first play of the game places 2 to 5 tiles forming one hand")
    elif not any(n in board for sq in squares for n in neighbours(sq)):
        raise IllegalPlay("the play must touch a tile already on the board")
    return _score_hands(board, placed, rules, direction)


def score_play(
    board: Mapping[Square, Tile],
    placed: Mapping[Square, Tile],
    rules: RuleSet = RuleSet(),
) -> PlayScore:
    """The score of a play already known to be legal (one the move generator found for
    this board): :func:`check_play`'s breakdown without its checks of squares, rack, line
    and contact. Anything else gives a meaningless score, so check other plays."""
    return _score_hands(board, placed, rules, play_direction(sorted(placed)))


def _score_hands(board: Mapping[Square, Tile], placed: Mapping[Square, Tile],
                 rules: RuleSet, direction: str) -> PlayScore:
    first = not board
    occupied = {**board, **placed}
    hands = []
    for d, line in hands_formed(board, placed, direction):
        tiles = tuple(occupied[q] for q in line)
        where = f"{square_name(line[0])}-{square_name(line[-1])}"
        text = hand_text(t.rank for t in tiles)
        if len(line) > MAX_HAND:
            raise IllegalPlay(
                f"the {d} line {where} ({text}) would have {len(line)} tiles;"
                f" a hand has at most {MAX_HAND}"
            )
        value = hand_value([t.rank for t in tiles])
        if not value.valid:
            bad = [q for q in line if occupied[q].rank in value.unscored]
            names = ", ".join(placement_text(square_name(q), occupied[q]) for q in bad)
            raise IllegalPlay(
                f"the {d} hand {text} ({where}) is invalid: {names} scores nothing"
                " (no fifteen, pair or run)"
            )
        hands.append(HandScore(tuple(line), tiles, d, value))
    five = BONUS if len(placed) == RACK_SIZE else 0
    first_bonus = BONUS if first else 0
    if first and five and rules.reduced_first_bonus:
        five = 0
    return PlayScore(tuple(hands), first_bonus, five)


def board_problem(board: Mapping[Square, Tile]) -> str | None:
    """Why ``board`` cannot come from legal plays, or None: every line of 2 or more tiles
    must be a valid hand of at most 5, the tiles must touch one another, and a board
    is empty or holds at least the 2 tiles of the first play."""
    if len(board) == 1:
        return "a board holds no tile or at least the 2 tiles of the first play"
    for direction in DIRECTIONS:
        for square in sorted(board):
            line = line_through(board, square, direction)
            if line[0] != square or len(line) < 2:
                continue
            text = hand_text(board[q].rank for q in line)
            where = f"{square_name(line[0])}-{square_name(line[-1])}"
            if len(line) > MAX_HAND:
                return (f"the {direction} line {where} ({text}) has {len(line)} tiles;"
                        f" a hand has at most {MAX_HAND}")
            value = hand_value([board[q].rank for q in line])
            if not value.valid:
                return f"the {direction} hand {where} is invalid: {value.reason}"
    if board:
        start = min(board)
        seen, todo = {start}, [start]
        while todo:
            for n in neighbours(todo.pop()):
                if n in board and n not in seen:
                    seen.add(n)
                    todo.append(n)
        if len(seen) != len(board):
            apart = min(set(board) - seen)
            return f"the tile at {square_name(apart)} does not touch the others"
    return None

