"""JSON text from strangers: parsed only when it is valid text of a sensible depth.

Python's ``json`` accepts a lone surrogate escape (``"\\ud800"``), which later
breaks anything that encodes the string, and recurses once per nesting level
(a message nested a thousand deep raises RecursionError). Both are refused here
with a clear reason before anything else reads the message.
"""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 32  # no message of the API nests more than 4 deep


class BadText(ValueError):
    """Not valid UTF-8 text (or a lone surrogate escape): websocket close code 1007."""


class TooDeep(ValueError):
    """JSON nested more than :data:`MAX_DEPTH` levels."""


def nesting(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON ``text`` (strings skipped)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


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


def loads(data: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """Parse JSON from a stranger. Raises :class:`BadText` (not UTF-8, a lone surrogate),
    :class:`TooDeep` or ``ValueError`` (not JSON) with a message that says why."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise BadText(f"the body is not UTF-8 text (byte {e.start})") from None
    if nesting(data) > max_depth:
        raise TooDeep(f"JSON nested more than {max_depth} levels deep")
    try:
        value = json.loads(data)
    except json.JSONDecodeError as e:
        raise ValueError(f"not JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    _check_strings(value)
    return value
