"""The engine contract: the verbs both games answer, so code written once plays either.

Modelled on OpenSpiel's Game/State pair. An *engine* is a game class
(:class:`kingscrib.kings.game.Game`, :class:`kingscrib.classic.game.ClassicGame`);
its instances are :class:`GameState`\\ s::

    state = Engine.start(rules, seed)       # a new game
    while not state.is_over:
        seat = state.to_move()              # whose action apply() takes
        state.apply(choose(state.view(seat), state.legal_actions()))
    state.winners()                         # the winning seats
    Engine.from_record(state.record())      # the same game, replayed

``apply`` raises :class:`~kingscrib.core.errors.IllegalAction` and changes
nothing when the action is not allowed. Each engine's ``record`` module has
``dumps`` (a game or its record to JSON text), ``loads`` (JSON text to a
checked record) and ``replay`` (a record to a game).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Protocol, TypeVar

from kingscrib.common.shuffle import Seed
from kingscrib.core.ids import GameId

ActionT = TypeVar("ActionT")
RulesT_contra = TypeVar("RulesT_contra", contravariant=True)
StateT_co = TypeVar("StateT_co", covariant=True)


class GameState(Protocol[ActionT]):
    """One game in progress, of either engine."""

    game_id: ClassVar[GameId]

    @property
    def players(self) -> int:
        """How many seats play (seats are numbered from 0)."""
        ...

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        ...

    def to_move(self) -> int | None:
        """The seat whose action :meth:`apply` takes when given no seat (None once over)."""
        ...

    def legal_actions(self) -> list[ActionT]:
        """Every action the seat to move may take now (none once over)."""
        ...

    def apply(self, action: ActionT, seat: int | None = None) -> object:
        """Take ``action`` for ``seat`` (default: the seat to move); raise
        :class:`~kingscrib.core.errors.IllegalAction` and change nothing when it
        is not allowed. Returns what happened, in the engine's own terms."""
        ...

    def view(self, seat: int) -> object:
        """All that ``seat`` may know: never another seat's hidden pieces."""
        ...

    def winners(self) -> list[int]:
        """The seats that won (several on a tie or a partnership)."""
        ...

    def record(self) -> dict[str, Any]:
        """The game record so far (RULES.md Part 3)."""
        ...


class Engine(Protocol[RulesT_contra, StateT_co]):
    """A game class: starts games and replays records."""

    def start(self, rules: RulesT_contra | None = None, seed: Seed | None = None,
              names: Sequence[str] | None = None) -> StateT_co:
        """A new game under ``rules`` (the defaults when None), shuffled from ``seed``
        (a fresh one when None), one seat per name (the rules' default seats when None)."""
        ...

    def from_record(self, record: dict[str, Any]) -> StateT_co:
        """The game a record describes, replayed and checked move by move."""
        ...
