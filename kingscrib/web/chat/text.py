"""What a chat message may say: text on one line, at most :data:`MAX_CHARS` characters.

A message is refused, never silently changed (beyond Unicode NFC and the spaces at its
ends), when it holds a control character, a line break or an invisible formatting
character (bidirectional overrides, zero-width spaces): each could make a message read
differently from what was sent. The joiners emoji sequences need (U+200C, U+200D) stay.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from kingscrib.web.errors import WebError

MAX_CHARS = 300
_REFUSED = {"Cc", "Cs", "Co", "Cn", "Zl", "Zp"}
_JOINERS = {"\u200c", "\u200d"}


def chat_text(raw: Any) -> str:
    """The message as it will be shown; WebError(400) saying what is wrong with it."""
    if not isinstance(raw, str):
        raise WebError(400, "a chat message is text")
    text = unicodedata.normalize("NFC", raw).strip(" ")
    for ch in text:
        kind = unicodedata.category(ch)
        if kind in _REFUSED or (kind == "Cf" and ch not in _JOINERS):
            what = "a line break" if ch in "\r\n\u2028\u2029" else "a control character"
            raise WebError(400, f"a chat message may not hold {what}"
                                f" (U+{ord(ch):04X}): write it on one line, as plain text")
    if not text:
        raise WebError(400, "an empty message is not sent")
    if len(text) > MAX_CHARS:
        raise WebError(400, f"a chat message is at most {MAX_CHARS} characters,"
                            f" not {len(text)}")
    return text
