"""What a lesson is: a title, a short explanation, and steps the learner must solve.

A step holds only data: the prepared position (``setup``), the task in words, the
``goal`` the engine checks (a kind and its parameter), one intended answer (the one
"show me" plays) and a hint. Which answers are accepted is never listed: the game's
checker decides it from the engine's own scoring.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Each game's goal in two lines, for newcomers (the tutorial's and the game's first screen).
GOALS = {
    "kings": "Lay tiles in rows and columns like a crossword; every line of 2 to 5 tiles"
             " is a cribbage hand and scores.\nThe most points when the tiles run out wins.",
    "cribbage": "Score points from your cards in the play and the show (15s, pairs, runs);"
                "\nthe first to peg 121 points wins.",
}

# How a step is answered: a Kings turn typed or laid on the board, a number of points,
# two cards laid away to the crib, or one card (or "go") in the play.
MOVE, NUMBER, DISCARD, PEG = "move", "number", "discard", "peg"


@dataclass(frozen=True)
class Step:
    game: str  # "kings" or "cribbage"
    answer: str  # MOVE, NUMBER, DISCARD or PEG
    task: str
    setup: dict[str, Any]
    goal: tuple[str, Any]  # (kind, parameter), read by the game's checker
    intended: str  # an answer the checker accepts (the "show me")
    hint: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"answer": self.answer, "task": self.task, "setup": self.setup,
                "hint": self.hint, "intended": self.intended}


@dataclass(frozen=True)
class Lesson:
    id: str
    game: str
    title: str
    teach: str  # the explanation shown before the steps (a few short paragraphs)
    steps: tuple[Step, ...] = field(default_factory=tuple)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "game": self.game, "title": self.title, "teach": self.teach,
                "steps": [s.to_json() for s in self.steps]}


@dataclass(frozen=True)
class Verdict:
    """The checker's answer: accepted or not, one line saying why, and the engine's
    breakdown of what the answer scored (empty when it could not be played)."""

    ok: bool
    message: str
    breakdown: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "message": self.message, "breakdown": list(self.breakdown)}
