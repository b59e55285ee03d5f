"""Reading a command's JSON argument: a file, `-` for standard input, or (where the
command allows it) the JSON text itself."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click


def read_json_argument(source: str, param_hint: str, inline: bool = False) -> Any:
    """The parsed JSON of ``source``; click.BadParameter naming ``param_hint`` when it is
    not a file (nor, with ``inline``, JSON text starting with ``{``) or not JSON."""
    if source == "-":
        text = sys.stdin.read()
    elif inline and source.lstrip().startswith("{"):
        text = source
    else:
        path = Path(source)
        if not path.is_file():
            what = "neither JSON nor a file" if inline else "not a file"
            raise click.BadParameter(f"{source!r} is {what}", param_hint=param_hint)
        text = path.read_text()
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise click.BadParameter(f"not JSON: {e}", param_hint=param_hint) from None
