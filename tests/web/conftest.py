"""Fixtures of the web's tests in every domain folder."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from web_support import postgres_cluster


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    """A throw-away PostgreSQL cluster of the test module's own (Debian's ``postgresql``,
    which ``.ci/run`` installs when it is missing); its URL."""
    with postgres_cluster() as url:
        yield url
