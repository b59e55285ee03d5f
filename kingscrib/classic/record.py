"""Reading and writing classic game records (JSON, RULES.md Part 3).

>>> from kingscrib.classic.game import ClassicGame
>>> g = ClassicGame(seed=3)
>>> replay(loads(dumps(g))).record() == g.record()
True
"""

from __future__ import annotations

import json
from typing import Any

from kingscrib.classic.game import ClassicGame
from kingscrib.classic.record_format import FORMAT, RecordError, check
from kingscrib.common import jsontext


def dumps(game: ClassicGame | dict[str, Any], indent: int | None = None) -> str:
    """A game's record, or a record, as JSON text."""
    record = game.record() if isinstance(game, ClassicGame) else game
    return json.dumps(record, indent=indent)


def loads(text: str) -> dict[str, Any]:
    """Parse a record and check its envelope (format, game, rules, seed, players)."""
    try:
        data = jsontext.loads(text)
    except jsontext.JSONTextError as exc:
        raise RecordError(str(exc)) from None
    if not isinstance(data, dict):
        raise RecordError("a game record is a JSON object")
    check(data)
    return data


def replay(data: dict[str, Any]) -> ClassicGame:
    """Rebuild the game a record describes and check every deal, card and count
    (:meth:`ClassicGame.from_record`).

    Raises :class:`RecordError` naming the first place where the record and
    the rules disagree.
    """
    return ClassicGame.from_record(data)


__all__ = ["FORMAT", "RecordError", "check", "dumps", "loads", "replay"]
