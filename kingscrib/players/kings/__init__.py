"""Kings Cribbage players. :func:`make_player` builds one by name.

>>> make_player("greedy").name
'greedy'
"""

from __future__ import annotations

from collections.abc import Callable

from kingscrib.players.kings.base import KingsPlayer
from kingscrib.players.kings.simple import GreedyPlayer, RandomPlayer

# name -> factory(seed); stronger players register here too.
PLAYERS: dict[str, Callable[[int | None], KingsPlayer]] = {
    "random": lambda seed: RandomPlayer(seed),
    "greedy": lambda seed: GreedyPlayer(),
    "equity": lambda seed: _equity(),
}


def _equity() -> KingsPlayer:
    from kingscrib.players.kings.equity import EquityPlayer

    return EquityPlayer()


def make_player(name: str, seed: int | None = None) -> KingsPlayer:
    """A computer player by name (see ``PLAYERS``); raises ValueError for an unknown name."""
    try:
        factory = PLAYERS[name]
    except KeyError:
        raise ValueError(f"unknown player {name!r}; choose from {', '.join(PLAYERS)}") from None
    return factory(seed)
