"""Names people give themselves: normalised so they read the same everywhere.

A name ends in NFC form; control, format (bidi overrides and isolates,
zero-width characters), separator-line, private-use and unassigned characters
are dropped, as are ``<`` and ``>``; runs of spaces shrink to one; each letter
keeps at most :data:`MAX_MARKS` combining marks; the result is cut to
:data:`MAX_NAME` characters. A person may not take a name that reads as a
computer seat's ("Computer (expert)", "ＣＯＭＰＵＴＥＲ", "C o m p u t e r",
Cyrillic "Сomputеr", "C0MPUTER"): names are compared by their confusable skeleton
(Unicode TS #39). A computer seat is named after its level, never as a person.
"""

from __future__ import annotations

import functools
import hashlib
import re
import unicodedata
from typing import Any

from kingscrib.players import level_names
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
    """What a name reads as: Unicode TS #39's confusable skeleton (ICU's) of the name,
    compatibility forms (full-width letters, ligatures) and case folded, and again
    until that changes nothing more (``C0MPUTER``: 0 is O's look-alike, then O
    is o); then marks and everything but letters and digits dropped. Look-alikes
    share a skeleton: Cyrillic ``Сomputеr`` and ``computer``, ``0`` and ``O``, ``1``,
    ``I`` and ``l``, ``rn`` and ``m``."""
    text = name
    for _ in range(4):
        # The skeleton first: compatibility folding would lose some look-alikes (the
        # Greek lunate sigma ϲ, a c to the eye, is a σ to NFKC).
        folded = unicodedata.normalize("NFKC", _spoof_checker().getSkeleton(0, text)).casefold()
        if folded == text:
            break
        text = folded
    text = unicodedata.normalize("NFD", text)
    return "".join(ch for ch in text if ch.isalnum() and unicodedata.category(ch)[0] != "M")


@functools.cache
def _spoof_checker() -> Any:
    import icu  # PyICU (the pyicu-wheels package)

    return icu.SpoofChecker()


def reads_as_computer(name: str) -> bool:
    """The name reads as a computer seat's (look-alike letters, spacing and case aside)."""
    return _computer() in skeleton(name)


@functools.cache
def _computer() -> str:
    return skeleton("computer")


def person_name(name: str | None, default: str) -> str:
    """A person's name, normalised; WebError(400) when it poses as a computer seat."""
    text = clean_name(name, default)
    if reads_as_computer(text):
        raise WebError(400, f"{text!r} reads as a computer seat's name; choose another name")
    return text


def computer_name(name: str | None, default: str, seat: int) -> str:
    """A computer seat's name: its level's (``default``, e.g. "Computer (greedy)"), so it
    always reads as a computer. WebError(400) when the creator gives it another one."""
    if name is not None and clean_name(name, "") not in ("", default):
        raise WebError(400, f"seat {seat + 1} is a computer: it is named after its level "
                            f"({default!r}); leave its name out")
    return default


def shown_seat_name(game: str, name: str, kind: str, level: str | None) -> str:
    """A seat's name as the pages show it. A computer seat reads as its level's title
    (kingscrib.players.level_names): the stored "Computer 2 (greedy)" shows as "Computer 2
    (Greedy)"; what is stored stays technical, so old games load unchanged. A computer
    seat stored under a person's name (before seats were named after their level) still
    reads as a computer's."""
    if kind != "computer":
        return name
    title = level_names.title(game, level or "")
    if not reads_as_computer(name):
        return f"Computer ({title})"
    if level and name.endswith(f"({level})"):
        return f"{name[:-len(level) - 2]}({title})"
    return name


DELETED = "deleted player"  # the name an account's seats take when it is deleted


def login_key(name: str) -> str:
    """What a log-in matches: the name in NFKC, casefolded (hashed: fixed length)."""
    folded = unicodedata.normalize("NFKC", name.strip()).casefold()
    return hashlib.sha256(folded.encode("utf-8")).hexdigest()


def look_key(name: str) -> str:
    """What two names must not share: the name's skeleton, as it reads (hashed)."""
    return hashlib.sha256(skeleton(name).encode("utf-8")).hexdigest()
