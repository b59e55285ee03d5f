"""The OpenSpiel State plumbing both games share, written once against the engine contract.

A state holds the engine's game (``engine``, None until the first chance outcome makes
it) and explicit chance nodes for what the engine would draw at random. Whose move it
is, when the game is over, which seat may act and the returns at the end are read of
the contract's verbs (``to_move``, ``is_over``, ``winners``: the zero-sum returns of
:mod:`kingscrib.core.outcome`). A game's state says only what differs: when a chance
node comes next, its outcomes, the seats' sides and the actions' encoding.
"""

from __future__ import annotations

from typing import Generic, Protocol, TypeVar

import pyspiel

from kingscrib.core.outcome import Outcome, zero_sum_returns


class Played(Outcome, Protocol):
    """What the shared plumbing reads of the engine's game."""

    def to_move(self) -> int | None: ...


StateT = TypeVar("StateT", bound=Played)


class ContractState(pyspiel.State, Generic[StateT]):
    """An OpenSpiel state over a game of the contract."""

    engine: StateT | None

    # ----- what a game's state says ------------------------------------------
    def chance_next(self) -> bool:
        """Whether a chance node comes next (a seat to draw, a card or tile to deal)."""
        raise NotImplementedError

    def seat_actions(self) -> list[int]:
        """The legal action indexes of the seat to move (it is not a chance node)."""
        raise NotImplementedError

    def seat_sides(self) -> list[int]:
        """Each seat's side (partners share a return); a side a seat by default."""
        return list(range(self.num_players()))

    # ----- the plumbing -------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.engine is not None and self.engine.is_over and not self.chance_next()

    def current_player(self) -> int:
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if self.engine is None or self.chance_next():
            return pyspiel.PlayerId.CHANCE
        seat = self.engine.to_move()
        assert seat is not None  # not over: is_terminal above
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        if player < 0 or player != self.current_player():
            return []
        return self.seat_actions()

    def returns(self) -> list[float]:
        """Zero at every move; at the end each side's zero-sum return (a sole winner
        of two sides +1, a loser -1; :func:`kingscrib.core.outcome.zero_sum_returns`)."""
        if not self.is_terminal():
            return [0.0] * self.num_players()
        assert self.engine is not None  # a terminal state has a game
        return zero_sum_returns(self.engine, self.seat_sides())


__all__ = ["ContractState", "Played"]
