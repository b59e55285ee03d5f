"""Stored analyses of finished games (computed once, by :mod:`kingscrib.web.play.reviews`)."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import insert, select

from kingscrib.web.db.store_base import StoreBase
from kingscrib.web.db.tables import analyses


class Analyses(StoreBase):
    """The store's calls on the ``analyses`` table."""

    def set_analysis(self, game_id: str, data: list[dict[str, Any]]) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(analyses).values(game_id=game_id, data=data))

    def analysis(self, game_id: str) -> list[dict[str, Any]] | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(analyses.c.data)
                               .where(analyses.c.game_id == game_id)).first()
        return _rows(row.data) if row else None


def _rows(value: Any) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = json.loads(value) if isinstance(value, str) else value
    return rows
