"""The puzzle format: one JSON object per puzzle, a set is a JSON file of them.

``{"id", "game": "kings" | "cribbage", "kind": "best-play" | "best-discard" |
"best-card", "position": the public position JSON, "answer": the best option in the
game's notation, "margin": how far it is ahead of the second, "breakdown": the best
option's numbers, "second": the second's, "top_now": the most any option scores at once,
"theme": a few words, "seed": the seed of the analysis}``.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import Any

from kingscrib.common import jsontext
from kingscrib.common.paths import write_atomically
from kingscrib.core import CRIBBAGE, GAME_IDS, KINGS, UnknownGame, parse_game_id

DATA_DIR = Path(__file__).with_name("data")
FORMAT = "kingscrib-puzzles/1"
GAMES = GAME_IDS
KINDS = {KINGS: ("best-play",), CRIBBAGE: ("best-discard", "best-card")}
FIELDS = ("id", "game", "kind", "position", "answer", "margin", "breakdown", "second",
          "top_now", "theme", "seed")


class PuzzleError(ValueError):
    """A puzzle file or object that cannot be read; the message says where and why."""


@dataclass(frozen=True)
class Puzzle:
    id: str
    game: str
    kind: str
    position: dict[str, Any]
    answer: str
    margin: float
    breakdown: dict[str, Any]
    second: dict[str, Any]
    top_now: int
    theme: str
    seed: int = 0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any, where: str = "puzzle") -> Puzzle:
        if not isinstance(data, dict):
            raise PuzzleError(f"{where}: a puzzle is a JSON object")
        missing = [k for k in FIELDS if k not in data]
        if missing:
            raise PuzzleError(f"{where}: missing field {missing[0]!r}")
        unknown = sorted(set(data) - set(FIELDS))
        if unknown:
            raise PuzzleError(f"{where}: unknown field {unknown[0]!r}")
        try:
            game = parse_game_id(data["game"])  # "classic" is read as "cribbage"
        except UnknownGame:
            raise PuzzleError(f"{where}: game must be one of {', '.join(GAMES)}") from None
        if data["kind"] not in KINDS[game]:
            raise PuzzleError(f"{where}: a {game} puzzle's kind is one of "
                              f"{', '.join(KINDS[game])}, not {data['kind']!r}")
        for name, kind in (("id", str), ("answer", str), ("theme", str), ("position", dict),
                           ("breakdown", dict), ("second", dict)):
            if not isinstance(data[name], kind):
                raise PuzzleError(f"{where}: {name} must be a {kind.__name__}")
        if not isinstance(data["margin"], (int, float)) or isinstance(data["margin"], bool):
            raise PuzzleError(f"{where}: margin must be a number")
        for name in ("top_now", "seed"):
            if not isinstance(data[name], int) or isinstance(data[name], bool):
                raise PuzzleError(f"{where}: {name} must be a whole number")
        puzzle = cls(**{k: data[k] for k in FIELDS if k != "game"}, game=game)
        try:
            check_position(puzzle)
        except (ValueError, KeyError, TypeError) as e:
            raise PuzzleError(f"{where}: its position cannot be read: {e}") from None
        return puzzle


def check_position(puzzle: Puzzle) -> None:
    """Raise ValueError (or KeyError/TypeError) when the puzzle's position cannot be read."""
    pos = puzzle.position
    if puzzle.game == KINGS:
        from kingscrib.kings.position import Position

        Position.from_json(pos)
        return
    from kingscrib.classic.cards import Card, parse_cards

    hand = parse_cards(pos["hand"])
    if not isinstance(pos["dealer"], bool):
        raise ValueError("dealer must be true or false")
    if puzzle.kind == "best-discard":
        if len(hand) != 6:
            raise ValueError("a discard puzzle has six cards")
        return
    seen = hand + parse_cards(pos["pile"]) + parse_cards(pos["discards"])
    seen.append(Card.parse(pos["starter"]))
    for who, card in pos["played"]:
        if who not in ("me", "them"):
            raise ValueError("each card played is [\"me\" or \"them\", card]")
        Card.parse(card)
    k = pos["opponent_cards"]
    if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k <= 4:
        raise ValueError("opponent_cards must be 0 to 4")
    if not hand:
        raise ValueError("the hand is empty")


def dump_set(puzzles: list[Puzzle], path: Path) -> None:
    """Write a puzzle set (one puzzle a line, so that sets diff well)."""
    lines = ",\n".join(json.dumps(p.to_json(), sort_keys=True) for p in puzzles)
    write_atomically(path, f'{{"format": "{FORMAT}", "puzzles": [\n{lines}\n]}}\n')


def load_set(path: Path | str) -> list[Puzzle]:
    """Read a puzzle set; PuzzleError says what is wrong with it."""
    path = Path(path)
    try:
        data = jsontext.loads(path.read_bytes())
    except OSError as e:
        raise PuzzleError(f"{path}: cannot read it ({e.strerror})") from None
    except jsontext.JSONTextError as e:
        raise PuzzleError(f"{path}: {e}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PuzzleError(f'{path}: not a puzzle set (expected "format": "{FORMAT}")')
    items = data.get("puzzles")
    if not isinstance(items, list):
        raise PuzzleError(f"{path}: puzzles must be a list")
    return [Puzzle.from_json(p, f"{path}: puzzle {i + 1}") for i, p in enumerate(items)]


def shipped_path(game: str) -> Path:
    return DATA_DIR / f"{game}.json"


@cache
def shipped(game: str) -> tuple[Puzzle, ...]:
    """The verified set that ships with the package (empty when none is there)."""
    path = shipped_path(game)
    return tuple(load_set(path)) if path.exists() else ()


__all__ = ["FORMAT", "GAMES", "KINDS", "Puzzle", "PuzzleError", "dump_set", "load_set",
           "shipped", "shipped_path"]
