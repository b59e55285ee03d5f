"""Kings Cribbage players. :func:`make_player` builds one by name.

Engines: ``random``, ``greedy`` (highest score now), ``equity`` (score plus the value of
the tiles kept, less a share of the next player's expected best reply), ``sim`` (Monte
Carlo over the unseen tiles, exact endgames). Levels for people: ``easy``, ``medium``,
``hard``, ``expert`` (see :mod:`.levels`), and ``expert-v1``, the previous expert.

>>> make_player("greedy").name
'greedy'
"""

from __future__ import annotations

from collections.abc import Callable

from kingscrib.players.kings.base import KingsPlayer
from kingscrib.players.kings.simple import GreedyPlayer, RandomPlayer

# The "sim" engine: play-outs per candidate (reproducible from the seed), with a clock cap.
SIM_ITERATIONS = 24
SIM_TIME_CAP = 3.0


def _equity(seed: int | None) -> KingsPlayer:
    from kingscrib.players.kings.equity import EquityPlayer

    return EquityPlayer(seed=seed)


def _sim(seed: int | None) -> KingsPlayer:
    from kingscrib.players.kings.sim import SimPlayer

    return SimPlayer(seed, time_budget=SIM_TIME_CAP, max_iterations=SIM_ITERATIONS)


def _level(name: str) -> Callable[[int | None], KingsPlayer]:
    def make(seed: int | None) -> KingsPlayer:
        from kingscrib.players.kings.levels import level

        return level(name, seed)

    return make


# name -> factory(seed); stronger players register here too.
PLAYERS: dict[str, Callable[[int | None], KingsPlayer]] = {
    "random": lambda seed: RandomPlayer(seed),
    "greedy": lambda seed: GreedyPlayer(),
    "equity": _equity,
    "sim": _sim,
    "easy": _level("easy"),
    "medium": _level("medium"),
    "hard": _level("hard"),
    "expert-v1": _level("expert-v1"),  # the expert before the defence-aware one
    "expert": _level("expert"),
}


def make_player(name: str, seed: int | None = None) -> KingsPlayer:
    """A computer player by name (see ``PLAYERS``); raises ValueError for an unknown name."""
    try:
        factory = PLAYERS[name]
    except KeyError:
        raise ValueError(f"unknown player {name!r}; choose from {', '.join(PLAYERS)}") from None
    return factory(seed)
