"""The full-screen classic Cribbage game (Textual): the table, the cards, a drawn peg
board and the play as it happens, redrawn in place.

The widgets only draw and collect lines; every line goes to
:meth:`ClassicSession.handle` and every computer action to
:meth:`ClassicSession.computer_turn`, the same core as the line mode. What both games
share is in :mod:`kingscrib.terminal.shell`; the look is in ``styles/classic.tcss``.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import on
from textual.widget import Widget
from textual.widgets import Input, RichLog, Static

from kingscrib.terminal.controllers.classic import ClassicSession
from kingscrib.terminal.controllers.reply import MOVE, OVER, Reply
from kingscrib.terminal.screens.info import InfoScreen
from kingscrib.terminal.shell import GameApp, styles
from kingscrib.terminal.views import classic as classic_view
from kingscrib.terminal.views.replies import render_message, render_messages
from kingscrib.terminal.widgets.message import message_line, own_move_first


class ClassicApp(GameApp[ClassicSession]):
    """Classic Cribbage full screen; ``on_reply`` saves after every reply."""

    TITLE = "Classic Cribbage"
    CSS_PATH = styles("classic")


    def compose_game(self) -> Iterable[Widget]:
        yield Static(id="table")
        yield Static(id="pegs")
        log = RichLog(id="log", wrap=True, markup=False, auto_scroll=True)
        log.can_focus = False
        yield log
        yield Static(id="hand")
        yield Static(id="message")
        yield Input(id="command", placeholder="")
        yield Static(id="keys")

    def redraw(self) -> None:
        s = self.session
        self.query_one("#table", Static).update(classic_view.table_view(s))
        self.query_one("#pegs", Static).update(render_message(s.peg_board()))
        self.query_one("#hand", Static).update(classic_view.hand_text(s))
        command = self.query_one("#command", Input)
        command.disabled = self.thinking or s.state != MOVE
        command.placeholder = s.prompt()
        self.query_one("#keys", Static).update(
            Text(f"{s.prompt()}… (keys are ignored)") if self.thinking else
            self.over_keys() if s.state == OVER else
            Text("Enter: do it · hint · coach · help (F1) · Ctrl+Q quit (the game is saved)"))

    def say(self, reply: Reply, computer: bool = False) -> None:
        notes = self.on_reply(reply)
        log = self.query_one("#log", RichLog)
        drawn = render_messages(reply)
        texts = [m for m in drawn if isinstance(m, Text)]
        for m in texts:
            if m.style != "bold red" and not m.plain.startswith("✗"):
                log.write(m)
        message = self.query_one("#message", Static)
        parts = own_move_first(self.own_move, reply,
                               texts + [Text(n, style="dim") for n in notes], computer)
        message.update(message_line(parts, message.size.width or self.size.width))
        if any(isinstance(m, Table) for m in drawn):
            self.push_screen(InfoScreen(Group(*drawn)))
        if reply.quit:
            self.exit()

    def focus_after_computer(self) -> bool:
        return self.session.state == MOVE

    @on(Input.Submitted, "#command")
    def command_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if self.thinking:
            return
        self.own_move.clear()
        self.say(self.session.handle(text))
        self.advance()


__all__ = ["ClassicApp"]
