"""The app shell the full-screen games and the lessons share.

:class:`TerminalApp` is what every full-screen app has: the common styles, a notice over
everything while the terminal is too small, and its title. :class:`GameApp` adds what
both games have: a session core (:class:`~kingscrib.terminal.controllers.kings.Session`
or :class:`~kingscrib.terminal.controllers.classic.ClassicSession`) that every typed line
goes to, the computer's turns played in a worker thread, the hot-seat hand-over, Ctrl+Q
and F1. Each game plugs in its widgets (:meth:`GameApp.compose_game`), how it draws the
session (:meth:`GameApp.redraw`) and how it shows a reply (:meth:`GameApp.say`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path, PurePath
from typing import ClassVar, Generic, Protocol, TypeVar

from rich.text import Text
from textual import events, on, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.widgets import Input, Static

from kingscrib.terminal.controllers.kings import HANDOVER, OVER, THINKING, Reply
from kingscrib.terminal.screens.handover import HandoverScreen
from kingscrib.terminal.widgets.too_small import TooSmallNotice

STYLES = Path(__file__).parent / "styles"


def styles(*names: str) -> list[str | PurePath]:
    """The style sheets ``styles/<name>.tcss``, after the common one."""
    return [STYLES / f"{name}.tcss" for name in ("common", *names)]


class TerminalApp(App[None]):
    """A full-screen app laid out for 80x24: the common styles, and the notice over
    everything while the terminal is smaller than that."""

    CSS_PATH = styles()

    def compose(self) -> ComposeResult:
        yield from self.compose_game()
        yield TooSmallNotice(id="too-small")

    def compose_game(self) -> Iterable[Widget]:
        """The app's own widgets, under the notice."""
        return ()

    def on_resize(self, event: events.Resize) -> None:
        self.query_one(TooSmallNotice).fit(event.size, self.title)


class SessionCore(Protocol):
    """What the shell asks of a game's session core (both cores answer it)."""

    @property
    def state(self) -> str: ...

    def prompt(self) -> str: ...

    def intro(self) -> Reply: ...

    def handle(self, text: str) -> Reply: ...

    def computer_turn(self) -> Reply: ...

    def rematch(self) -> None: ...


SessionT = TypeVar("SessionT", bound=SessionCore)


class GameApp(TerminalApp, Generic[SessionT]):
    """A game full screen over a session core; ``on_reply`` saves after every reply (the
    autosave) and returns the notes to show."""

    AUTO_FOCUS = "#command"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit_game", "quit (saved)", priority=True),
        Binding("f1", "help", "help", priority=True),
        Binding("ctrl+r", "rematch", "a rematch (when the game is over)", priority=True),
    ]

    def __init__(self, session: SessionT, on_reply: Callable[[Reply], list[str]]) -> None:
        super().__init__()
        self.session = session
        self.save_reply = on_reply
        self.saved_to: list[str] = []  # where the finished games' records were saved
        self.thinking = False  # a computer (or the hint search) is at work: keys are ignored
        self.busy = ""  # what the app is busy with, when not the computer's turn
        self.own_move: list[Text] = []  # what the person's last move said

    # ----- what each game plugs in ------------------------------------------------------
    def redraw(self) -> None:
        """Draw the session as it is now."""
        raise NotImplementedError

    def say(self, reply: Reply, computer: bool = False) -> None:
        """Show a reply (``computer``: to a computer's turn) and save as it asks."""
        raise NotImplementedError

    def game_key(self, event: events.Key) -> None:
        """A key the game may act on (none is typed while a computer thinks)."""

    def state_shown(self, state: str) -> None:
        """Show a state of the session the shell does not know (the next game of a match)."""

    def on_reply(self, reply: Reply) -> list[str]:
        """Save what ``reply`` asks; the notes to show (kept when they say where a finished
        game's record was saved, for the end of the game)."""
        notes = self.save_reply(reply)
        if reply.finished:
            self.saved_to = [n for n in notes if "record saved" in n.lower()]
        return notes

    def over_message(self) -> str:
        return "The game is over"

    def over_text(self) -> Text:
        """The end: what next, with the keys, and where the record was saved."""
        out = Text(f"{self.over_message()}: Ctrl+R a rematch · Ctrl+Q leave.", style="bold")
        for note in self.saved_to:  # the path alone on its line, so that it fits in 80
            path = note.partition("saved to ")[2] or note
            home = str(Path.home())
            if path.startswith(home + "/"):
                path = "~" + path[len(home):]
            out.append("\nRecord saved: ", style="dim")
            out.append(path, style="dim")
        return out

    def over_keys(self) -> Text:
        return Text("Ctrl+R a rematch · F1 help · Ctrl+Q quit")

    def restarted(self) -> None:
        """A rematch began: forget what was shown of the last game."""

    def focus_after_computer(self) -> bool:
        """Whether the command line takes the focus back after a computer's turn."""
        return True

    def handed_over(self) -> None:
        """The next player is at the keyboard: forget what the last one laid out."""

    # ----- the flow of the game ---------------------------------------------------------
    def on_mount(self) -> None:
        self.query_one("#command", Input).focus()
        self.say(self.session.intro())
        self.redraw()
        self.call_after_refresh(self.advance)

    def advance(self) -> None:
        """Do what the state of the session asks: let a computer move, hand the keyboard
        over, or end."""
        state = self.session.state
        if state == THINKING and not self.thinking:
            self.thinking = True
            self.redraw()
            self.think()
        elif state == HANDOVER:
            if not isinstance(self.screen, HandoverScreen):
                self.push_screen(HandoverScreen(self.session.prompt()))
        elif state == OVER:
            self.query_one("#message", Static).update(self.over_text())
        else:
            self.state_shown(state)
        self.redraw()

    @work(thread=True, exclusive=True, group="computer")
    def think(self) -> None:
        reply = self.session.computer_turn()
        self.call_from_thread(self.computer_done, reply)

    def computer_done(self, reply: Reply) -> None:
        self.thinking, self.busy = False, ""
        self.say(reply, computer=True)
        self.advance()
        if self.focused is None and self.focus_after_computer():
            # the command line was disabled while the computer thought
            self.query_one("#command", Input).focus()

    @on(HandoverScreen.Done)
    def handover_done(self) -> None:
        self.session.handle("")
        self.handed_over()
        self.pop_screen()
        self.advance()
        self.query_one("#command", Input).focus()

    @on(HandoverScreen.Quit)
    def handover_quit(self) -> None:
        self.action_quit_game()

    # ----- input ------------------------------------------------------------------------
    def on_key(self, event: events.Key) -> None:
        if self.thinking:  # keys typed while the computer thinks never become commands
            event.stop()
            event.prevent_default()
            return
        self.game_key(event)

    def action_quit_game(self) -> None:
        self.say(Reply(quit=True))

    def action_rematch(self) -> None:
        if self.thinking or self.session.state != OVER or len(self.screen_stack) > 1:
            return
        self.session.rematch()
        self.saved_to = []
        self.own_move = []
        self.restarted()
        self.say(self.session.intro())
        self.redraw()
        self.query_one("#command", Input).focus()
        self.call_after_refresh(self.advance)

    def action_help(self) -> None:
        if not self.thinking and len(self.screen_stack) == 1:  # not over help itself
            self.say(self.session.handle("help"))


__all__ = ["GameApp", "SessionCore", "TerminalApp", "styles"]
