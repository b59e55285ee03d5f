"""What a session core answers, as plain data: the states it can be in and the
:class:`Reply` to a command, whose messages the views draw (nothing here knows how).

A message is a :class:`Line` of text in runs, each with a tone (``strong``, ``quiet``,
``error``...: the views give each tone its look), or a structured message of one game
(a table of hints, the end of a game) defined beside that game's core.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

# States of a session (what the front end should do next).
MOVE = "move"  # a person to move types a command
CLAIM = "claim"  # joker rule: the person who just played types the points claimed
HANDOVER = "handover"  # several people: press Enter when the next one is at the keyboard
THINKING = "computer"  # a computer is to move: call computer_turn()
NEXT_GAME = "next-game"  # a game of the match is over: press Enter for the next
OVER = "over"  # the match (or the game) is over

# The tones a line may have; the views say how each looks.
PLAIN, STRONG, QUIET, ERROR, WARNING, ALERT, WIN, GOAL, HEADING, COMMAND, RED_CARD = (
    "", "strong", "quiet", "error", "warning", "alert", "win", "goal", "heading", "command",
    "red-card")


class Message:
    """Something a reply says (a :class:`Line` or a game's structured message)."""


@dataclass(frozen=True)
class Line(Message):
    """Text in runs of (text, tone), the whole line in ``tone``."""

    runs: tuple[tuple[str, str], ...] = ()
    tone: str = PLAIN

    @classmethod
    def of(cls, text: str, tone: str = PLAIN) -> Line:
        return cls(((text, PLAIN),), tone)

    def then(self, text: str, tone: str = PLAIN) -> Line:
        """This line with ``text`` added at its end."""
        return Line((*self.runs, (text, tone)), self.tone)

    @property
    def plain(self) -> str:
        return "".join(text for text, _ in self.runs)


@dataclass(frozen=True)
class Help(Message):
    """The commands of a game and what each does."""

    rows: Sequence[tuple[str, str]]


def error_line(message: str) -> Line:
    return Line.of(f"✗ {message}", ERROR)


@dataclass
class Reply:
    """What to show after a command: messages in order, and what the front end must do."""

    messages: list[Message] = field(default_factory=list)
    quit: bool = False  # the user stops (the game stays saved)
    save: bool = False  # the user asked to save now
    finished: list[dict[str, Any]] = field(default_factory=list)  # records of ended games
    changed: bool = False  # the game changed: write the autosave

    def add(self, message: Message | str, tone: str = PLAIN) -> None:
        self.messages.append(Line.of(message, tone) if isinstance(message, str) else message)

    def error(self, message: str) -> None:
        self.messages.append(error_line(message))


__all__ = [
    "CLAIM", "HANDOVER", "MOVE", "NEXT_GAME", "OVER", "THINKING",
    "Help", "Line", "Message", "Reply", "error_line",
]
