"""``kingscrib learn``: the lessons of Kings Cribbage (or, with ``--game cribbage``, of
classic Cribbage) in the terminal; finished lessons are kept in ``learn-progress.json``
in the data folder."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from kingscrib.cli import user_files
from kingscrib.common.paths import data_dir, write_atomically
from kingscrib.learn import progress as learn_progress

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


def run_lines(game: str, saved: learn_progress.Progress, save: bool, plain: bool) -> None:
    """The lessons line by line (through a pipe, with --line, or for a screen reader):
    each lesson's explanation, then each step's position and task; answers are read
    from standard input until the step is solved (``hint``, ``show``, ``skip``, ``quit``)."""
    from rich.console import Console

    from kingscrib.learn import lessons
    from kingscrib.learn.lesson import GOALS
    from kingscrib.terminal.views.lessons import setup_view

    console = Console(no_color=plain or None, highlight=False)
    plain = plain or not console.is_terminal  # through a pipe no colour tells light from dark
    console.print(GOALS[game])
    progress = saved
    for number, lesson in enumerate(lessons(game), 1):
        done = "(finished) " if lesson.id in progress[game] else ""
        console.print(f"\n[bold]Lesson {number}: {lesson.title}[/] {done}\n{lesson.teach}",
                      markup=True)
        solved_all = True
        for at, step in enumerate(lesson.steps, 1):
            console.print(setup_view(step, plain))
            console.print(f"Step {at} of {len(lesson.steps)}: {step.task}")
            solved = _answer_step(console, step)
            if solved is None:
                return
            solved_all = solved_all and solved
        if solved_all:
            progress = learn_progress.finish(progress, game, lesson.id)
            if save:
                write_progress(progress)


def _answer_step(console: Any, step: Any) -> bool | None:
    """Read answers until the step is solved (True), skipped (False) or left (None)."""
    from kingscrib.learn import check

    while True:
        try:
            line = input("answer › ").strip()
        except EOFError:
            return None
        word = line.lower()
        if word == "quit":
            return None
        if word == "skip":
            return False
        if word in ("hint", "show"):
            console.print(f"Hint: {step.hint}" if word == "hint"
                          else f"The answer: {step.intended}")
            continue
        if not line:
            continue
        verdict = check(step, line)
        console.print(("✓ " if verdict.ok else "✗ ") + verdict.message)
        for part in verdict.breakdown:
            console.print(f"  {part}")
        if verdict.ok:
            return True


@click.command("learn", context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--game", type=click.Choice(["kings", "cribbage"]), default="kings",
              show_default=True, help="Which game's lessons.")
@click.option("--no-color", is_flag=True, help="Tiles as 7L / 7D instead of colours.")
@click.option("--line", "line_mode", is_flag=True, help="Line by line instead of full"
              " screen (the default when the input or output is not a terminal).")
def learn(game: str, no_color: bool, line_mode: bool) -> None:
    """Learn to play: short lessons on a small prepared board (or hand of cards), each
    answer checked and explained by the engine. Progress is remembered."""
    from kingscrib.cli.play import full_screen_possible

    saved, problem = read_progress()
    if problem:
        click.echo(problem, err=True)
    if line_mode or not full_screen_possible():
        run_lines(game, saved, problem is None, no_color)
        return
    from kingscrib.terminal.learn_app import LearnApp

    app = LearnApp(game, saved, None if problem else write_progress, plain=no_color,
                   notice=problem)
    app.run()


@click.command()
@click.argument("game", type=click.Choice(["kings", "cribbage", "classic"]), default="kings")
@click.option("--plain", is_flag=True, help="Print the Markdown text as it is (no pager).")
def rules(game: str, plain: bool) -> None:
    """Print the full rules as Kingscrib plays them: Kings Cribbage (the default) or
    Cribbage (`kingscrib rules cribbage`), with every resolution and the record formats.

    The text ships with the package (the project's docs/rules.md and the rules of
    docs/classic.md); on a terminal it is shown through a pager.
    """
    from kingscrib.learn.rules import rules_text

    text = rules_text("cribbage" if game == "classic" else game)
    if plain or not sys.stdout.isatty():
        click.echo(text, nl=False)
        return
    from rich.console import Console
    from rich.markdown import Markdown

    console = Console()
    with console.pager(styles=True):
        console.print(Markdown(text))
