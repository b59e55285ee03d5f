"""Lines and help tables of a reply drawn with Rich: each tone of
:mod:`kingscrib.terminal.controllers.reply` gets its look here."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from kingscrib.terminal.controllers.reply import (
    ALERT,
    COMMAND,
    ERROR,
    GOAL,
    HEADING,
    PLAIN,
    QUIET,
    RED_CARD,
    STRONG,
    WARNING,
    WIN,
    Help,
    Line,
)

ERROR_STYLE = "bold red"
GOOD_STYLE = "bold green"
TONE_STYLE = {
    PLAIN: "", STRONG: "bold", QUIET: "dim", ERROR: ERROR_STYLE, WARNING: "yellow",
    ALERT: "bold yellow", WIN: GOOD_STYLE, GOAL: "italic", HEADING: "bold underline",
    COMMAND: "bold cyan", RED_CARD: "bold red",
}


def line_text(line: Line) -> Text:
    """A line in its tones."""
    out = Text(style=TONE_STYLE[line.tone])
    for text, tone in line.runs:
        out.append(text, style=TONE_STYLE[tone] or None)
    return out


def help_table(help: Help) -> Table:
    """The commands and what each does, in two columns."""
    table = Table(box=None, padding=(0, 2), show_header=False)
    table.add_column(style=TONE_STYLE[COMMAND], no_wrap=True)
    table.add_column()
    for command, meaning in help.rows:
        table.add_row(command, meaning)
    return table


__all__ = ["ERROR_STYLE", "GOOD_STYLE", "TONE_STYLE", "help_table", "line_text"]
