"""Reading what a user hands a command: a file, `-` for standard input, or (where the
command allows it) JSON text itself.

Every command that reads a user's file goes through here, so a file of any content
gets a precise message and exit status 1, never a traceback: the size is bounded,
the text must be UTF-8, and JSON is read by :mod:`kingscrib.common.jsontext` (depth and
number length bounded).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

import click

from kingscrib.common import jsontext

# A game record is some kilobytes; a selfplay run of 10,000 games about 50 MB.
MAX_FILE_BYTES = 64 * 2**20
MAX_LINE_BYTES = 1 * 2**20  # one position, hand or record of a JSON-lines stream


class InputError(click.ClickException):
    """The user's input cannot be read; exit status 1 with the message."""


# A batch read from standard input reports each bad line and goes on, but stops after this
# many: a stream that is not hands at all (a binary file) gets a summary, not a flood.
MAX_ERRORS = 20


def too_many_errors(count: int, what: str) -> str:
    """The summary a batch ends with after ``count`` bad lines."""
    return (f"stopped after {count} lines that are not {what}: is this the right input?"
            f" ({count} is the most reported)")


def describe(source: str) -> str:
    return "standard input" if source == "-" else repr(source)


def open_binary(source: str) -> BinaryIO:
    """The bytes of ``source`` (`-`: standard input); InputError when it cannot be opened."""
    if source == "-":
        return sys.stdin.buffer
    path = Path(source)
    if not path.exists():
        raise InputError(f"{source!r} does not exist")
    if path.is_dir():
        raise InputError(f"{source!r} is a folder, not a file")
    try:
        return path.open("rb")
    except OSError as e:
        raise InputError(f"cannot read {source!r}: {e.strerror or e}") from None


def read_text(source: str) -> str:
    """All of ``source`` as text: at most MAX_FILE_BYTES of UTF-8 and not empty."""
    stream = open_binary(source)
    try:
        data = stream.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise InputError(f"cannot read {describe(source)}: {e.strerror or e}") from None
    finally:
        if source != "-":
            stream.close()
    if len(data) > MAX_FILE_BYTES:
        raise InputError(f"{describe(source)} is over {MAX_FILE_BYTES // 2**20} MB, more than"
                         " any game record or position file; split it")
    try:
        text = jsontext.decode(data)
    except jsontext.BadText as e:
        raise InputError(f"{describe(source)} is {e}") from None
    if not text.strip():
        raise InputError(f"{describe(source)} is empty: nothing to read")
    return text


def iter_lines(source: str) -> Iterator[tuple[int, str | None, str | None]]:
    """The non-blank lines of ``source`` as they arrive (so a program can hold a
    conversation through a pipe): (line number, text, None), or (number, None, why)
    for a line that is too long or not UTF-8. InputError when there is no line at all."""
    stream = open_binary(source)
    seen = False
    try:
        number = 0
        while True:
            raw = stream.readline(MAX_LINE_BYTES + 1)
            if not raw:
                break
            number += 1
            if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                while raw and not raw.endswith(b"\n"):  # skip the rest of that line
                    raw = stream.readline(MAX_LINE_BYTES)
                seen = True
                yield number, None, f"the line is over {MAX_LINE_BYTES // 2**20} MB"
                continue
            try:
                text = jsontext.decode(raw)
            except jsontext.BadText as e:
                seen = True
                yield number, None, f"the line is {e}"
                continue
            if text.strip():
                seen = True
                yield number, text, None
    finally:
        if source != "-":
            stream.close()
    if not seen:
        raise InputError(f"{describe(source)} is empty: nothing to read")


def parse(text: str) -> Any:
    """JSON ``text`` read safely; ValueError (a jsontext.JSONTextError) saying why not."""
    return jsontext.loads(text)


def documents(text: str, source: str) -> Iterator[tuple[int, Any]]:
    """The JSON of ``source``'s ``text``: one document (pretty-printed or not) or one per
    line (JSON lines, as `selfplay --json` writes), as (line number, value). InputError
    naming the source and line when one cannot be read."""
    try:
        yield 1, parse(text)
        return
    except jsontext.TooDeep as e:
        raise InputError(f"{describe(source)}: {e}") from None
    except jsontext.JSONTextError as e:
        whole = e
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if len(lines) < 2:
        raise InputError(f"{describe(source)}: {whole}")
    for number, line in lines:
        try:
            value = parse(line)
        except jsontext.JSONTextError as e:
            raise InputError(f"{describe(source)}, line {number}: {e}") from None
        yield number, value


def read_json(source: str, what: str, inline: bool = False) -> Any:
    """The one JSON document of ``source`` (a file, `-`, or with ``inline`` JSON text
    starting with ``{``); InputError naming ``what`` when it cannot be read."""
    if inline and source.lstrip().startswith("{"):
        text = source
    else:
        text = read_text(source)  # "... does not exist", as every command says it
    try:
        return parse(text)
    except jsontext.JSONTextError as e:
        raise InputError(f"{what}: {e}") from None


def choose(subjects: list[tuple[str, Any]], pick: int | None) -> list[tuple[str, Any]]:
    """All the (name, value) found in a file, or only the ``pick``-th (``--game N``)."""
    if pick is None:
        return subjects
    if pick > len(subjects):
        raise click.BadParameter(f"the file holds {len(subjects)}, not {pick}",
                                 param_hint="--game")
    return [subjects[pick - 1]]
