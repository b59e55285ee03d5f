"""Replaying a Kings Cribbage game record (``kingscrib-game/1``) sent by the page: the
record is checked turn by turn by the engine, and its turns come back as the game page
shows them (squares, tiles, score and breakdown), for the page to step through."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from kingscrib.kings.record import RecordError, check_record
from kingscrib.web.errors import WebError
from kingscrib.web.play.games.kings_view import end_json, turn_json


def replay_record(record: dict[str, Any]) -> dict[str, Any]:
    """``{"game", "rules", "seats", "history", "end"}`` of a record; WebError(400) with the
    engine's reason when the record is not a valid Kings game."""
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
