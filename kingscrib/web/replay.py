"""Replaying a game record sent by the page: the record's game (``"game"``, RULES.md
Part 3) checks it turn by turn and gives back its turns as its page shows them, for
the page to step through. Games that offer it have a ``replay`` method."""

from __future__ import annotations

from typing import Any

from kingscrib.web.errors import WebError
from kingscrib.web.games import DEFAULT_GAME, game_kind, game_names


def replay_of_record(record: Any) -> dict[str, Any]:
    """``{"game", "rules", "seats", "history", "end"}`` of a record; WebError(400) with the
    engine's reason when the record is not a valid game of a kind that replays."""
    if not isinstance(record, dict):
        raise WebError(400, "a game record is a JSON object (RULES.md Part 3)")
    replayable = [name for name in game_names() if hasattr(game_kind(name), "replay")]
    name = record.get("game", DEFAULT_GAME)
    if name not in replayable:
        titles = " and ".join(game_kind(n).title for n in replayable)
        raise WebError(400, f"only {titles} records can be replayed here, not {name!r}")
    return game_kind(name).replay(record)
