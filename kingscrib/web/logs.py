"""Server logs without secrets: seat tokens and invite codes never reach a log line.

Tokens travel in headers or the websocket's first message, never in a URL the
server builds, but a page URL can still carry ``?invite=...`` and a client may
put anything in a query string: every logged URL has the values of ``invite``,
``token`` and any ``*token*``/``*secret*`` parameter replaced by ``…``.
"""

from __future__ import annotations

import copy
import logging
import re
from typing import Any

_SECRET_PARAM = re.compile(r"([?&;](?:[^=&;#\s\"]*(?:token|secret|invite)[^=&;#\s\"]*)=)"
                           r"[^&;#\s\"]*", re.IGNORECASE)


def redact(text: str) -> str:
    """``text`` with the values of secret-bearing query parameters replaced by ``…``."""
    return _SECRET_PARAM.sub(r"\1…", text)


class RedactSecrets(logging.Filter):
    """A logging filter that redacts secrets in the message and its arguments."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: redact(v) if isinstance(v, str) else v
                           for k, v in record.args.items()}
        return True


def log_config() -> dict[str, Any]:
    """uvicorn's logging configuration with :class:`RedactSecrets` on every handler."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["redact"] = {"()": RedactSecrets}
    for handler in config["handlers"].values():
        handler.setdefault("filters", []).append("redact")
    return config
