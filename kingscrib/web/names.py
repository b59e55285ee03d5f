"""Names people give themselves: normalised so they read the same everywhere.

A name ends in NFC form; control, format (bidi overrides and isolates,
zero-width characters), separator-line, private-use and unassigned characters
are dropped, as are ``<`` and ``>``; runs of spaces shrink to one; each letter
keeps at most :data:`MAX_MARKS` combining marks; the result is cut to
:data:`MAX_NAME` characters. A person may not take a name that reads as a
computer seat's ("Computer (expert)", "ＣＯＭＰＵＴＥＲ", "C o m p u t e r").
"""

from __future__ import annotations

import re
import unicodedata

from kingscrib.web.errors import WebError

MAX_NAME = 24
MAX_MARKS = 2
_DROPPED = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def clean_name(name: str | None, default: str) -> str:
    """``name`` normalised (``default`` when nothing is left)."""
    # Marks are counted decomposed, so a precomposed letter counts its own.
    text = unicodedata.normalize("NFD", name or "")
    out: list[str] = []
    marks = 0
    for ch in text:
        category = unicodedata.category(ch)
        if ch.isspace() or category == "Zs":
            ch, category = " ", "Zs"
        elif category in _DROPPED or ch in "<>":
            continue
        if category in ("Mn", "Me", "Mc"):
            if not out or marks >= MAX_MARKS:
                continue
            marks += 1
        else:
            marks = 0
        out.append(ch)
    text = unicodedata.normalize("NFC", re.sub(" +", " ", "".join(out)).strip())
    # Cut at MAX_NAME letters without leaving a mark cut off from its letter.
    cut, letters = [], 0
    for ch in text:
        if unicodedata.category(ch) not in ("Mn", "Me", "Mc"):
            letters += 1
            if letters > MAX_NAME:
                break
        cut.append(ch)
    text = unicodedata.normalize("NFC", "".join(cut)).strip()
    return text or default


def skeleton(name: str) -> str:
    """What a name reads as: compatibility forms folded (full-width letters, ligatures),
    marks, case and everything but letters and digits dropped."""
    text = unicodedata.normalize("NFKD", name).casefold()
    return "".join(ch for ch in text if ch.isalnum() and unicodedata.category(ch)[0] != "M")


def person_name(name: str | None, default: str) -> str:
    """A person's name, normalised; WebError(400) when it poses as a computer seat."""
    text = clean_name(name, default)
    if "computer" in skeleton(text):
        raise WebError(400, f"{text!r} reads as a computer seat's name; choose another name")
    return text
