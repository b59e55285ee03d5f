"""The lessons' screens: the list of lessons, and one lesson at a time, laid out for
80x24 (their look is in styles/learn.tcss).

Every answer goes to :func:`kingscrib.learn.check`, so the terminal and the web page
accept and explain exactly the same answers. The screens post what happened
(:class:`LessonList.Chosen`, :class:`LessonScreen.Finished`); the app keeps the progress.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from kingscrib.kings.moves import Play
from kingscrib.learn import check
from kingscrib.learn.kings import position_of, read_action
from kingscrib.learn.lesson import Lesson, Step, Verdict
from kingscrib.terminal.views.lessons import ANSWER_HINT, setup_view
from kingscrib.terminal.views.lines import GOOD_STYLE

BAD_STYLE = "bold red"


class LessonList(Screen[None]):
    """The game's goal in two lines and its lessons, those in ``done()`` ticked."""

    class Chosen(Message):
        """The lesson at ``index`` was chosen."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, heading: str, goal: str, lessons: Sequence[Lesson],
                 done: Callable[[], Collection[str]], notice: str | None = None) -> None:
        super().__init__()
        self.heading = heading
        self.goal = goal
        self.lessons = lessons
        self.done = done
        self.notice = notice

    def compose(self) -> ComposeResult:
        yield Static(Text.assemble((self.heading, "bold"), "\n", self.goal), id="goal")
        yield OptionList(id="lessons")
        yield Static(self.notice or "", id="notice")
        yield Static("↑↓ choose · Enter open the lesson · Ctrl+Q quit", id="list-keys")

    def on_mount(self) -> None:
        self.refill()
        self.query_one(OptionList).focus()

    def on_screen_resume(self) -> None:
        self.refill()

    def refill(self) -> None:
        box = self.query_one(OptionList)
        at = box.highlighted or 0
        box.clear_options()
        done = set(self.done())
        for n, each in enumerate(self.lessons, 1):
            mark = "✓" if each.id in done else " "
            box.add_option(Option(f"{mark} {n}. {each.title}", id=each.id))
        box.highlighted = min(at, len(self.lessons) - 1)

    @on(OptionList.OptionSelected, "#lessons")
    def chosen(self, event: OptionList.OptionSelected) -> None:
        self.post_message(self.Chosen(event.option_index))


class LessonScreen(Screen[None]):
    """One lesson: the position on the left, the explanation on the right, then the task,
    what the engine said of the last answer, and the line to answer on."""

    BINDINGS = [Binding("escape", "back", "back to the lessons"),
                Binding("pagedown", "scroll_text(1)", "more of the lesson's text"),
                Binding("pageup", "scroll_text(-1)", "the lesson's text back")]

    KEYS = "Enter answer · hint · show (the answer) · Esc the lessons · Ctrl+Q quit"
    # when the text beside the position is longer than its panel (80x24 is laid out for)
    SCROLL_KEYS = "Enter answer · hint · show · PgDn/PgUp more text · Esc lessons · Ctrl+Q quit"

    class Finished(Message):
        """The last step of the lesson was answered."""

        def __init__(self, lesson: Lesson) -> None:
            super().__init__()
            self.lesson = lesson

    def __init__(self, lesson: Lesson, number: int, of: int, plain: bool = False) -> None:
        super().__init__()
        self.lesson = lesson
        self.number = number  # its place in the list of ``of`` lessons
        self.of = of
        self.plain = plain
        self.at = 0  # the step on screen
        self.solved = False
        self.played: Play | None = None

    @property
    def step(self) -> Step:
        return self.lesson.steps[self.at]

    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            yield Static(id="setup")
            with VerticalScroll(id="teach"):
                yield Static(id="teach-text")
        yield Static(id="task")
        yield Static(id="said")
        yield Input(id="answer")
        yield Static(id="lesson-keys")

    def on_mount(self) -> None:
        self.query_one("#answer", Input).cursor_blink = False
        self.redraw()
        self.query_one("#answer", Input).focus()

    def redraw(self) -> None:
        step = self.step
        setup = self.query_one("#setup", Static)
        setup.set_class(step.game != "kings", "cribbage")
        self.set_class(step.game != "kings", "cribbage-step")
        setup.update(setup_view(step, self.plain, self.played))
        teach = Text(self.lesson.title, style="bold")
        teach.append(f"\nlesson {self.number} of {self.of}", style="dim")
        teach.append("\n\n" + self.lesson.teach.replace("\n", "\n\n"))
        self.query_one("#teach-text", Static).update(teach)
        task = Text(f"Step {self.at + 1} of {len(self.lesson.steps)}: ", style="bold")
        task.append(step.task)
        self.query_one("#task", Static).update(task)
        answer = self.query_one("#answer", Input)
        answer.placeholder = ("Enter: the next step" if self.solved and self.more_steps()
                              else "Enter: back to the lessons" if self.solved
                              else f"Type {ANSWER_HINT[step.answer]}; hint; show")
        self.call_after_refresh(self.show_keys)

    def show_keys(self) -> None:
        """The keys, PgDn and PgUp among them while the lesson's text overflows."""
        more = self.query_one("#teach", VerticalScroll).max_scroll_y > 0
        self.query_one("#lesson-keys", Static).update(self.SCROLL_KEYS if more else self.KEYS)

    def on_resize(self) -> None:
        self.call_after_refresh(self.show_keys)

    def action_scroll_text(self, pages: int) -> None:
        teach = self.query_one("#teach", VerticalScroll)
        if pages > 0:
            teach.scroll_page_down(animate=False)
        else:
            teach.scroll_page_up(animate=False)

    def more_steps(self) -> bool:
        return self.at + 1 < len(self.lesson.steps)

    def say(self, verdict: Verdict | Text) -> None:
        if isinstance(verdict, Text):
            line = verdict
        else:
            line = Text("✓ " if verdict.ok else "✗ ",
                        style=GOOD_STYLE if verdict.ok else BAD_STYLE)
            line.append(verdict.message)
            if verdict.breakdown:
                line.append("  " + "; ".join(verdict.breakdown), style="dim")
        self.query_one("#said", Static).update(line)
        self.call_after_refresh(self.show_keys)  # a long answer leaves the text fewer rows

    @on(Input.Submitted, "#answer")
    def answered(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if self.solved:
            self.go_on()
            return
        word = text.lower()
        if word == "hint":
            self.say(Text(f"Hint: {self.step.hint}"))
            return
        if word == "show":
            self.say(Text(f"The answer: {self.step.intended}"))
            return
        if not text:
            return
        verdict = check(self.step, text)
        self.say(verdict)
        if verdict.ok:
            self.solved = True
            if self.step.answer == "move":
                action = read_action(position_of(self.step), text)
                self.played = action if isinstance(action, Play) else None
            if not self.more_steps():
                self.post_message(self.Finished(self.lesson))
            self.redraw()

    def go_on(self) -> None:
        if not self.more_steps():
            self.action_back()
            return
        self.at += 1
        self.solved = False
        self.played = None
        self.say(Text(""))
        self.redraw()

    def action_back(self) -> None:
        self.app.pop_screen()


__all__ = ["LessonList", "LessonScreen"]
