"""Reading and writing classic game records (JSON, RULES.md Part 3).

>>> from kingscrib.classic.game import ClassicGame
>>> g = ClassicGame(seed=3)
>>> replay(loads(dumps(g))).record() == g.record()
True
"""

from __future__ import annotations

import json
from typing import Any

from kingscrib.classic.game import (
    FORMAT,
    ClassicGame,
    IllegalAction,
    seated_actions_from_record,
)
from kingscrib.classic.rules import RuleSet
from kingscrib.common import jsontext
from kingscrib.common.shuffle import is_seed
from kingscrib.core import CRIBBAGE, is_game_id, parse_game_id


class RecordError(ValueError):
    """A game record that is malformed or does not replay."""


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


def replay(data: dict[str, Any]) -> ClassicGame:
    """Rebuild the game a record describes and check every deal, card and count.

    Raises :class:`RecordError` naming the first place where the record and
    the rules disagree.
    """
    check(data)
    try:
        rules = RuleSet.from_dict(data["rules"])
        names = [str(p.get("name", f"player {i + 1}")) for i, p in enumerate(data["players"])]
        game = ClassicGame(rules, seed=data["seed"], names=names)
        # Each action with its seat: a game stopped while laying away (a resignation,
        # a time-out) has a deal whose discards are only partly made.
        actions = seated_actions_from_record(data)
    except (ValueError, KeyError, TypeError, AttributeError, IndexError) as exc:
        raise RecordError(f"bad record: {exc}") from None
    for i, (seat, action) in enumerate(actions):
        try:
            game.apply(action, seat)
        except IllegalAction as exc:
            raise RecordError(f"action {i + 1} ({action}) is illegal: {exc}") from None
    mine = game.record()
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
    return game
