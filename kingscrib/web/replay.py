"""Replaying a game record (``kingscrib-game/1``) sent by the page: the record is checked
turn by turn by the engine, and its turns come back as the game page shows them (Kings:
squares, tiles, score and breakdown; classic: :mod:`kingscrib.web.classic_replay`), for
the page to step through."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from kingscrib.kings.record import RecordError, check_record
from kingscrib.web.errors import WebError
from kingscrib.web.games.kings_view import end_json, turn_json


def replay_of_record(record: Any) -> dict[str, Any]:
    """``{"game", "rules", "seats", "history", "end"}`` of a record; WebError(400) with the
    engine's reason when the record is not a valid Kings game."""
    if not isinstance(record, dict):
        raise WebError(400, "a game record is a JSON object (RULES.md Part 3)")
    if record.get("game") == "classic":
        from kingscrib.web.classic_replay import replay_of_record as classic_replay

        return classic_replay(record)
    if record.get("game", "kings") != "kings":
        raise WebError(400, f"a record's game is 'kings' or 'classic', not {record.get('game')!r}")
    try:
        game = check_record(record)  # every turn replayed, every score and the end checked
    except RecordError as e:
        raise WebError(400, f"this record cannot be replayed: {e}") from None
    except (TypeError, ValueError, KeyError) as e:
        raise WebError(400, f"this record cannot be replayed: {e}") from None
    view = SimpleNamespace(game=game, _turns={})
    return {
        "game": "kings",
        "rules": game.rules.to_json(),
        "seats": [{"seat": i, "name": name} for i, name in enumerate(game.names)],
        "history": [turn_json(view, i, hide=False) for i in range(len(game.history))],
        "end": end_json(game),
    }
