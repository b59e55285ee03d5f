"""Every agent the arena can rate, by name or as ``module:Class``.

**The protocol.** An agent is a player of the game's engine: an object with a ``name``
and ``choose(view) -> action``, given only what its seat may see
(:class:`kingscrib.classic.game.PlayerView` and its actions for Cribbage,
:class:`kingscrib.kings.game.PlayerView` for Kings, where it also answers ``claim`` and
``calls_joker``: subclass :class:`kingscrib.players.kings.base.ComputerPlayer` for the
honest defaults). The arena makes it with ``Class(seed=...)``, a new one for every game,
so a seeded agent plays the same game again. An agent that works on an environment's
observation and mask wraps itself in a player; :mod:`kingscrib.arena.baselines` are
examples over the action indexes.

**Names.** The built-in levels (``kingscrib.players.kings.PLAYERS``,
``kingscrib.players.classic.PLAYER_NAMES``), the baselines, the sparring partner and
ISMCTS are registered in :data:`AGENTS`, each game's name mapped to a level name or a
``module:attribute`` that is imported when the agent is first made, in the process that
plays its games. So an agent defined in any package (a trained one, an OpenSpiel search)
is added by one entry here, or by :func:`register`, or named on the command line as
``module:Class`` without being registered at all.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import cast

from kingscrib.players.classic.base import ClassicPlayer
from kingscrib.players.kings.base import KingsPlayer

KINGS, CRIBBAGE = "kings", "cribbage"
GAMES = (KINGS, CRIBBAGE)

LEVEL = "level:"  # a spec naming one of the game's own players

KINGS_AGENTS: dict[str, str] = {
    "uniform": "kingscrib.arena.baselines:KingsUniform",
    "lowest-index": "kingscrib.arena.baselines:KingsLowestIndex",
    "index-32": "kingscrib.arena.baselines:KingsIndex32",
    **{name: LEVEL + name for name in
       ("random", "greedy", "equity", "sim", "easy", "medium", "hard", "expert-v1", "expert")},
}
CRIBBAGE_AGENTS: dict[str, str] = {
    "lowest-index": "kingscrib.arena.baselines:CribbageLowestIndex",
    **{name: LEVEL + name for name in
       ("random", "baseline", "easy", "medium", "hard", "expert-v1", "expert")},
    "sparring": "kingscrib.arena.sparring:MonteCarloPlayer",
    "ismcts": "kingscrib.spiel.agents:CribbageIsmcts",
}

# game -> agent name -> a level name (``level:NAME``) or ``module:attribute``
AGENTS: dict[str, dict[str, str]] = {KINGS: KINGS_AGENTS, CRIBBAGE: CRIBBAGE_AGENTS}

# The agents a plain ``kingscrib arena`` rates: quick enough for a table in minutes.
DEFAULT: dict[str, tuple[str, ...]] = {
    KINGS: ("uniform", "lowest-index", "index-32", "random", "greedy", "easy", "hard"),
    CRIBBAGE: ("random", "lowest-index", "baseline", "easy", "medium", "hard", "expert",
               "sparring", "ismcts"),
}


class UnknownAgent(ValueError):
    """A name that is neither registered nor ``module:Class``; the message lists the names."""


def register(game: str, name: str, spec: str) -> None:
    """Add ``name`` for ``game``: ``spec`` is ``module:attribute`` (a class or a function
    taking ``seed``). Registered in this process only: a Ray cluster's workers see the
    entries of :data:`AGENTS` and ``module:Class`` names, so name such an agent by its
    spec there."""
    _check_game(game)
    if ":" not in spec:
        raise ValueError(f"an agent is 'module:attribute', not {spec!r}")
    AGENTS[game][name] = spec


def spec_of(game: str, name: str) -> str:
    """The spec of a registered name, or ``name`` itself when it is ``module:Class``."""
    _check_game(game)
    if name in AGENTS[game]:
        return AGENTS[game][name]
    if ":" in name and not name.startswith(LEVEL):
        return name
    raise UnknownAgent(f"unknown {game} agent {name!r}; choose from "
                       f"{', '.join(AGENTS[game])}, or give module:Class")


def make_kings_agent(spec: str, seed: int | None) -> KingsPlayer:
    """A new Kings agent from its spec (see :func:`spec_of`), seeded."""
    if spec.startswith(LEVEL):
        from kingscrib.players.kings import make_player

        return make_player(spec[len(LEVEL):], seed)
    return cast(KingsPlayer, _load(spec, seed))


def make_cribbage_agent(spec: str, seed: int | None) -> ClassicPlayer:
    """A new Cribbage agent from its spec (see :func:`spec_of`), seeded."""
    if spec.startswith(LEVEL):
        from kingscrib.players.classic import make_player

        return make_player(spec[len(LEVEL):], seed)
    return cast(ClassicPlayer, _load(spec, seed))


def _load(spec: str, seed: int | None) -> object:
    module, _, attribute = spec.partition(":")
    try:
        factory = getattr(importlib.import_module(module), attribute)
    except (ImportError, AttributeError) as e:
        raise UnknownAgent(f"cannot load the agent {spec!r}: {e}") from None
    agent = cast(Callable[..., object], factory)(seed=seed)
    if not callable(getattr(agent, "choose", None)):
        raise UnknownAgent(f"the agent {spec!r} has no choose(view) method")
    return agent


def _check_game(game: str) -> None:
    if game not in GAMES:
        raise ValueError(f"the game is one of {', '.join(GAMES)}, not {game!r}")


__all__ = ["AGENTS", "CRIBBAGE", "DEFAULT", "GAMES", "KINGS", "UnknownAgent",
           "make_cribbage_agent", "make_kings_agent", "register", "spec_of"]
