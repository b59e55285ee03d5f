"""What any text a person types may hold: the one check of names, tournament and team
names, chat messages and e-mail addresses.

Text is refused, never silently changed (beyond Unicode NFC and the spaces at its ends),
and the refusal says which character is wrong and where:

- control characters (NUL, ESC, line breaks...), surrogates, private-use and unassigned
  code points: they break storage (PostgreSQL refuses NUL) or terminals (ESC);
- bidirectional controls (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C) and
  every other invisible formatting character: they make text read differently from what
  was typed; only the joiners that emoji sequences need (U+200C, U+200D) may stay, where
  the field allows them (chat);
- a combining mark with no letter before it, or more than :data:`MAX_MARKS` marks piled on
  one letter ("Zalgo" text);
- text longer than the field's bound (counted in characters after NFC), or empty.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from kingscrib.web.errors import WebError

MAX_MARKS = 2  # combining marks on one letter (Vietnamese needs two)
JOINERS = frozenset("\u200c\u200d")
BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
_REFUSED = {"Cc", "Cs", "Co", "Cn", "Zl", "Zp"}
_MARKS = {"Mn", "Me", "Mc"}


_CONTROLS = {0x00: "NULL", 0x07: "BELL", 0x08: "BACKSPACE", 0x09: "TAB", 0x0A: "LINE FEED",
             0x0D: "CARRIAGE RETURN", 0x1B: "ESCAPE", 0x7F: "DELETE"}


def _named(ch: str) -> str:
    name = unicodedata.name(ch, "") or _CONTROLS.get(ord(ch), "")
    return f"U+{ord(ch):04X} {name}" if name else f"U+{ord(ch):04X}"


def refusal(text: str, what: str, *, joiners: bool = False) -> str | None:
    """What is wrong with ``text`` (NFC) for a field called ``what``; None: nothing."""
    marks = 0  # on the letter before; counted decomposed, so é counts its own mark
    for i, ch in enumerate(text):
        kind = unicodedata.category(ch)
        at = f"({_named(ch)}) at character {i + 1}"
        if ch in BIDI:
            return (f"{what} may not hold a bidirectional control {at}: it makes text read"
                    " in another order than typed")
        if ch in "\r\n\u2028\u2029" or kind in ("Zl", "Zp"):
            return f"{what} may not hold a line break {at}: write it on one line"
        if kind == "Cc":
            return f"{what} may not hold a control character {at}"
        if kind == "Cf" and not (joiners and ch in JOINERS):
            return f"{what} may not hold an invisible character {at}"
        if kind in _REFUSED:
            return f"{what} may not hold an unassigned or private-use character {at}"
        if kind in _MARKS:
            if i == 0 or text[i - 1].isspace():
                return f"{what} may not hold a combining mark with no letter before it {at}"
            marks += 1
        else:
            decomposed = unicodedata.normalize("NFD", ch)
            marks = sum(unicodedata.category(c) in _MARKS for c in decomposed[1:])
        if marks > MAX_MARKS:
            return (f"{what} may not pile more than {MAX_MARKS} combining marks on one"
                    f" letter (at character {i + 1})")
    return None


def checked_text(raw: Any, what: str, max_chars: int, *, joiners: bool = False,
                 empty: str | None = None) -> str:
    """``raw`` as it will be stored and shown (NFC, the spaces at its ends gone), checked;
    WebError(400) saying what is wrong. ``what`` names the field in the message ("a chat
    message"); ``empty``: the message for empty text (default: "``what`` is empty")."""
    if not isinstance(raw, str):
        raise WebError(400, f"{what} is text")
    text = unicodedata.normalize("NFC", raw).strip(" ")
    problem = refusal(text, what, joiners=joiners)
    if problem is not None:
        raise WebError(400, problem)
    if not text:
        raise WebError(400, empty or f"{what} is empty")
    if len(text) > max_chars:
        raise WebError(400, f"{what} is at most {max_chars} characters, not {len(text)}")
    return text
