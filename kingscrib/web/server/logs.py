"""Server logs without secrets: seat tokens and invite codes never reach a log line.

``kingscrib serve --log-format json`` writes the same lines as JSON objects, one a line.

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

from pythonjsonlogger.core import RESERVED_ATTRS
from pythonjsonlogger.json import JsonFormatter

# A value ends at a quote or a backslash too: in a JSON line a quote is escaped (\").
_SECRET_PARAM = re.compile(r"([?&;](?:[^=&;#\s\"\\]*(?:token|secret|invite)[^=&;#\s\"\\]*)=)"
                           r"[^&;#\s\"\\]*", re.IGNORECASE)


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


def log_config(log_format: str = "text", level: str = "warning") -> dict[str, Any]:
    """uvicorn's logging configuration with :class:`RedactSecrets` on every handler, the
    server's own loggers (and anything else that logs: the root) on the same handlers at
    ``level``. ``log_format`` "json": one JSON object a line (:class:`JsonLines`)."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["redact"] = {"()": RedactSecrets}
    for handler in config["handlers"].values():
        handler.setdefault("filters", []).append("redact")
    if log_format == "json":
        for name in ("default", "access"):
            config["formatters"][name] = {"()": JsonLines}
    config["loggers"]["kingscrib"] = {"handlers": ["default"], "level": level.upper(),
                                      "propagate": False}
    config["root"] = {"handlers": ["default"], "level": "WARNING"}
    return config


class JsonLines(JsonFormatter):
    """One JSON object a line (python-json-logger): ``time``, ``level``, ``logger``,
    ``message``, an exception's traceback as ``exc_info``; uvicorn's access lines also
    as ``client``, ``method``, ``path``, ``http_version``, ``status``. Secrets are
    redacted as in every log line, and once more in the finished line."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s %(message)s",
                         datefmt="%Y-%m-%dT%H:%M:%S%z",
                         rename_fields={"asctime": "time", "levelname": "level",
                                        "name": "logger"},
                         # uvicorn's copy of a message with colour codes
                         reserved_attrs=[*RESERVED_ATTRS, "color_message"],
                         # UTF-8 text, so that the redaction below sees "…" as it wrote it
                         json_ensure_ascii=False)

    def add_fields(self, log_data: dict[str, Any], record: logging.LogRecord,
                   message_dict: dict[str, Any]) -> None:
        super().add_fields(log_data, record, message_dict)
        args = record.args
        if record.name == "uvicorn.access" and isinstance(args, tuple) and len(args) == 5:
            log_data.update(zip(("client", "method", "path", "http_version", "status"), args))

    def format(self, record: logging.LogRecord) -> str:
        # The whole line once more: a traceback's text is not the message's arguments.
        return redact(super().format(record))
