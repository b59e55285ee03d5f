"""Names people give themselves: normalised so they read the same everywhere.

A name ends in NFC form; control, format (bidi overrides and isolates,
zero-width characters), separator-line, private-use and unassigned characters
are dropped, as are ``<`` and ``>``; runs of spaces shrink to one; each letter
keeps at most :data:`MAX_MARKS` combining marks; the result is cut to
:data:`MAX_NAME` characters. A person may not take a name that reads as a
computer seat's ("Computer (expert)", "ＣＯＭＰＵＴＥＲ", "C o m p u t e r",
Cyrillic "Сomputеr", "C0MPUTER"): names are compared by their confusable skeleton
(Unicode TS #39), extended to the small capitals and the modifier and subscript letters
ICU leaves alone ("Ann Lᴇᴇ", "Aɴɴ Lee" read as "Ann Lee"). Nor may a person take a name
that imitates one ("Bot (expert)", "AI (expert)", "Komputer (expert)": a computer's
level in brackets, or a machine's word for a name). A computer seat is named after its
level, never as a person.
"""

from __future__ import annotations

import functools
import hashlib
import re
import unicodedata
from typing import Any

from kingscrib.players import level_names
from kingscrib.web.accounts.text_rules import checked_text
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
        text = text.translate(_small_letters())
        folded = unicodedata.normalize("NFKC", _spoof_checker().getSkeleton(0, text)).casefold()
        if folded == text:
            break
        text = folded
    text = unicodedata.normalize("NFD", text)
    return "".join(ch for ch in text if ch.isalnum() and unicodedata.category(ch)[0] != "M")


_SMALL_LETTER = re.compile(r"LATIN LETTER SMALL CAPITAL ([A-Z]{1,2})|LATIN SMALL CAPITAL LETTER"
                           r" ([A-Z])|MODIFIER LETTER (?:SMALL|CAPITAL) ([A-Z])|LATIN"
                           r" SUBSCRIPT SMALL LETTER ([A-Z])")


@functools.cache
def _small_letters() -> dict[int, str]:
    """Latin small capitals (ᴇ, ʟ, ɴ), modifier (ᴱ, ᵉ) and subscript (ₑ) letters: the plain
    letter each reads as, where ICU's confusables do not say so."""
    found = {}
    blocks = ((0x0180, 0x0300), (0x1D00, 0x1DC0), (0x2090, 0x20A0), (0x2C60, 0x2C80),
              (0xA700, 0xA800), (0x10780, 0x107C0))  # where Unicode keeps them
    for code in (c for start, end in blocks for c in range(start, end)):
        named = _SMALL_LETTER.fullmatch(unicodedata.name(chr(code), ""))
        if named:
            found[code] = next(g for g in named.groups() if g).lower()
    return found


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


# Words for a machine that, with digits at most, make a name read as a computer's; and
# "computer" in other languages (contained anywhere, as "computer" is).
MACHINE_WORDS = ("bot", "robot", "cpu", "engine")
COMPUTER_WORDS = ("komputer", "kompjuter", "computador", "ordinateur", "rechner")
_BRACKETED = re.compile(r"[(\[{]([^)\]}]*)[)\]}]")


@functools.cache
def _level_skeletons() -> frozenset[str]:
    return frozenset(skeleton(word) for names in level_names.NAMES.values()
                     for entry in names for word in (entry.level, entry.title))


def imitates_computer(name: str) -> bool:
    """The name poses as a computer seat's: it reads as "computer" (in a few languages),
    names a computer level in brackets ("Bot (expert)", "Ann [Strong]"), or is a machine's
    word with digits at most ("Bot", "Robot 2", "CPU-3")."""
    if reads_as_computer(name):
        return True
    read = skeleton(name)
    if any(skeleton(word) in read for word in COMPUTER_WORDS):
        return True
    if any(skeleton(inside) in _level_skeletons() for inside in _BRACKETED.findall(
            unicodedata.normalize("NFKC", name))):
        return True
    letters = "".join(ch for ch in read if not ch.isdigit())
    return letters in {skeleton(word) for word in MACHINE_WORDS}


def person_name(name: str | None, default: str) -> str:
    """A person's name, normalised; WebError(400) when it poses as a computer seat."""
    text = clean_name(name, default)
    if imitates_computer(text):
        raise WebError(400, f"{text!r} reads as a computer seat's name; choose another name")
    return text


def checked_name(raw: Any, what: str = "a user name", max_chars: int = MAX_NAME) -> str:
    """A name people choose and others read (an account's, a team's), as typed, checked:
    the text rules (:mod:`kingscrib.web.accounts.text_rules`), single spaces, no ``<`` or
    ``>``, a letter or a digit, and no imitation of a computer. WebError(400) saying what
    is wrong; never changed beyond NFC and the spaces at its ends."""
    if not isinstance(raw, str) or not raw.strip():
        raise WebError(400, f"choose {what}")
    text = checked_text(raw.strip(), what, max_chars)
    if any(ch.isspace() and ch != " " for ch in text) or "  " in text or "<" in text \
            or ">" in text:
        raise WebError(400, f"{what} may hold single spaces only, and no < or >")
    if not skeleton(text):
        raise WebError(400, f"{what} needs a letter or a digit")
    if imitates_computer(text):
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
