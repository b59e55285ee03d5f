"""The full-screen classic Cribbage game (Textual): the table, the cards, a drawn peg
board and the play as it happens, redrawn in place.

The widgets only draw and collect lines; every line goes to
:meth:`ClassicSession.handle` and every computer action to
:meth:`ClassicSession.computer_turn`, the same core as the line mode.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Input, RichLog, Static

from kingscrib.terminal.controllers.classic import ClassicSession
from kingscrib.terminal.controllers.kings import HANDOVER, MOVE, OVER, THINKING, Reply
from kingscrib.terminal.kings_app import (
    HandoverScreen,
    InfoScreen,
    message_line,
    own_move_first,
)
from kingscrib.terminal.widgets.too_small import TooSmallNotice


class ClassicApp(App[None]):
    """Classic Cribbage full screen; ``on_reply`` saves after every reply."""

    TITLE = "Classic Cribbage"
    AUTO_FOCUS = "#command"
    CSS = """
    Screen { layout: vertical; layers: base notice; }
    #table { height: auto; }
    #pegs { height: auto; margin: 1 0 0 0; }
    #log { height: 1fr; min-height: 4; border-top: solid $primary-darken-2; }
    #hand { height: 1; }
    #message { height: 2; }
    #command { height: 1; border: none; padding: 0 1; }
    #keys { height: 1; color: $text-muted; }
    """
    BINDINGS = [
        Binding("ctrl+q", "quit_game", "quit (saved)", priority=True),
        Binding("f1", "help", "help", priority=True),
    ]

    def __init__(self, session: ClassicSession, on_reply: Callable[[Reply], list[str]]) -> None:
        super().__init__()
        self.session = session
        self.on_reply = on_reply
        self.thinking = False
        self.own_move: list[Text] = []  # what the person's last move said

    def compose(self) -> ComposeResult:
        yield Static(id="table")
        yield Static(id="pegs")
        log = RichLog(id="log", wrap=True, markup=False, auto_scroll=True)
        log.can_focus = False
        yield log
        yield Static(id="hand")
        yield Static(id="message")
        yield Input(id="command", placeholder="")
        yield Static(id="keys")
        yield TooSmallNotice(id="too-small")

    def on_resize(self, event: events.Resize) -> None:
        self.query_one(TooSmallNotice).fit(event.size, self.TITLE)

    def on_mount(self) -> None:
        self.query_one("#command", Input).focus()
        self.say(self.session.intro())
        self.redraw()
        self.call_after_refresh(self.advance)

    def redraw(self) -> None:
        s = self.session
        self.query_one("#table", Static).update(s.table_view())
        self.query_one("#pegs", Static).update(s.peg_board())
        self.query_one("#hand", Static).update(s.hand_text())
        command = self.query_one("#command", Input)
        command.disabled = self.thinking or s.state != MOVE
        command.placeholder = s.prompt()
        self.query_one("#keys", Static).update(Text(
            f"{s.prompt()}… (keys are ignored)" if self.thinking else
            "Enter: do it · hint · coach · help (F1) · Ctrl+Q quit (the game is saved)"))

    def say(self, reply: Reply, computer: bool = False) -> None:
        notes = self.on_reply(reply)
        log = self.query_one("#log", RichLog)
        texts = [m for m in reply.messages if isinstance(m, Text)]
        for m in texts:
            if m.style != "bold red" and not m.plain.startswith("✗"):
                log.write(m)
        message = self.query_one("#message", Static)
        parts = own_move_first(self.own_move, reply,
                               texts + [Text(n, style="dim") for n in notes], computer)
        message.update(message_line(parts, message.size.width or self.size.width))
        if any(isinstance(m, Table) for m in reply.messages):
            self.push_screen(InfoScreen(Group(*reply.messages)))
        if reply.quit:
            self.exit()

    def advance(self) -> None:
        state = self.session.state
        if state == THINKING and not self.thinking:
            self.thinking = True
            self.redraw()
            self.think()
            return
        if state == HANDOVER and not isinstance(self.screen, HandoverScreen):
            self.push_screen(HandoverScreen(self.session.prompt()))
        elif state == OVER:
            self.query_one("#message", Static).update(Text(
                "The game is over: press Ctrl+Q to leave.", style="bold"))
        self.redraw()

    @work(thread=True, exclusive=True, group="computer")
    def think(self) -> None:
        reply = self.session.computer_turn()
        self.call_from_thread(self.computer_done, reply)

    def computer_done(self, reply: Reply) -> None:
        self.thinking = False
        self.say(reply, computer=True)
        self.advance()
        if self.focused is None and self.session.state == MOVE:
            self.query_one("#command", Input).focus()

    def handover_done(self) -> None:
        self.session.handle("")
        self.pop_screen()
        self.advance()
        self.query_one("#command", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if self.thinking:
            return
        self.own_move.clear()
        self.say(self.session.handle(text))
        self.advance()

    def on_key(self, event: events.Key) -> None:
        if self.thinking:  # keys typed while the computer plays never become commands
            event.stop()
            event.prevent_default()

    def action_quit_game(self) -> None:
        self.say(Reply(quit=True))

    def action_help(self) -> None:
        if not self.thinking and len(self.screen_stack) == 1:  # not over help itself
            self.say(self.session.handle("help"))


__all__ = ["ClassicApp"]
