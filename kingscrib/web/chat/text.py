"""What a chat message may say: text on one line, at most :data:`MAX_CHARS` characters.

A message is refused, never silently changed (beyond Unicode NFC and the spaces at its
ends), when it holds a control character, a line break or an invisible formatting
character (bidirectional overrides, zero-width spaces), a combining mark with no letter
or more than two on one letter: each could make a message read differently from what was
sent. The joiners emoji sequences need (U+200C, U+200D) stay.
"""

from __future__ import annotations

from typing import Any

from kingscrib.web.accounts.text_rules import checked_text

MAX_CHARS = 300


def chat_text(raw: Any) -> str:
    """The message as it will be shown; WebError(400) saying what is wrong with it (the
    rules of every typed text: kingscrib.web.accounts.text_rules)."""
    return checked_text(raw, "a chat message", MAX_CHARS, joiners=True,
                        empty="an empty message is not sent")
