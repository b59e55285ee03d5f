"""A position: the board, one rack, the bag's size and the rules (RULES.md Part 3).

>>> p = Position.from_json({"board": {"G7": "8L", "H7": "7D"},
...                         "rack": ["7L", "6D", "AL", "KD", "4L"]})
>>> best = p.legal_moves()[0]
>>> best.total, p.notation(best.play)
(16, 'D7 across AL 6D 7L')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kingscrib.common import jsontext
from kingscrib.kings.board import Square, parse_square, square_name
from kingscrib.kings.fastgen import legal_plays
from kingscrib.kings.moves import Action, Play, ScoredPlay
from kingscrib.kings.notation import format_play, parse_action
from kingscrib.kings.play import PlayScore, board_problem, check_play
from kingscrib.kings.rules import RuleSet
from kingscrib.kings.tiles import RACK_SIZE, Tile, full_set, held_counts


class PositionError(ValueError):
    """A position that cannot exist; the message says why."""


@dataclass
class Position:
    """What the player to move sees: the board, their rack, the bag size, the rules."""

    board: dict[Square, Tile] = field(default_factory=dict)
    rack: list[Tile] = field(default_factory=list)
    bag: int | None = None
    rules: RuleSet = field(default_factory=RuleSet)

    @classmethod
    def from_json(cls, data: Any) -> Position:
        """Read a position object; raises PositionError with the reason when it is wrong."""
        if isinstance(data, str):
            try:
                data = jsontext.loads(data)
            except jsontext.JSONTextError as e:
                raise PositionError(str(e)) from None
        if not isinstance(data, dict):
            raise PositionError("a position is a JSON object with board and rack")
        unknown = set(data) - {"board", "rack", "bag", "rules"}
        if unknown:
            raise PositionError(f"unknown field {sorted(unknown)[0]!r} in position")
        if "rack" not in data:
            raise PositionError("a position needs a rack (a list of up to 5 tiles)")
        try:
            board_data = data.get("board", {})
            if not isinstance(board_data, dict):
                raise PositionError("board must be an object of squares to tiles")
            board = {parse_square(k): Tile.parse(v) for k, v in board_data.items()}
            if len(board) != len(board_data):
                raise PositionError("a square is named twice on the board")
            rack_data = data.get("rack", [])
            if not isinstance(rack_data, list):
                raise PositionError("rack must be a list of tiles")
            rack = [Tile.parse(t).held() for t in rack_data]
            bag = data.get("bag")
            if bag is not None and (not isinstance(bag, int) or isinstance(bag, bool) or bag < 0):
                raise PositionError("bag must be a whole number of tiles, 0 or more")
            rules = RuleSet.from_json(data.get("rules"))
        except PositionError:
            raise
        except (ValueError, TypeError) as e:
            raise PositionError(str(e)) from None
        position = cls(board, rack, bag, rules)
        position.validate()
        return position

    def validate(self) -> None:
        """Check that the tiles fit in one set, the rack holds at most 5 and the board
        could come from legal plays."""
        problem = board_problem(self.board)
        if problem:
            raise PositionError(f"impossible board: {problem}")
        if len(self.rack) > RACK_SIZE:
            raise PositionError(f"a rack holds at most {RACK_SIZE} tiles, not {len(self.rack)}")
        used = held_counts(list(self.board.values()) + self.rack)
        available = held_counts(full_set())
        for tile, n in used.items():
            if n > available[tile]:
                name = f"6/9 {tile.colour}" if tile.is_six_nine else str(tile)
                raise PositionError(f"there are only {available[tile]} {name} tiles, not {n}")
        if self.bag is not None and self.bag + sum(used.values()) > len(full_set()):
            raise PositionError("more tiles than the 104 of the set")

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "board": {square_name(s): str(t) for s, t in sorted(self.board.items())},
            "rack": [str(t) for t in self.rack],
        }
        if self.bag is not None:
            data["bag"] = self.bag
        data["rules"] = self.rules.to_json()
        return data

    @property
    def first_play(self) -> bool:
        return not self.board

    def legal_moves(self) -> list[ScoredPlay]:
        """Every legal play with its score, each once, best first (the fast generator,
        proven equal to the reference in :mod:`kingscrib.kings.movegen`)."""
        return legal_plays(self.board, self.rack, self.rules)

    def check(self, play: Play) -> PlayScore:
        """Score a play from this rack, or raise IllegalPlay saying why it is illegal."""
        return check_play(self.board, play.placed, self.rules, self.rack)

    def parse(self, text: str) -> Action:
        """Read a move in the human notation against this board and rack."""
        return parse_action(text, self.board, self.rack)

    def notation(self, play: Play) -> str:
        return format_play(play, self.board)
