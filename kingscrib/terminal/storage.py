"""Where the terminal game keeps its files: the autosave and the saved game records.

All paths are under :func:`kingscrib.common.paths.data_dir` (``$KINGSCRIB_DATA_DIR``
overrides it): ``autosave-kings.json`` for the game in progress and
``games/<date>-<time>.json`` for each finished game.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from kingscrib.common import jsontext
from kingscrib.common.paths import data_dir, write_atomically

AUTOSAVE_NAME = "autosave-kings.json"
GAMES_FOLDER = "games"


GUIDE_SEEN_NAME = "first-move-guide-seen"  # present once a newcomer was shown the guide


def first_move_guide_seen() -> bool:
    return (data_dir() / GUIDE_SEEN_NAME).exists()


def mark_first_move_guide_seen() -> None:
    write_atomically(data_dir() / GUIDE_SEEN_NAME, "shown\n")


def autosave_path() -> Path:
    return data_dir() / AUTOSAVE_NAME


def write_autosave(snapshot: dict[str, Any]) -> Path:
    path = autosave_path()
    write_atomically(path, json.dumps(snapshot, separators=(",", ":")))
    return path


def read_autosave() -> dict[str, Any] | None:
    """The autosave, or None when there is none; raises ValueError when it is unreadable."""
    path = autosave_path()
    if not path.exists():
        return None
    try:
        data = jsontext.loads(path.read_bytes())
    except (OSError, ValueError) as e:  # ValueError: jsontext says what is wrong
        raise ValueError(f"{path} cannot be read: {e}") from None
    return data if isinstance(data, dict) else {"format": None}


def remove_autosave() -> None:
    autosave_path().unlink(missing_ok=True)


def free_path(stem: str) -> Path:
    folder = data_dir() / GAMES_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{stem}.json"
    n = 2
    while path.exists():
        path = folder / f"{stem}-{n}.json"
        n += 1
    return path


def save_record(record: dict[str, Any], prefix: str = "") -> Path:
    """Write a game record to ``games/<prefix><date>-<time>.json``; returns the path."""
    path = free_path(prefix + time.strftime("%Y%m%d-%H%M%S"))
    write_atomically(path, json.dumps(record, indent=1) + "\n")
    return path


def keep_autosave() -> Path | None:
    """Move the autosave aside to ``games/unfinished-...json`` (it is never just deleted)."""
    path = autosave_path()
    if not path.exists():
        return None
    target = free_path("unfinished-" + time.strftime("%Y%m%d-%H%M%S"))
    path.replace(target)
    return target


def keep_what_a_reply_asks(session: Any, reply: Any) -> list[str]:
    """Save the records of games a reply ended and the autosave when the game changed (or
    the user saved or quit); the notes to show. Both front ends call this after every
    reply, so no action is ever lost."""
    notes = []
    for record in reply.finished:
        notes.append(f"Game record saved to {save_record(record)}")
    over = session.match.is_over
    if over:
        remove_autosave()
    elif reply.changed or reply.save or reply.quit:
        path = write_autosave(session.snapshot())
        if reply.save:
            notes.append(f"Saved to {path}; the game is saved after every move too.")
    return notes


def write_file(path: str | Path, data: dict[str, Any]) -> Path:
    target = Path(path).expanduser()
    write_atomically(target, json.dumps(data, indent=1) + "\n")
    return target
