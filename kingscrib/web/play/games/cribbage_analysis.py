"""Analysis of finished Cribbage games for the page: the one adapter to the coach's review
(:mod:`kingscrib.players.classic.review`). Its rows are ``kingscrib classic analyze
--json``'s, so the page and the command agree."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kingscrib.players.classic.review import review_record

Progress = Callable[[int, int], None]


def review(record: dict[str, Any], progress: Progress | None = None) -> list[dict[str, Any]]:
    """Each decision of the record beside the coach's best, as JSON rows."""
    return [row.to_json() for row in review_record(record, progress)]
