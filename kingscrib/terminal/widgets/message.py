"""The message line under the board or the hand: what the last reply said, in as many
whole parts as fit."""

from __future__ import annotations

from rich.text import Text

from kingscrib.terminal.controllers.kings import Reply


def message_line(parts: list[Text], width: int, rows: int = 2) -> Text:
    """The message line under the board or the hand: the first line of each part, two
    spaces apart, as many whole parts as fit in ``rows`` rows of ``width`` (the first
    always); an ellipsis marks what is left out (in the log, or too long for the line),
    so that no part is cut off in the middle."""
    room = rows * width - 8  # a word that does not fit wraps whole: leave room for it
    line = Text()
    for part in parts:
        first = part.split("\n")[0] if part.plain else part
        gap = "  " if line.plain else ""
        if line.plain and len(line.plain) + len(gap) + len(first.plain) > room:
            line.append(" …", style="dim")
            break
        line.append(gap)
        line.append_text(first)
    return line


def own_move_first(kept: list[Text], reply: Reply, parts: list[Text],
                   computer: bool) -> list[Text]:
    """The message line's parts. A person's move is kept in ``kept`` and shown before the
    computers' answers to it, so that a player sees their own move and its points, not
    only the reply."""
    if computer:
        return kept + parts
    if reply.changed:
        kept[:] = parts
    return parts



__all__ = ["message_line", "own_move_first"]
