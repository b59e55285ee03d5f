"""A seat's action checked before its game sees it: the action's name, the fields that
action takes and the type of each field (the game's ``action_model``, strictly: JSON's
own types, no number in a text or ``true`` for 1). Websocket messages and HTTP bodies
meet the same checks, so a game's rules only ever see well-typed actions."""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from kingscrib.web.errors import WebError


def shown(value: Any, limit: int = 20) -> str:
    """A value a client sent, short enough to quote in an error message."""
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    return repr(text[:limit]) if isinstance(value, str) else text[:limit]


def describe(error: Any, limit: int = 5) -> str:
    """What a validation error (pydantic's or FastAPI's) says is wrong, field by field:
    ``claim: Input should be a valid integer``."""
    problems = []
    for err in error.errors()[:limit]:
        where = ".".join(str(x) for x in err.get("loc", ()) if x != "body")
        problems.append(f"{where}: {err.get('msg')}" if where else str(err.get("msg")))
    return "; ".join(problems) or "bad request"


def checked_action(kind: Any, message: dict[str, Any]) -> dict[str, Any]:
    """``message`` as the game ``kind`` takes it (its fields left unset dropped);
    WebError(400) saying what is wrong otherwise."""
    fields = kind.action_fields()
    name = message.get("action")
    if not isinstance(name, str) or name not in fields:
        raise WebError(400, f"action must be one of {', '.join(fields)}, not {shown(name)}")
    extra = sorted(set(message) - {"action"} - fields[name])
    if extra:
        allowed = ", ".join(sorted(fields[name])) or "nothing else"
        raise WebError(400, f"a {name} does not take {', '.join(extra)[:60]} (it takes {allowed})")
    try:
        action = kind.action_model.model_validate(message, strict=True)
    except ValidationError as e:
        raise WebError(400, f"a {name}: {describe(e)}") from None
    checked: dict[str, Any] = action.model_dump(exclude_none=True)
    return checked
