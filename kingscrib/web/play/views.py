"""What each seat sees of a live game: the state and update messages, with the clocks
(counted down to now) and an early ending spliced in, and the push to every listener."""

from __future__ import annotations

import json
from typing import Any

from kingscrib.web.play import finish
from kingscrib.web.play.room import Room

_STATE_PREFIX = '{"type":"state","state":'


async def broadcast(room: Room) -> None:
    """Push what changed since the last push to every listener, as the game words it
    (Kings: ``{"type": "update", "update": ...}`` with only what changed; other games
    may send the whole state)."""
    listeners = list(room.listeners)
    messages = room.game.updates(room, [listener.seat for listener in listeners])
    extra = clock_text(room)
    for listener, message in zip(listeners, messages):
        try:
            await listener.send(spliced(message, extra))
        except Exception:
            room.listeners.discard(listener)
    room.sent_version = room.version


def state_message(room: Room, seat: int | None) -> str:
    """``{"type": "state", "state": ...}`` as JSON text for ``seat``."""
    message = spliced(room.game.state_message(room, seat), clock_text(room))
    return message if isinstance(message, str) else json.dumps(message)


def state_text(room: Room, seat: int | None) -> str:
    """:func:`state` as JSON text: while the game runs, taken from the state message,
    whose public part is encoded once a version (pollers of a game cost little)."""
    message = state_message(room, seat)
    if room.result is None and message.startswith(_STATE_PREFIX):
        return message[len(_STATE_PREFIX):-1]
    return json.dumps(state(room, seat), separators=(",", ":"))


def state(room: Room, seat: int | None) -> dict[str, Any]:
    """The game as ``seat`` may see it (None: a spectator)."""
    data = dict(room.game.state(room, seat))
    data.update(finish.state_fields(room))
    if room.result is not None and "waiting" in data:
        data["waiting"] = []  # nobody is waited for once the game is over
    return data


def clock_text(room: Room) -> str:
    """The clocks (counted down to now, never cached) and an early ending, as JSON members
    added to every state and update message (``"result"`` not null: the game is over)."""
    data = finish.state_fields(room)
    return "," + json.dumps({"clock": data["clock"], "result": data["result"]},
                            separators=(",", ":"))[1:-1]


def spliced(message: str | dict[str, Any], extra: str) -> str | dict[str, Any]:
    """``extra`` added to the inner object of a ``{"type": ..., "state"/"update": {...}}``
    message (its text ends with the two closing braces)."""
    if isinstance(message, dict):
        inner = next((k for k in ("state", "update") if isinstance(message.get(k), dict)), None)
        if inner is None:
            return message
        return dict(message, **{inner: dict(message[inner], **json.loads("{" + extra[1:] + "}"))})
    if not message.endswith("}}"):
        return message
    return message[:-2] + extra + "}}"
