"""Game ids as the tables hold them: ``kings`` and ``cribbage``.

Rows written before the web said ``cribbage`` (or by an older server still running
beside a newer one) hold ``classic``; migration 0010 rewrites them, and every read
goes through :func:`stored_game` (the core's :func:`~kingscrib.core.parse_game_id`),
every filter through :func:`stored_as`, so such a row still loads.
"""

from __future__ import annotations

from kingscrib.core import ALIASES, is_game_id, parse_game_id


def stored_game(value: str) -> str:
    """The game id of a stored value (``classic`` is ``cribbage``); a game the core does
    not know (one registered on this server only) stays as it is."""
    return parse_game_id(value) if is_game_id(value) else value


def stored_as(game: str) -> list[str]:
    """Every value a row of ``game`` may hold: its id, then its older names."""
    game = stored_game(game)
    return [game, *(alias for alias, target in ALIASES.items() if target == game)]
