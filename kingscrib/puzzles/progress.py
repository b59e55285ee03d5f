"""What a player has solved: the puzzles answered right, and the current streak, kept in
``puzzles.json`` in the user's data folder (:func:`kingscrib.common.paths.data_dir`)."""

from __future__ import annotations

import datetime
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from kingscrib.common.paths import data_dir, write_atomically

FILE_NAME = "puzzles.json"


def progress_path() -> Path:
    return data_dir() / FILE_NAME


@dataclass
class Progress:
    solved: list[str] = field(default_factory=list)  # ids answered right, in order
    tried: int = 0
    streak: int = 0  # right answers in a row
    best_streak: int = 0

    def record(self, puzzle_id: str, right: bool) -> None:
        self.tried += 1
        if right:
            if puzzle_id not in self.solved:
                self.solved.append(puzzle_id)
            self.streak += 1
            self.best_streak = max(self.best_streak, self.streak)
        else:
            self.streak = 0

    @classmethod
    def load(cls, path: Path | None = None) -> Progress:
        """The saved progress; a file that cannot be read is kept aside, never lost."""
        path = path or progress_path()
        if not path.exists():
            return cls()
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return cls([str(x) for x in data["solved"]], int(data["tried"]),
                       int(data["streak"]), int(data["best_streak"]))
        except (OSError, ValueError, KeyError, TypeError):
            path.replace(path.with_name(path.name + ".unreadable"))
            return cls()

    def save(self, path: Path | None = None) -> None:
        write_atomically(path or progress_path(), json.dumps(
            {"solved": self.solved, "tried": self.tried, "streak": self.streak,
             "best_streak": self.best_streak}, indent=1) + "\n")


def daily_index(day: datetime.date, count: int, game: str) -> int:
    """The puzzle of the day: the same for everyone on that date (a hash of it)."""
    digest = hashlib.sha256(f"{game}:{day.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % count


__all__ = ["Progress", "daily_index", "progress_path"]
