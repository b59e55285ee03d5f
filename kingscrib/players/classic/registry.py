"""Computer players by name."""

from __future__ import annotations

from kingscrib.players.classic.base import ClassicPlayer
from kingscrib.players.classic.levels import LEVELS, LevelPlayer
from kingscrib.players.classic.simple import BaselinePlayer, RandomPlayer

PLAYER_NAMES = ("random", "baseline", *LEVELS)


def make_player(name: str, seed: int | None = None) -> ClassicPlayer:
    """``random``, ``baseline``, ``easy``, ``medium``, ``hard`` or ``expert``."""
    if name == "random":
        return RandomPlayer(seed)
    if name == "baseline":
        return BaselinePlayer(seed)
    if name in LEVELS:
        return LevelPlayer(name, seed)
    raise ValueError(f"unknown player {name!r}; choose from {', '.join(PLAYER_NAMES)}")
