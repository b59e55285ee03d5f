"""A play being laid out on the board, tile by tile, before it is played.

The full-screen game lets a player move a cursor with the arrow keys, type a rank to
put a rack tile under it, click a rack tile then a square, take tiles back, and see
the score of what is laid so far. This module holds those rules of input; the widgets
only pass keys and clicks on. A finished draft becomes ordinary notation
(:meth:`Draft.notation`), played through the same :meth:`Session.handle` as typed text.

>>> from kingscrib.kings.tiles import Tile
>>> rack = [Tile.parse(t) for t in ("7L", "8D", "KL", "2L", "3D")]
>>> d = Draft()
>>> d.place_rank("7", {}, rack), d.place_rank("8", {}, rack)
(None, None)
>>> d.notation({})
'G7 across 7L 8D'
>>> d.preview({})
'G7 across 7L 8D = 12: 78 = 2 (fifteens 2); +10 first play'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from kingscrib.counting import parse_rank, rank_char
from kingscrib.kings.board import (
    ACROSS,
    CENTRE,
    DOWN,
    SIZE,
    Square,
    column_of,
    is_playable,
    other,
    row_of,
    square_name,
    step,
)
from kingscrib.kings.moves import Play
from kingscrib.kings.notation import format_play
from kingscrib.kings.play import IllegalPlay, check_play
from kingscrib.kings.rules import RuleSet
from kingscrib.kings.tiles import COLOURS, NINE, SIX, Tile, held_counts

RANK_KEYS = "A23456789TJQK"


@dataclass
class Draft:
    """Tiles laid on the board but not yet played, the cursor and the direction."""

    cursor: Square = CENTRE
    direction: str = ACROSS
    placed: dict[Square, Tile] = field(default_factory=dict)  # in the order laid
    selected: int | None = None  # a rack tile picked with the mouse (index in the rack)

    # ----- moving -----------------------------------------------------------------
    def move(self, rows: int, columns: int) -> None:
        """Move the cursor, staying on the board (the corner patch is skipped)."""
        row = min(max(row_of(self.cursor) + rows, 0), SIZE - 1)
        column = min(max(column_of(self.cursor) + columns, 0), SIZE - 1)
        while not is_playable(row, column):  # only the top-left patch: step out of it
            if rows:
                row += 1 if rows < 0 else 0
                column += 0 if rows < 0 else 1
            else:
                column += 1 if columns < 0 else 0
                row += 0 if columns < 0 else 1
        self.cursor = row * SIZE + column

    def turn(self, board: Mapping[Square, Tile]) -> str | None:
        """Across becomes down and down across; None, or why not. With one tile laid the
        cursor moves on from it along the new direction, so that the next tile goes where
        the direction says (it stayed where the old direction had put it)."""
        if len(self.placed) > 1:
            return "the tiles laid fix the direction (Backspace takes the last one back)"
        self.direction = other(self.direction)
        if self.placed:
            self.cursor = self._next_free(next(iter(self.placed)), board)
        return None

    # ----- laying tiles ------------------------------------------------------------------
    def left_on_rack(self, rack: Sequence[Tile]) -> list[Tile]:
        """The rack tiles not yet laid (as held: a laid nine uses the 6/9 tile)."""
        left = held_counts(rack)
        left.subtract(held_counts(self.placed.values()))
        return [t for t in sorted(set(t.held() for t in rack)) for _ in range(left[t])]

    def place_rank(self, key: str, board: Mapping[Square, Tile],
                   rack: Sequence[Tile]) -> str | None:
        """Lay a rack tile of the rank typed under the cursor (a light one when the rack has
        both; ``L``/``D`` then changes it); None, or why not."""
        try:
            rank = parse_rank(key)
        except ValueError:
            return f"{key!r} is not a rank: type A 2-9 T J Q K"
        held = Tile(SIX if rank == NINE else rank, COLOURS[0]).held().rank
        left = [t for t in self.left_on_rack(rack) if t.rank == held]
        if not left:
            return f"there is no {rank_char(rank)} left on your rack"
        choice = next((t for t in left if t.colour == "L"), left[0])
        return self.place(Tile(rank, choice.colour), board, self.cursor)

    def place(self, tile: Tile, board: Mapping[Square, Tile], square: Square) -> str | None:
        """Lay ``tile`` (a face: 6 or 9 for a 6/9 tile) on ``square``; None, or why not."""
        if square in board:
            return f"{square_name(square)} already holds {board[square]}"
        if square in self.placed:
            return f"{square_name(square)} already holds {self.placed[square]} (Backspace" \
                   " takes it back)"
        self.placed[square] = tile
        self.selected = None
        if len(self.placed) == 2:  # two tiles fix the direction
            first, second = list(self.placed)
            self.direction = ACROSS if row_of(first) == row_of(second) else DOWN
        self.cursor = self._next_free(square, board)
        return None

    def recolour(self, colour: str, rack: Sequence[Tile]) -> str | None:
        """Give the tile laid last the other colour (``L`` or ``D``) when the rack has it."""
        if not self.placed:
            return "lay a tile first, then L or D changes its colour"
        square, tile = list(self.placed.items())[-1]
        if tile.colour == colour:
            return None
        wanted = Tile(tile.rank, colour)
        del self.placed[square]
        if wanted.held() not in self.left_on_rack(rack):
            self.placed[square] = tile
            return f"your rack has no {rank_char(tile.rank)}{colour} left"
        self.placed[square] = wanted
        return None

    def flip_six_nine(self) -> str | None:
        """Turn the 6/9 tile laid last: a 6 becomes a 9 and a 9 a 6."""
        if not self.placed:
            return "lay a tile first"
        square, tile = list(self.placed.items())[-1]
        if not tile.is_six_nine:
            return "the last tile laid is not a 6/9 tile"
        self.placed[square] = Tile(NINE if tile.rank == SIX else SIX, tile.colour)
        return None

    def take_back(self) -> None:
        """Take the tile laid last back to the rack; the cursor goes to its square."""
        if self.placed:
            square = list(self.placed)[-1]
            del self.placed[square]
            self.cursor = square

    def clear(self) -> None:
        self.placed.clear()
        self.selected = None

    def _next_free(self, square: Square, board: Mapping[Square, Tile]) -> Square:
        nxt = step(square, self.direction)
        while nxt is not None and (nxt in board or nxt in self.placed):
            nxt = step(nxt, self.direction)
        return nxt if nxt is not None else square

    # ----- what it makes ------------------------------------------------------------------
    def notation(self, board: Mapping[Square, Tile]) -> str | None:
        """The draft in move notation (None when nothing is laid or it is not one line)."""
        if not self.placed:
            return None
        try:
            return format_play(Play.of(self.placed), board)
        except (ValueError, IllegalPlay):
            return None

    def preview(self, board: Mapping[Square, Tile], rules: RuleSet = RuleSet()) -> str:
        """The score of the tiles laid so far with its breakdown (under the Joker rule only
        that it is legal), or why it cannot be played yet."""
        if not self.placed:
            return ""
        text = self.notation(board)
        if text is None:
            return "the tiles laid must lie in one row or one column with no gap"
        try:
            score = check_play(board, self.placed, rules)
        except IllegalPlay as e:
            return f"{text}: {e}"
        if rules.joker:  # the claim is the player's own count, made once
            return f"{text}: a legal play; count it yourself (Joker rule)"
        parts = [h.describe() for h in score.hands]
        if score.five_tile_bonus:
            parts.append(f"+{score.five_tile_bonus} five tiles")
        if score.first_play_bonus:
            parts.append(f"+{score.first_play_bonus} first play")
        return f"{text} = {score.total}: " + "; ".join(parts)


def square_at(column: int, row: int) -> Square | None:
    """The square at 0-based (column, row), or None off the board."""
    return row * SIZE + column if is_playable(row, column) else None


__all__ = ["RANK_KEYS", "Draft", "square_at"]
