"""Computer players by name."""

from __future__ import annotations

from kingscrib.players.classic.base import ClassicPlayer
from kingscrib.players.classic.levels import LEVELS, LevelPlayer
from kingscrib.players.classic.simple import BaselinePlayer, RandomPlayer

# "expert" is the win-probability player (kingscrib.players.classic.expert); "expert-v1"
# is the expert before it (LevelPlayer("expert")), kept to measure against.
# Weakest first (the web lists them so, strongest last); expert-v1 just below expert.
PLAYER_NAMES = ("random", "baseline", *LEVELS[:-1], "expert-v1", LEVELS[-1])
# Players of the two-player game only, by name too but not among the levels offered for
# 2-4 seats: "learned" (kingscrib.players.classic.learned), trained by self-play.
TWO_PLAYER_NAMES = ("learned",)


def make_player(name: str, seed: int | None = None) -> ClassicPlayer:
    """``random``, ``baseline``, ``easy``, ``medium``, ``hard``, ``expert``, ``expert-v1``
    or (two players only) ``learned``."""
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
    if name == "learned":
        from kingscrib.players.classic.learned import LearnedPlayer

        return LearnedPlayer(seed)
    if name in LEVELS:
        return LevelPlayer(name, seed)
    choices = ", ".join(PLAYER_NAMES + TWO_PLAYER_NAMES)
    raise ValueError(f"unknown player {name!r}; choose from {choices}")
