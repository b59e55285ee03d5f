"""``kingscrib learn``: the lessons of Kings Cribbage (or, with ``--game cribbage``, of
classic Cribbage) in the terminal; finished lessons are kept in ``learn-progress.json``
in the data folder."""

from __future__ import annotations

import json
from pathlib import Path

import click

from kingscrib.cli import user_files
from kingscrib.learn import progress as learn_progress
from kingscrib.paths import data_dir, write_atomically

PROGRESS_NAME = "learn-progress.json"


def progress_path() -> Path:
    return data_dir() / PROGRESS_NAME


def read_progress() -> tuple[learn_progress.Progress, str | None]:
    """The saved progress and None, or empty progress and why the file cannot be read
    (the file is then left as it is, never written over)."""
    path = progress_path()
    if not path.exists():
        return learn_progress.empty(), None
    try:
        return learn_progress.read(user_files.parse(user_files.read_text(str(path)))), None
    except (click.ClickException, ValueError) as e:
        said = e.format_message() if isinstance(e, click.ClickException) else str(e)
        return learn_progress.empty(), f"{path} cannot be read ({said}); it is left as it is"


def write_progress(progress: learn_progress.Progress) -> None:
    write_atomically(progress_path(), json.dumps(learn_progress.to_json(progress)))


@click.command("learn", context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--game", type=click.Choice(["kings", "cribbage"]), default="kings",
              show_default=True, help="Which game's lessons.")
@click.option("--no-color", is_flag=True, help="Tiles as 7L / 7D instead of colours.")
def learn(game: str, no_color: bool) -> None:
    """Learn to play: short lessons on a small prepared board (or hand of cards), each
    answer checked and explained by the engine. Progress is remembered."""
    from kingscrib.cli.terminal.learn_app import LearnApp

    saved, problem = read_progress()
    app = LearnApp(game, saved, None if problem else write_progress, plain=no_color,
                   notice=problem)
    app.run()
