"""Fixtures shared by the browser tests: one Chromium and one server per test module."""

from __future__ import annotations

import pytest
from web_support import chromium, running_server


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A server of the module's own, on a fresh database (a module may define its own)."""
    with running_server(tmp_path_factory.mktemp("web") / "web.sqlite3") as s:
        yield s
