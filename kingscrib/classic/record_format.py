"""The Cribbage game record's JSON format (RULES.md Part 3): its envelope, and where a
replayed game's record departs from the one it was replayed from.

:meth:`ClassicGame.from_record` replays a record with these checks and
:mod:`kingscrib.classic.record` reads and writes the text. This module knows the format
only, not the game, so neither imports the other.
"""

from __future__ import annotations

from typing import Any

from kingscrib.common.shuffle import is_seed
from kingscrib.core import CRIBBAGE, is_game_id, parse_game_id

FORMAT = "kingscrib-game/1"


class RecordError(ValueError):
    """A game record that is malformed or does not replay."""


def check(data: Any) -> None:
    """Raise :class:`RecordError` unless ``data`` looks like a classic game record."""
    if not isinstance(data, dict):
        raise RecordError("a game record is a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, not {data.get('format')!r}")
    if not is_game_id(data.get("game")) or parse_game_id(data.get("game")) != CRIBBAGE:
        raise RecordError(f"game must be 'cribbage' (or 'classic'), not {data.get('game')!r}")
    for key, kind in (("rules", dict), ("players", list), ("deals", list)):
        if not isinstance(data.get(key), kind):
            raise RecordError(f"{key!r} is missing or not a {kind.__name__}")
    if not is_seed(data.get("seed")):
        raise RecordError("'seed' is missing or not a whole number or a secret of hex digits")


def check_replayed(mine: dict[str, Any], data: dict[str, Any]) -> None:
    """Raise :class:`RecordError` at the first deal, or the end, where the replayed game's
    record ``mine`` differs from the record ``data`` it was replayed from."""
    for i, (got, want) in enumerate(zip(mine["deals"], data["deals"])):
        if got != want:
            for key in sorted(set(got) | set(want)):
                if got.get(key) != want.get(key):
                    raise RecordError(
                        f"deal {i + 1}: {key} is {want.get(key)!r} in the record "
                        f"but the game gives {got.get(key)!r}"
                    )
    if len(mine["deals"]) != len(data["deals"]):
        raise RecordError(
            f"the record has {len(data['deals'])} deals but replays to {len(mine['deals'])}"
        )
    if mine.get("end") != data.get("end"):
        raise RecordError(f"end is {data.get('end')!r} but the game gives {mine.get('end')!r}")
