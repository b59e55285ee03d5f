"""A finished game's outcome in the two conventions the front ends pay it in, written once
against the engine contract: any game whose ``winners()`` names the winning seats.

Seats are grouped in *sides* that share a result (partners in four-player Cribbage);
``seat_sides[s]`` is seat ``s``'s side, and every seat is its own side when none are
given (Kings Cribbage, Cribbage for two or three).

* :func:`outcome_rewards`, the environments' +1/-1: +1 for a sole winning side, -1 for a
  losing one, and ``k`` tied winning sides share: each gets ``2/k - 1`` (0 for a two-way
  tie);
* :func:`zero_sum_returns`, the OpenSpiel games': with ``m`` sides, each of ``k`` tied
  winning sides gets ``m/(m-1) x (1/k - 1/m)`` and a losing side ``-1/(m-1)``, so the
  sides' returns add up to 0 (+1/-1 with two sides).

>>> from types import SimpleNamespace
>>> game = SimpleNamespace(players=3, is_over=True, winners=lambda: [0])
>>> outcome_rewards(game), zero_sum_returns(game)
([1.0, -1.0, -1.0], [1.0, -0.5, -0.5])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class Outcome(Protocol):
    """What the outcome of a game reads of it: the contract's seats, end and winners
    (:class:`kingscrib.core.contract.GameState` has them all)."""

    @property
    def players(self) -> int: ...

    @property
    def is_over(self) -> bool: ...

    def winners(self) -> list[int]: ...


def seat_sides_of(game: Outcome, seat_sides: Sequence[int] | None = None) -> list[int]:
    """Each seat's side: ``seat_sides`` checked against the seats, or a side a seat."""
    if seat_sides is None:
        return list(range(game.players))
    if len(seat_sides) != game.players:
        raise ValueError(f"{len(seat_sides)} sides given for {game.players} seats")
    return list(seat_sides)


def winning_sides(game: Outcome, seat_sides: Sequence[int] | None = None) -> set[int]:
    """The sides of the winning seats; ValueError while the game is not over."""
    if not game.is_over:
        raise ValueError("the game is not over: it has no outcome yet")
    sides = seat_sides_of(game, seat_sides)
    won = {sides[seat] for seat in game.winners()}
    if not won:
        raise ValueError("a finished game names no winner")
    return won


def outcome_rewards(game: Outcome, seat_sides: Sequence[int] | None = None) -> list[float]:
    """Each seat's +1/-1 reward (tied winning sides share; partners get their side's)."""
    sides = seat_sides_of(game, seat_sides)
    won = winning_sides(game, sides)
    share = 1.0 / len(won)
    return [2.0 * share - 1.0 if side in won else -1.0 for side in sides]


def zero_sum_returns(game: Outcome, seat_sides: Sequence[int] | None = None) -> list[float]:
    """Each seat's zero-sum return over the sides (partners get their side's)."""
    sides = seat_sides_of(game, seat_sides)
    won = winning_sides(game, sides)
    m = len(set(sides))
    if m < 2:
        raise ValueError("a zero-sum outcome needs two sides or more")
    k = len(won)
    return [m / (m - 1) * ((1.0 / k if side in won else 0.0) - 1.0 / m) for side in sides]


__all__ = ["Outcome", "outcome_rewards", "seat_sides_of", "winning_sides",
           "zero_sum_returns"]
