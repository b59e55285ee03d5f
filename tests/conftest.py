"""Fixtures shared by the browser tests: one Chromium and one server per test module; the
number of workers that ``-n auto`` (pyproject's addopts) starts."""

from __future__ import annotations

import pytest
from web_support import chromium, running_server

SUITE_WORKERS = 3  # on 2 cores a third worker runs while the others wait on browsers and servers


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """Three workers for the suite or a folder, each taking whole files (``--dist
    loadfile``); none for a single file, which runs in this process as without xdist."""
    files = {arg.split("::")[0] for arg in config.args}
    return 0 if len(files) == 1 and next(iter(files)).endswith(".py") else SUITE_WORKERS


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A server of the module's own, on a fresh database (a module may define its own)."""
    with running_server(tmp_path_factory.mktemp("web") / "web.sqlite3") as s:
        yield s
