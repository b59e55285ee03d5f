"""The one exception every engine raises for an action or a move it refuses."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules do not allow now, or text that names no action.

    ``message`` is written for the player (``"G7 is already taken by 8♦"``); the
    game that raised it is unchanged. Each engine's own exceptions (the Kings
    ``IllegalPlay``, ``NotationError``, the games' ``IllegalAction``) subclass it,
    so a front end catches this one class for either game.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
