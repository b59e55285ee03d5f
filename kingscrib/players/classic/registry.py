"""Computer players by name."""

from __future__ import annotations

from kingscrib.players.classic.base import ClassicPlayer
from kingscrib.players.classic.levels import LEVELS, LevelPlayer
from kingscrib.players.classic.simple import BaselinePlayer, RandomPlayer

# "expert" is the win-probability player (kingscrib.players.classic.expert); "expert-v1"
# is the expert before it (LevelPlayer("expert")), kept to measure against.
# Weakest first (the web lists them so, strongest last); expert-v1 just below expert.
PLAYER_NAMES = ("random", "baseline", *LEVELS[:-1], "expert-v1", LEVELS[-1])


def make_player(name: str, seed: int | None = None) -> ClassicPlayer:
    """``random``, ``baseline``, ``easy``, ``medium``, ``hard``, ``expert`` or ``expert-v1``."""
    if name == "random":
        return RandomPlayer(seed)
    if name == "baseline":
        return BaselinePlayer(seed)
    if name == "expert":
        from kingscrib.players.classic.expert import ExpertPlayer

        return ExpertPlayer(seed)
    if name == "expert-v1":
        player = LevelPlayer("expert", seed)
        player.name = "expert-v1"
        return player
    if name in LEVELS:
        return LevelPlayer(name, seed)
    raise ValueError(f"unknown player {name!r}; choose from {', '.join(PLAYER_NAMES)}")
