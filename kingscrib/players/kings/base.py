"""The protocol every Kings Cribbage player follows, computer or human."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Protocol

from kingscrib.kings.game import PlayerView
from kingscrib.kings.moves import Action, ScoredPlay


class KingsPlayer(Protocol):
    """Given what a seat may see, choose an action.

    ``claim`` and ``calls_joker`` matter only under the joker rule.
    """

    name: str

    def choose(self, view: PlayerView) -> Action:
        """The action to take (a Play, an Exchange or a Pass)."""
        ...

    def claim(self, view: PlayerView, play: ScoredPlay) -> int:
        """Points to claim for ``play`` (computer players claim the full value)."""
        ...

    def calls_joker(self, view: PlayerView, missed: int) -> bool:
        """Whether to shout "Joker!" on the last play, which left ``missed`` points."""
        ...


class ComputerPlayer(ABC):
    """Shared defaults of the computer players: honest claims, Joker only when sure."""

    name = "computer"

    @abstractmethod
    def choose(self, view: PlayerView) -> Action:
        """The action to take (a Play, an Exchange or a Pass)."""

    def claim(self, view: PlayerView, play: ScoredPlay) -> int:
        return play.total

    def calls_joker(self, view: PlayerView, missed: int) -> bool:
        # The computer counts the board perfectly, so it calls exactly when points were missed.
        return missed > 0
