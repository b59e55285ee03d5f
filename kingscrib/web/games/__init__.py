"""The games the server hosts, each behind the small protocol of :mod:`.protocol`.

Rooms, storage, seat tokens, limits and the websocket know only that protocol;
a game's rules, views and computer seats live in its own module here (and its
own JS module in the page). Adding a game adds a module and a line below.
"""

from __future__ import annotations

from kingscrib.web.games.protocol import GameKind

KINDS = ("kings", "classic")


def game_kind(name: str) -> GameKind:
    """The module-level description of a hosted game (``kings`` or ``classic``)."""
    if name == "classic":
        from kingscrib.web.games.classic import CLASSIC

        return CLASSIC
    if name == "kings":
        from kingscrib.web.games.kings import KINGS

        return KINGS
    from kingscrib.web.errors import WebError

    raise WebError(400, f"unknown game {name!r}; choose from {', '.join(KINDS)}")
