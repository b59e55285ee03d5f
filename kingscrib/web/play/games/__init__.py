"""The games the server hosts, each behind the small protocol of :mod:`.protocol`.

Rooms, storage, seat tokens, limits and the websocket know only that protocol;
a game's rules, views and computer seats live in its own modules here (and its
own JS module in the page). Adding a game adds its modules and a line below
(or a call to :func:`register`).
"""

from __future__ import annotations

from importlib import import_module

from kingscrib.core import DEFAULT_GAME as DEFAULT_GAME
from kingscrib.web.play.games.protocol import GameKind

# name -> (module, attribute) of its GameKind, imported when first asked for.
_BUILT_IN = {
    "kings": ("kingscrib.web.play.games.kings", "KINGS"),
    "classic": ("kingscrib.web.play.games.classic", "CLASSIC"),
}
KINDS = tuple(_BUILT_IN)

_registered: dict[str, GameKind] = {}


def register(kind: GameKind) -> None:
    """Host one more game (under ``kind.name``)."""
    _registered[kind.name] = kind


def unregister(name: str) -> None:
    _registered.pop(name, None)


def game_names() -> list[str]:
    return list(_BUILT_IN) + [n for n in _registered if n not in _BUILT_IN]


def game_kind(name: str) -> GameKind:
    """The description of a hosted game, by its name (``kings``, ``classic``)."""
    if name in _registered:
        return _registered[name]
    if isinstance(name, str) and name in _BUILT_IN:
        module, attribute = _BUILT_IN[name]
        kind: GameKind = getattr(import_module(module), attribute)
        return kind
    from kingscrib.web.errors import WebError

    raise WebError(400, f"unknown game {name!r}; choose from {', '.join(game_names())}")
