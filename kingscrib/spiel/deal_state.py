"""What the deal's views and its resampling read of a ``kingscrib_cribbage`` state.

:class:`kingscrib.spiel.cribbage.CribbageState` answers it; :mod:`kingscrib.spiel.views`
and :mod:`kingscrib.spiel.resample` are written against this protocol, so the state's
module imports them and they never import it back.
"""

from __future__ import annotations

from typing import Protocol, Self

from kingscrib.classic.cards import Card
from kingscrib.classic.game import ClassicGame
from kingscrib.classic.rules import RuleSet


class DealState(Protocol):
    """A Cribbage state for OpenSpiel, as far as the current deal goes."""

    @property
    def rules(self) -> RuleSet: ...

    @property
    def engine(self) -> ClassicGame | None:
        """The game once the first deal is dealt (None while the first hands go out)."""

    @property
    def dealt(self) -> list[int]:
        """The cards dealt so far while dealing, in order."""

    @property
    def pending(self) -> tuple[int, tuple[Card, ...]] | None:
        """A seat's lay-away made while the starter is still to be cut."""

    @property
    def deal_start(self) -> Self | None:
        """The state the current deal began in (None before the first card)."""

    @property
    def deal_start_moves(self) -> int:
        """How many moves of the history came before the current deal."""

    def dealing(self) -> bool: ...

    def cards_to_deal(self) -> int: ...

    def phase(self) -> str: ...

    def current_player(self) -> int: ...

    def hand_and_discards(self, seat: int) -> tuple[list[Card], list[Card]]: ...

    def known_cards(self, seat: int) -> set[int]: ...

    def history(self) -> list[int]: ...

    def is_chance_node(self) -> bool: ...

    def apply_action(self, action: int) -> None: ...

    def clone(self) -> Self: ...
