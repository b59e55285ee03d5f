"""The lessons in the terminal (Textual): a list of lessons, then one lesson at a time,
laid out for 80x24 (the screens are in :mod:`kingscrib.terminal.screens.lessons`).

The widgets only draw and read lines; every answer goes to :func:`kingscrib.learn.check`,
so the terminal and the web page accept and explain exactly the same answers.
"""

from __future__ import annotations

from collections.abc import Callable

from textual import on
from textual.binding import Binding

from kingscrib.learn import lessons
from kingscrib.learn import progress as learn_progress
from kingscrib.learn.lesson import GOALS
from kingscrib.terminal.screens.lessons import LessonList, LessonScreen
from kingscrib.terminal.shell import TerminalApp, styles

TITLES = {"kings": "Kings Cribbage", "cribbage": "Cribbage"}


class LearnApp(TerminalApp):
    """The lessons of ``game``; ``save`` keeps the progress after each finished lesson
    (None: not kept, the file could not be read and is left alone)."""

    CSS_PATH = styles("learn")
    BINDINGS = [Binding("ctrl+q", "quit", "quit", priority=True)]

    def __init__(self, game: str, progress: learn_progress.Progress,
                 save: Callable[[learn_progress.Progress], None] | None,
                 plain: bool = False, notice: str | None = None) -> None:
        super().__init__()
        self.game = game
        self.lessons = lessons(game)
        self.progress = progress
        self.save = save
        self.plain = plain
        self.notice = notice
        self.title = f"Learn {TITLES[game]}"

    def on_mount(self) -> None:
        self.push_screen(LessonList(self.title, GOALS[self.game], self.lessons,
                                    lambda: self.progress[self.game], self.notice))

    @on(LessonList.Chosen)
    def open_lesson(self, event: LessonList.Chosen) -> None:
        self.push_screen(LessonScreen(self.lessons[event.index], event.index + 1,
                                      len(self.lessons), self.plain))

    @on(LessonScreen.Finished)
    def finished(self, event: LessonScreen.Finished) -> None:
        self.progress = learn_progress.finish(self.progress, self.game, event.lesson.id)
        if self.save is not None:
            self.save(self.progress)



__all__ = ["LearnApp"]
