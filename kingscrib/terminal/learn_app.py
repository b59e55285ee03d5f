"""The lessons in the terminal (Textual): a list of lessons, then one lesson at a time,
laid out for 80x24.

The widgets only draw and read lines; every answer goes to :func:`kingscrib.learn.check`,
so the terminal and the web page accept and explain exactly the same answers.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Group, RenderableType
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from kingscrib.classic.cards import parse_cards
from kingscrib.classic.pegging import count_of
from kingscrib.kings.moves import Play
from kingscrib.learn import check, lessons
from kingscrib.learn import progress as learn_progress
from kingscrib.learn.kings import position_of, read_action
from kingscrib.learn.lesson import DISCARD, GOALS, NUMBER, PEG, Lesson, Step, Verdict
from kingscrib.terminal.views.kings import GOOD_STYLE, render_board, render_rack
from kingscrib.terminal.widgets.too_small import TooSmallNotice

TITLES = {"kings": "Kings Cribbage", "cribbage": "Cribbage"}
BAD_STYLE = "bold red"


def cards_text(texts: list[str]) -> str:
    return " ".join(c.pretty() for c in parse_cards(texts))


def setup_view(step: Step, plain: bool, played: Play | None = None) -> RenderableType:
    """The prepared position: the board and rack, or the cards (``played``: the accepted
    play, marked on the board)."""
    setup = step.setup
    if step.game == "kings":
        position = position_of(step)
        board = dict(position.board)
        if played is not None:
            board.update(played.placed)
        left = list(position.rack)
        for tile in (played.placed.values() if played is not None else ()):
            left.remove(tile.held())  # an accepted play's tiles came from the rack
        rack = Text("Your rack: ", style="bold")
        rack.append_text(render_rack(left, plain))
        bag = setup.get("bag") or 0
        rack.append(f"   bag {bag}" if bag else "   the bag is empty", style="dim")
        marked = played.placed if played is not None else ()
        return Group(render_board(board, marked, plain), Text(""), rack)
    out = Text()
    if step.answer == NUMBER:
        label = "The crib" if setup.get("crib") else "The hand"
        out.append(f"{label}: ", style="bold")
        out.append(cards_text(setup["hand"]))
        out.append("   Starter: ", style="bold")
        out.append(cards_text([setup["starter"]]))
    elif step.answer == DISCARD:
        out.append("Your six cards: ", style="bold")
        out.append(cards_text(setup["cards"]))
        out.append("\n" + ("You deal: the crib is yours." if setup["dealer"]
                           else "Your opponent deals: the crib is theirs."), style="dim")
    elif step.answer == PEG:
        pile = parse_cards(setup["pile"])
        out.append("Laid so far: ", style="bold")
        out.append(f"{cards_text(setup['pile'])}  (count {count_of([c.rank for c in pile])})")
        out.append("\nYour hand: ", style="bold")
        out.append(cards_text(setup["hand"]))
    return out


ANSWER_HINT = {"move": "a move, e.g. H7 across 6 9 K, exchange 8, pass",
               NUMBER: "a number of points", DISCARD: "two cards, e.g. 6C 9C",
               PEG: "a card, e.g. 7D, or go"}


class LessonList(Screen[None]):
    """The game's goal in two lines and its lessons, finished ones ticked."""

    DEFAULT_CSS = """
    LessonList { padding: 0 1; }
    #goal { height: auto; margin-bottom: 1; }
    #lessons { height: 1fr; }
    #list-keys { height: 1; color: $text-muted; }
    """

    def compose(self) -> ComposeResult:
        app: LearnApp = self.app  # type: ignore[assignment]
        yield Static(Text.assemble((f"Learn {TITLES[app.game]}", "bold"), "\n",
                                   GOALS[app.game]), id="goal")
        yield OptionList(id="lessons")
        yield Static(app.notice or "", id="notice")
        yield Static("↑↓ choose · Enter open the lesson · Ctrl+Q quit", id="list-keys")

    def on_mount(self) -> None:
        self.refill()
        self.query_one(OptionList).focus()

    def on_screen_resume(self) -> None:
        self.refill()

    def refill(self) -> None:
        app: LearnApp = self.app  # type: ignore[assignment]
        box = self.query_one(OptionList)
        at = box.highlighted or 0
        box.clear_options()
        done = set(app.progress[app.game])
        for n, each in enumerate(app.lessons, 1):
            mark = "✓" if each.id in done else " "
            box.add_option(Option(f"{mark} {n}. {each.title}", id=each.id))
        box.highlighted = min(at, len(app.lessons) - 1)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        app: LearnApp = self.app  # type: ignore[assignment]
        app.open_lesson(event.option_index)


class LessonScreen(Screen[None]):
    """One lesson: the position on the left, the explanation on the right, then the task,
    what the engine said of the last answer, and the line to answer on."""

    DEFAULT_CSS = """
    #top { height: 17; }
    #setup { width: 49; }
    #cribbage-setup { width: 1fr; height: auto; }
    #teach { width: 1fr; border-left: solid $primary-darken-2; padding: 0 1; }
    #task { height: 2; }
    #said { height: 2; }
    #answer { height: 1; border: none; padding: 0 1; }
    #lesson-keys { height: 1; color: $text-muted; }
    """
    BINDINGS = [Binding("escape", "back", "back to the lessons")]

    def __init__(self, lesson: Lesson, number: int) -> None:
        super().__init__()
        self.lesson = lesson
        self.number = number
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
        app: LearnApp = self.app  # type: ignore[assignment]
        step = self.step
        setup = self.query_one("#setup", Static)
        setup.set_class(step.game != "kings", "cribbage")
        setup.update(setup_view(step, app.plain, self.played))
        teach = Text(self.lesson.title, style="bold")
        teach.append(f"\nlesson {self.number} of {len(app.lessons)}", style="dim")
        teach.append("\n\n" + self.lesson.teach.replace("\n", "\n\n"))
        self.query_one("#teach-text", Static).update(teach)
        task = Text(f"Step {self.at + 1} of {len(self.lesson.steps)}: ", style="bold")
        task.append(step.task)
        self.query_one("#task", Static).update(task)
        answer = self.query_one("#answer", Input)
        answer.placeholder = ("Enter: the next step" if self.solved and self.more_steps()
                              else "Enter: back to the lessons" if self.solved
                              else f"Type {ANSWER_HINT[step.answer]}; hint; show")
        self.query_one("#lesson-keys", Static).update(
            "Enter answer · hint · show (the answer) · Esc the lessons · Ctrl+Q quit")

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

    def on_input_submitted(self, event: Input.Submitted) -> None:
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
                app: LearnApp = self.app  # type: ignore[assignment]
                app.finished(self.lesson)
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


class LearnApp(App[None]):
    """The lessons of ``game``; ``save`` keeps the progress after each finished lesson
    (None: not kept, the file could not be read and is left alone)."""

    CSS = "Screen { layers: base notice; }"
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

    def compose(self) -> ComposeResult:
        yield TooSmallNotice(id="too-small")

    def on_mount(self) -> None:
        self.push_screen(LessonList())

    def on_resize(self, event: events.Resize) -> None:
        self.query_one(TooSmallNotice).fit(event.size, self.title)

    def open_lesson(self, index: int) -> None:
        self.push_screen(LessonScreen(self.lessons[index], index + 1))

    def finished(self, lesson: Lesson) -> None:
        self.progress = learn_progress.finish(self.progress, self.game, lesson.id)
        if self.save is not None:
            self.save(self.progress)


__all__ = ["LearnApp", "setup_view"]
