"""Computer players for classic Cribbage.

>>> from kingscrib.players.classic import make_player, play_game
>>> from kingscrib.classic.rules import RuleSet
>>> game = play_game(RuleSet(), seed=1, players=[make_player("expert"), make_player("baseline")])
>>> max(game.scores)
121
"""

from kingscrib.players.classic.base import ClassicPlayer
from kingscrib.players.classic.driver import play_game
from kingscrib.players.classic.levels import LEVELS, LevelPlayer
from kingscrib.players.classic.registry import PLAYER_NAMES, TWO_PLAYER_NAMES, make_player
from kingscrib.players.classic.simple import BaselinePlayer, RandomPlayer

__all__ = [
    "LEVELS",
    "PLAYER_NAMES",
    "BaselinePlayer",
    "ClassicPlayer",
    "LevelPlayer",
    "RandomPlayer",
    "TWO_PLAYER_NAMES",
    "make_player",
    "play_game",
]
