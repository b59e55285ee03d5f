"""JSON text from outside the program (a web message, a user's file): parsed only when it
is valid text of a sensible depth, with a message that says what is wrong otherwise.

Python's ``json`` accepts a lone surrogate escape (``"\\ud800"``), which later
breaks anything that encodes the string; recurses once per nesting level (a text
nested a thousand deep raises RecursionError); and refuses a whole number of more
than 4300 digits with a bare ValueError. All three are refused here with a clear
reason before anything else reads the value.
"""

from __future__ import annotations

import json
import re
import sys
from itertools import accumulate
from typing import Any

MAX_DEPTH = 32  # no format of the project nests more than 8 deep

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r'[^\[\]{}"]+')


class JSONTextError(ValueError):
    """The text cannot be read as JSON; the message says why."""


class BadText(JSONTextError):
    """Not valid UTF-8 text (or a lone surrogate escape): websocket close code 1007."""


class TooDeep(JSONTextError):
    """JSON nested more than :data:`MAX_DEPTH` levels."""


class NotJSON(JSONTextError):
    """Not JSON (or a number too long to read)."""


def nesting(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON ``text`` (strings skipped; an
    unterminated string runs to the end). Regular expressions keep it linear and fast on
    megabytes of text."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    brackets = brackets.split('"', 1)[0]  # what follows an unterminated quote is a string
    steps = (1 if c in "[{" else -1 for c in brackets)
    return max(accumulate(steps, initial=0))


def _check_strings(value: Any) -> None:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise BadText("the text holds a lone surrogate (\\ud800-\\udfff)") from None
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def decode(data: bytes) -> str:
    """UTF-8 ``data`` as text; :class:`BadText` naming the first byte that is not."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BadText(f"not UTF-8 text (byte {e.start + 1} is 0x{data[e.start]:02X})") from None


def loads(data: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """Parse JSON from outside. Raises :class:`BadText` (not UTF-8, a lone surrogate),
    :class:`TooDeep` or :class:`NotJSON` (all ValueErrors) with a message that says why."""
    if isinstance(data, bytes):
        data = decode(data)
    if nesting(data) > max_depth:
        raise TooDeep(f"JSON nested more than {max_depth} levels deep")
    try:
        value = json.loads(data)
    except json.JSONDecodeError as e:
        raise NotJSON(f"not JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    except ValueError:  # only a whole number too long for int() gets here
        limit = sys.get_int_max_str_digits()
        raise NotJSON(f"a number has more than {limit} digits") from None
    _check_strings(value)
    return value


__all__ = ["MAX_DEPTH", "BadText", "JSONTextError", "NotJSON", "TooDeep", "decode", "loads",
           "nesting"]
