"""The rule switches of a classic Cribbage game and what follows from them."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

WINNING_SCORE = 121
SKUNK_LINE = 91
DOUBLE_SKUNK_LINE = 61


@dataclass(frozen=True)
class RuleSet:
    """How a game is played.

    ``players`` is 2, 3 or 4 (4 = two partnerships, partners opposite).
    ``skunk``: a win against a side under 91 is a double game, under 61 triple.
    ``muggins``: the owner claims the show points of a hand; what they miss
    goes to the next opponent.
    """

    players: int = 2
    skunk: bool = False
    muggins: bool = False

    def __post_init__(self) -> None:
        if self.players not in (2, 3, 4):
            raise ValueError(f"classic Cribbage is for 2, 3 or 4 players, not {self.players}")

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player."""
        return 6 if self.players == 2 else 5

    @property
    def discards(self) -> int:
        """Cards each player lays away to the crib."""
        return 2 if self.players == 2 else 1

    @property
    def crib_from_deck(self) -> int:
        """Cards dealt straight to the crib (one in the three-player game)."""
        return 1 if self.players == 3 else 0

    @property
    def sides(self) -> int:
        """Number of scores kept: partners share one."""
        return 2 if self.players == 4 else self.players

    def side_of(self, seat: int) -> int:
        """The score a seat pegs on."""
        return seat % self.sides

    def game_points(self, winner_side: int, scores: list[int]) -> int:
        """Match points the win is worth: 1, or 2/3 for a skunk/double skunk when on.

        [resolution] with three players, the win is a skunk only if every loser
        is under the line.
        """
        if not self.skunk:
            return 1
        best_loser = max(s for i, s in enumerate(scores) if i != winner_side)
        if best_loser < DOUBLE_SKUNK_LINE:
            return 3
        if best_loser < SKUNK_LINE:
            return 2
        return 1

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown rule(s): {', '.join(sorted(unknown))}")
        return cls(**data)
