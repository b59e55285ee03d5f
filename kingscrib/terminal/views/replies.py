"""A reply's messages drawn with Rich, whichever game they come from, and as plain text
(for the line mode's logs and the tests)."""

from __future__ import annotations

import io

from rich.console import Console, RenderableType

from kingscrib.terminal.controllers.reply import Help, Line, Message, Reply
from kingscrib.terminal.views import classic, kings
from kingscrib.terminal.views.lines import help_table, line_text


def render_message(message: Message, plain: bool = False) -> RenderableType:
    """One message drawn (``plain``: without colour)."""
    if isinstance(message, Line):
        return line_text(message)
    if isinstance(message, Help):
        return help_table(message)
    drawn = kings.render_message(message, plain)
    if drawn is None:
        drawn = classic.render_message(message, plain)
    if drawn is None:
        raise TypeError(f"no view draws a {type(message).__name__}")
    return drawn


def render_messages(reply: Reply, plain: bool = False) -> list[RenderableType]:
    return [render_message(m, plain) for m in reply.messages]


def plain_text(reply: Reply, width: int = 100) -> str:
    """The messages of ``reply`` as plain text, ``width`` columns wide."""
    console = Console(width=width, color_system=None, record=True, file=io.StringIO())
    for drawn in render_messages(reply):
        console.print(drawn)
    return console.export_text()


__all__ = ["plain_text", "render_message", "render_messages"]
