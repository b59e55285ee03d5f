"""Which passwords an account may have (NIST SP 800-63B, section 5.1.1.2).

At least :data:`MIN_PASSWORD` characters (and at most :data:`MAX_PASSWORD`: Argon2 takes any
length, a request body not), any characters, no composition rules (no "a digit and a
capital"). Refused, with the reason said: a password that is the user name or holds it,
one of the commonly used passwords (``common_passwords.json``: those of 8 characters or
more among the 10,000 most common, case aside), and one character repeated or a plain
run of characters ("aaaaaaaa", "12345678", "abcdefgh", "98765432").
"""

from __future__ import annotations

import functools
import json
import unicodedata
from pathlib import Path
from typing import Any

from kingscrib.web.errors import WebError

MIN_PASSWORD, MAX_PASSWORD = 8, 256  # characters
_COMMON = Path(__file__).with_name("common_passwords.json")


@functools.cache
def common_passwords() -> frozenset[str]:
    return frozenset(json.loads(_COMMON.read_text("utf-8"))["passwords"])


def _folded(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def _repetitive(text: str) -> bool:
    """One character repeated, or each one the next (or the one before) of the last."""
    if len(set(text)) == 1:
        return True
    steps = {ord(b) - ord(a) for a, b in zip(text, text[1:], strict=False)}
    return steps in ({1}, {-1})


def weakness(password: str, name: str | None = None) -> str | None:
    """Why ``password`` may not be used (by the account ``name``); None: it may."""
    if len(password) < MIN_PASSWORD:
        return f"a password has at least {MIN_PASSWORD} characters"
    if len(password) > MAX_PASSWORD:
        return f"a password has at most {MAX_PASSWORD} characters"
    folded = _folded(password)
    typed = _folded(name or "").strip()
    if typed and (typed in folded or folded == typed.replace(" ", "")):
        return "a password may not be or hold your user name: choose another"
    if folded in common_passwords():
        return ("this password is among the most commonly used, the first ones guessed:"
                " choose another (a few unrelated words make a good one)")
    if _repetitive(folded):
        return ("a password of one repeated character or a plain run (aaaaaaaa, 12345678)"
                " is guessed at once: choose another")
    return None


def check_password(raw: Any, name: str | None = None) -> str:
    """``raw`` when it may be the password of ``name``; WebError(400) saying why not."""
    if not isinstance(raw, str):
        raise WebError(400, f"a password has at least {MIN_PASSWORD} characters")
    problem = weakness(raw, name)
    if problem is not None:
        raise WebError(400, problem)
    return raw
