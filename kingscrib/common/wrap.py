"""Wrapping text on word boundaries for a terminal of a given width.

A terminal left to wrap a long line cuts it at the last column, inside a number
("= 1" / "6") or a card's name. :func:`wrap_words` breaks only at plain spaces, so a
number, a card or a tile (one word each) is never split; a no-break space (U+00A0)
in the text joins two words on one row, and an operator standing alone (``=``,
``+``, ``x`` ...) stays on the row of the words either side of it ("+6.95 = 14.06").
"""

from __future__ import annotations

import re

from rich.cells import cell_len

NO_BREAK = "\u00a0"
OPERATORS = frozenset({"=", "+", "-", "x", "×", "≈", "→", "<", ">", "<=", ">="})
_SPACES = re.compile(r" +")


def _joined(words: list[str]) -> list[str]:
    """The words with each lone operator joined to its neighbours by a no-break space."""
    out: list[str] = []
    join_next = False
    for word in words:
        if out and (join_next or word in OPERATORS):
            out[-1] += NO_BREAK + word
        else:
            out.append(word)
        join_next = word in OPERATORS
    return out


def wrap_words(text: str, width: int) -> list[str]:
    """``text`` as rows of at most ``width`` cells, broken only at plain spaces between
    words that are not joined (a word wider than ``width`` has a row of its own). Lines
    of ``text`` stay lines; each row's no-break spaces come back as spaces."""
    rows: list[str] = []
    for line in text.split("\n"):
        indent = line[:len(line) - len(line.lstrip(" "))]
        words = _joined([w for w in _SPACES.split(line.strip(" ")) if w])
        row = ""
        for word in words:
            if row and cell_len(row) + 1 + cell_len(word) > width:
                rows.append(row)
                row = indent + word
            else:
                row = f"{row} {word}" if row else indent + word
        rows.append(row)
    return [row.replace(NO_BREAK, " ") for row in rows]
