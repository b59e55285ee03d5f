"""Progress of the commands that run for more than a few seconds (tournaments, self-play,
puzzle generation): on standard error, with the time so far and an estimate of the time
left, so that standard output stays the command's result.

Shown by default only when standard error is a terminal; ``--progress`` shows it anyway
(as a line every few seconds, for a log file) and ``--no-progress`` never.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import IO, TypeVar

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

F = TypeVar("F", bound=Callable[..., object])


def progress_option(command: F) -> F:
    """The ``--progress/--no-progress`` option (``show_progress``: None unless given)."""
    return click.option(
        "--progress/--no-progress", "show_progress", default=None,
        help="Progress and an estimate of the time left on standard error (default: only"
             " when standard error is a terminal; --progress also writes it to a file or"
             " pipe, a line every few seconds).")(command)


def duration(seconds: float) -> str:
    """``1h02m``, ``3m05s`` or ``42s``."""
    s = max(0, round(seconds))
    if s >= 3600:
        return f"{s // 3600}h{s % 3600 // 60:02d}m"
    if s >= 60:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s}s"


@dataclass
class _Task:
    description: str
    total: float
    started: float
    shown: float
    done: float = 0.0


class LineProgress:
    """What rich's Progress offers the runners (``add_task``, ``advance``), written as a
    plain line every ``every`` seconds and when a task completes."""

    def __init__(self, stream: IO[str], every: float = 10.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream
        self.every = every
        self.clock = clock
        self.tasks: list[_Task] = []

    def add_task(self, description: str, total: float | None = None) -> TaskID:
        now = self.clock()
        self.tasks.append(_Task(description, float(total or 0), now, now))
        return TaskID(len(self.tasks) - 1)

    def advance(self, task: TaskID, advance: float = 1) -> None:
        t = self.tasks[task]
        t.done += advance
        now = self.clock()
        if now - t.shown >= self.every or t.done >= t.total > 0:
            t.shown = now
            self.stream.write(self.line(t.description, t.total, t.done, now - t.started) + "\n")
            self.stream.flush()

    @staticmethod
    def line(description: str, total: float, done: float, elapsed: float) -> str:
        """``games: 40/200 (20%), 1m20s so far, about 5m20s left``."""
        text = f"{description}: {done:g}/{total:g}"
        if total > 0:
            text += f" ({done / total:.0%})"
        text += f", {duration(elapsed)} so far"
        if 0 < done < total:
            text += f", about {duration(elapsed / done * (total - done))} left"
        return text

    def __enter__(self) -> LineProgress:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        return None


def progress_for(show: bool | None, transient: bool = True) -> Progress | LineProgress:
    """The progress display a command's ``--progress/--no-progress`` asks for."""
    terminal = sys.stderr.isatty()
    if show and not terminal:
        return LineProgress(sys.stderr)
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(),
                    console=Console(stderr=True), transient=transient,
                    disable=not (terminal if show is None else show))
