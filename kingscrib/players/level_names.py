"""The computer's levels as people read them: a friendly title and one line each.

The technical names (``easy``, ``expert-v1``, ``sim``...) stay what records, the API and
the command line use; the titles are what every list shows, and are accepted as aliases.

>>> title("kings", "easy"), resolve("cribbage", "Strong")
('Beginner', 'hard')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from kingscrib.core import CRIBBAGE, KINGS, GameId, is_game_id, parse_game_id


@dataclass(frozen=True)
class LevelName:
    level: str  # the technical name
    title: str  # what people read
    line: str  # one line on how it plays
    same_as: str | None = None  # the level this one plays as: an alias, never listed apart


_RANDOM = LevelName("random", "Random", "Any legal move, at random: a test opponent.")
_BEGINNER = LevelName("easy", "Beginner", "Often misses the best play: a gentle first opponent.")
_CASUAL = LevelName("medium", "Casual", "Takes the most points now and never plans ahead.")
_STRONG = LevelName("hard", "Strong", "Weighs what it keeps and what it gives away.")
_PREVIOUS = LevelName("expert-v1", "Expert (previous)", "The expert before the current one.")
_EXPERT = LevelName("expert", "Expert", "Looks ahead through what you may hold; plays to win.")

# Weakest first, as their calibrated ratings order them (kingscrib/web/ratings/level_ratings.json).
NAMES: dict[GameId, tuple[LevelName, ...]] = {
    KINGS: (
        _RANDOM, _BEGINNER, _CASUAL, _STRONG, _PREVIOUS,
        LevelName("sim", "Simulator", "Plays out the unseen tiles before it chooses."),
        _EXPERT,
        # Kings' Casual and Strong are these players under their technical names.
        LevelName("greedy", "Greedy", "The highest score now, nothing else.", same_as="medium"),
        LevelName("equity", "Planner", "Score now plus the worth of the tiles it keeps.",
                  same_as="hard"),
    ),
    CRIBBAGE: (
        _RANDOM,
        LevelName("baseline", "Baseline", "Simple fixed rules for the discard and the play."),
        _BEGINNER, _CASUAL, _STRONG, _PREVIOUS,
        # not in the web's levels; measured some 40 points above Strong (docs/rl.md)
        LevelName("learned", "Learned", "Taught itself by self-play; two players only."),
        _EXPERT,
    ),
}

# A newcomer's opponent when they have not chosen one.
GENTLE_DEFAULT = "easy"


def _game_key(game: str) -> GameId:
    """The id of ``game`` (``classic`` is ``cribbage``); anything else reads as Kings."""
    return parse_game_id(game) if is_game_id(game) else KINGS


def describe(game: str, level: str) -> LevelName:
    """The name of a technical level (or of a title); an unknown one reads as itself."""
    wanted = resolve(game, level)
    for name in NAMES[_game_key(game)]:
        if name.level == wanted:
            return name
    return LevelName(level, level, "")


def title(game: str, level: str) -> str:
    """``Beginner`` for ``easy``."""
    return describe(game, level).title


def resolve(game: str, name: str) -> str:
    """The technical level for a technical name or a title (any case); else ``name``."""
    folded = name.strip().casefold()
    for entry in NAMES[_game_key(game)]:
        if folded in (entry.level, entry.title.casefold()):
            return entry.level
    return name


def listed(game: str, levels: Iterable[str]) -> list[LevelName]:
    """The names of ``levels`` (technical), in the order people read them: weakest first."""
    wanted = set(levels)
    known = [name for name in NAMES[_game_key(game)] if name.level in wanted]
    return known + [LevelName(level, level, "") for level in levels
                    if level not in {name.level for name in known}]


def offered(game: str, levels: Iterable[str]) -> list[LevelName]:
    """The levels a list shows people, weakest first: an alias (``greedy``, the player
    ``medium`` is) is left out where the level it plays as is offered."""
    wanted = list(levels)
    return [name for name in listed(game, wanted) if name.same_as not in wanted]


def choices_text(game: str, levels: Iterable[str]) -> str:
    """``Beginner (easy), Casual (medium), ...``: a list for a --help text or a refusal."""
    return ", ".join(name.title if name.title.casefold() == name.level else f"{name.title} ({name.level})"
                     for name in listed(game, levels))


def help_table(game: str, levels: Iterable[str]) -> str:
    """One line a level, title then what it does, kept as it is by click (``\\b``)."""
    return "\b\nComputer levels (give the title or the short name in brackets):\n" + "\n".join(
        f"  {name.title} ({name.level}): {name.line}" for name in listed(game, levels))
