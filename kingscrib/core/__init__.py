"""What both games share and nothing else: their ids, the engine contract, IllegalAction.

>>> from kingscrib.core import parse_game_id
>>> parse_game_id("classic")
'cribbage'
"""

from kingscrib.core.contract import Engine, GameState
from kingscrib.core.errors import IllegalAction
from kingscrib.core.ids import (
    ALIASES,
    CRIBBAGE,
    DEFAULT_GAME,
    GAME_IDS,
    KINGS,
    RECORD_NAMES,
    GameId,
    UnknownGame,
    is_game_id,
    parse_game_id,
)

__all__ = [
    "ALIASES",
    "CRIBBAGE",
    "DEFAULT_GAME",
    "GAME_IDS",
    "KINGS",
    "RECORD_NAMES",
    "Engine",
    "GameId",
    "GameState",
    "IllegalAction",
    "UnknownGame",
    "is_game_id",
    "parse_game_id",
]
