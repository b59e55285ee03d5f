"""The Kings game record's JSON format (RULES.md Part 3): its header and turns, parsed.

The game writes and replays its own record from these pieces (:meth:`Game.to_record`,
:meth:`Game.from_record`); :mod:`kingscrib.kings.record` checks any record against the
rules. This module knows the format only, not the game, so neither imports the other.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeGuard

from kingscrib.core import KINGS, RECORD_NAMES
from kingscrib.kings.moves import Action, Exchange, Pass, Play
from kingscrib.kings.rules import RuleSet
from kingscrib.kings.tiles import Tile, held_counts

FORMAT = "kingscrib-game/1"


class RecordError(ValueError):
    """A record that is corrupt or breaks a rule; ``turn`` is its index (None: the header)."""

    def __init__(self, message: str, turn: int | None = None) -> None:
        self.turn = turn
        super().__init__(message if turn is None else f"turn {turn + 1}: {message}")


def tile_names(tiles: Sequence[Tile]) -> list[str]:
    return [str(t) for t in tiles]


def read_header(record: Any) -> tuple[RuleSet, list[str], list[dict[str, Any]]]:
    """The rules, the seats' names and the turns of a record, its envelope checked."""
    if not isinstance(record, dict):
        raise RecordError("a game record is a JSON object")
    if record.get("format", FORMAT) != FORMAT:
        raise RecordError(f"unknown format {record.get('format')!r}; expected {FORMAT!r}")
    if record.get("game", KINGS) != RECORD_NAMES[KINGS]:
        raise RecordError(f"this is a record of {record.get('game')!r}, not Kings Cribbage")
    try:
        rules = RuleSet.from_json(record.get("rules"))
    except (ValueError, TypeError) as e:
        raise RecordError(f"rules: {e}") from None
    players = record.get("players")
    if not isinstance(players, list) or not all(isinstance(p, dict) for p in players):
        raise RecordError("players must be a list of objects")
    names = [str(p.get("name", f"Player {i + 1}")) for i, p in enumerate(players)]
    turns = record.get("turns")
    if not isinstance(turns, list) or not all(isinstance(t, dict) for t in turns):
        raise RecordError("turns must be a list of objects")
    return rules, names, turns


def read_tiles(data: Any, what: str, index: int) -> list[Tile]:
    """A turn's list of tiles (``what`` names it in the error)."""
    if not isinstance(data, list):
        raise RecordError(f"{what} must be a list of tiles", index)
    try:
        return [Tile.parse(t) for t in data]
    except ValueError as e:
        raise RecordError(f"{what}: {e}", index) from None


def read_action(turn: dict[str, Any], index: int) -> Action:
    """The action a recorded turn took."""
    kind = turn.get("action")
    if kind == "play":
        try:
            return Play.from_json(turn.get("tiles"))
        except ValueError as e:
            raise RecordError(f"tiles: {e}", index) from None
    if kind == "exchange":
        returned = read_tiles(turn.get("returned"), "returned", index)
        if not returned:
            raise RecordError("an exchange returns at least one tile", index)
        return Exchange.of(returned)
    if kind == "pass":
        return Pass()
    raise RecordError(f"action must be play, exchange or pass, not {kind!r}", index)


def read_claim(turn: dict[str, Any], rules: RuleSet, index: int) -> int | None:
    """What the player claimed for the play under the joker rule (None: no claim)."""
    if "claimed" not in turn:
        return None
    claimed = turn["claimed"]
    if not rules.joker:
        raise RecordError("a claim is recorded but the joker rule is off", index)
    if not isinstance(claimed, int) or isinstance(claimed, bool):
        raise RecordError("claimed must be a whole number", index)
    return claimed


def read_joker_caller(joker: Any, players: int, index: int) -> int:
    """The seat that called "Joker!" in a turn's ``joker`` entry."""
    if not isinstance(joker, dict) or not is_seat(joker.get("caller"), players):
        raise RecordError('joker must be {"caller": seat, "points": n}', index)
    caller: int = joker["caller"]
    return caller


def check_joker_points(joker: dict[str, Any], points: int, index: int) -> None:
    """The recorded points of a Joker call against what the call was worth."""
    if joker.get("points") != points:
        raise RecordError(f"the Joker call is worth {points}, not {joker.get('points')!r}", index)


def read_reshuffles(undo: Any, turns: int) -> dict[int, list[int]]:
    """The record's ``undo`` list: the keys of the bag's reshuffles by the turn they precede.

    The entries are in the order they were made, so ``before_turn`` never decreases. Older
    versions also kept the entries of turns taken back by a later undo: an entry with a
    smaller ``before_turn`` than one before it drops those before it with a larger one,
    so their saves still resume as they were played."""
    if not isinstance(undo, list):
        raise RecordError('undo must be a list of {"before_turn": n, "reshuffle": key}')
    kept: list[tuple[int, int]] = []
    for entry in undo:
        at = entry.get("before_turn") if isinstance(entry, dict) else None
        key = entry.get("reshuffle") if isinstance(entry, dict) else None
        if not (isinstance(at, int) and not isinstance(at, bool) and at >= 0
                and isinstance(key, int) and not isinstance(key, bool)):
            raise RecordError(f"undo: {entry!r} is not"
                              f' {{"before_turn": 0-{turns}, "reshuffle": key}}')
        while kept and kept[-1][0] > at:
            kept.pop()  # a reshuffle of turns taken back since
        kept.append((at, key))
    out: dict[int, list[int]] = {}
    for at, key in kept:
        if at > turns:
            raise RecordError(f'undo: {{"before_turn": {at}, "reshuffle": {key}}} is not'
                              f' {{"before_turn": 0-{turns}, "reshuffle": key}}')
        out.setdefault(at, []).append(key)
    return out


def same_tiles(a: Sequence[Tile], b: Sequence[Tile]) -> bool:
    """The same tiles as held (a placed 9 is the 6/9 tile it came from)."""
    return held_counts(a) == held_counts(b)


def is_seat(value: object, players: int) -> TypeGuard[int]:
    """A seat number (JSON true/false are not numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players
