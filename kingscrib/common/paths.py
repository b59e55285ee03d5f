"""Where Kingscrib keeps what a user makes: autosaves, records, the web database."""

from __future__ import annotations

import os
from pathlib import Path

DATA_DIR_VARIABLE = "KINGSCRIB_DATA_DIR"


def data_dir() -> Path:
    """The user's Kingscrib data folder (created on first use).

    ``$KINGSCRIB_DATA_DIR`` overrides it; otherwise ``$XDG_DATA_HOME/kingscrib``
    or ``~/.local/share/kingscrib``.
    """
    override = os.environ.get(DATA_DIR_VARIABLE)
    if override:
        folder = Path(override)
    else:
        base = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
        folder = Path(base) / "kingscrib"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` so that a crash never leaves half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
