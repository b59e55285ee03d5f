"""User text quoted in a message so that a reader can see what it holds.

``repr`` shows a byte that is not UTF-8 (which Python turns into a lone surrogate,
U+DC80-U+DCFF, when it reads a command's arguments) as ``'\\udcff'``: that means
nothing to a player. Here it is named as the byte, and any other character that does
not print (a control character, a lone surrogate) by its code point.

>>> quoted("5\\udcffH"), quoted("\\x07")
("'5<byte 0xFF>H'", "'<U+0007>'")
"""

from __future__ import annotations


def _escape(ch: str) -> str | None:
    """How a character that does not print is written (None when it prints)."""
    if ch.isprintable():
        return None
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape)
        return f"byte 0x{code - 0xDC00:02X}"
    return f"U+{code:04X}"


def escaped(text: str, limit: int = 40) -> str:
    """``text`` with each character that does not print written ``<U+0007>`` or
    ``<byte 0xFF>``, cut to ``limit`` characters with an ellipsis."""
    cut = text if len(text) <= limit else text[:limit] + "…"
    return "".join(f"<{_escape(c)}>" if _escape(c) else c for c in cut)


def quoted(text: str, limit: int = 40) -> str:
    """:func:`escaped` ``text`` in quotes."""
    return f"'{escaped(text, limit)}'"


__all__ = ["escaped", "quoted"]
