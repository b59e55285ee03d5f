"""The games the server hosts, each behind the small protocol of :mod:`.protocol`.

Rooms, storage, seat tokens, limits and the websocket know only that protocol;
a game's rules, views and computer seats live in its own modules here (and its
own JS module in the page). Adding a game adds its modules and a line below
(or a call to :func:`register`).
"""

from __future__ import annotations

from importlib import import_module

from kingscrib.core import ALIASES
from kingscrib.core import DEFAULT_GAME as DEFAULT_GAME
from kingscrib.web.play.games.protocol import GameKind

# name -> (module, attribute) of its GameKind, imported when first asked for.
_BUILT_IN = {
    "kings": ("kingscrib.web.play.games.kings", "KINGS"),
    "cribbage": ("kingscrib.web.play.games.cribbage", "CRIBBAGE"),
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


def hosted_name(text: object) -> str | None:
    """The name of the hosted game ``text`` names, or None. A built-in game is read as
    the core reads game ids (any case, spaces around ignored, ``classic`` for
    ``cribbage``: :func:`kingscrib.core.parse_game_id`); a registered one by its name."""
    if not isinstance(text, str):
        return None
    if text in _registered:
        return text
    folded = text.strip().casefold()
    name = ALIASES.get(folded, folded)
    return name if name in _BUILT_IN or name in _registered else None


def game_name(text: object) -> str:
    """The hosted game's name for ``text`` as a request or a stored row says it
    (``classic`` is ``cribbage``); WebError(400) naming the games when there is none."""
    name = hosted_name(text)
    if name is None:
        from kingscrib.web.errors import WebError

        raise WebError(400, f"unknown game {text!r}; choose from {', '.join(game_names())}"
                            f" ({', '.join(f'{a} is read as {g}' for a, g in ALIASES.items())})")
    return name


def game_kind(name: str) -> GameKind:
    """The description of a hosted game, by its name (``kings``, ``cribbage``; an alias
    such as ``classic`` is read as its game)."""
    name = game_name(name)
    if name in _registered:
        return _registered[name]
    module, attribute = _BUILT_IN[name]
    kind: GameKind = getattr(import_module(module), attribute)
    return kind
