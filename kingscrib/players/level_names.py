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


_COMMON = (
    LevelName("easy", "Beginner", "Often misses the best play: a gentle first opponent."),
    LevelName("medium", "Casual", "Takes the most points now and never plans ahead."),
    LevelName("hard", "Strong", "Weighs what it keeps and what it gives away."),
    LevelName("expert", "Expert", "Looks ahead through what you may hold; plays to win."),
    LevelName("expert-v1", "Expert (previous)", "The expert before the current one."),
    LevelName("random", "Random", "Any legal move, at random: a test opponent."),
)

NAMES: dict[GameId, tuple[LevelName, ...]] = {
    KINGS: _COMMON
    + (
        LevelName("greedy", "Greedy", "The highest score now, nothing else."),
        LevelName("equity", "Planner", "Score now plus the worth of the tiles it keeps."),
        LevelName("sim", "Simulator", "Plays out the unseen tiles before it chooses."),
    ),
    CRIBBAGE: _COMMON
    + (LevelName("baseline", "Baseline", "Simple fixed rules for the discard and the play."),),
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
    """The names of ``levels`` (technical), in the order people read them: gentle first."""
    wanted = set(levels)
    known = [name for name in NAMES[_game_key(game)] if name.level in wanted]
    return known + [LevelName(level, level, "") for level in levels
                    if level not in {name.level for name in known}]


def choices_text(game: str, levels: Iterable[str]) -> str:
    """``Beginner (easy), Casual (medium), ...``: a list for a --help text or a refusal."""
    return ", ".join(name.title if name.title == name.level else f"{name.title} ({name.level})"
                     for name in listed(game, levels))


def help_table(game: str, levels: Iterable[str]) -> str:
    """One line a level, title then what it does, kept as it is by click (``\\b``)."""
    return "\b\nComputer levels (give the title or the short name in brackets):\n" + "\n".join(
        f"  {name.title} ({name.level}): {name.line}" for name in listed(game, levels))
