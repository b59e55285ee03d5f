"""Cribbage is stored as ``cribbage``: the rows that named it ``classic`` say so now.

The game id is the core's (:mod:`kingscrib.core.ids`): ``kings`` and ``cribbage``, with
``classic`` its older name. Every column the server wrote ``classic`` into is rewritten:
the games, the lobby's seeks, the ratings, their history, the games' outcomes and the
tournaments. Nothing else changes and no row goes: where an account already has a row
under ``cribbage`` beside its ``classic`` one (only an older server still running can
write one), the ``classic`` row stays as it is and is read as Cribbage, the row under
the id first (:mod:`kingscrib.web.db.game_ids`). The puzzles' and lessons' standings
were always stored under ``cribbage`` and are left alone. The downgrade writes
``classic`` back into the same columns.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

OLD, NEW = "classic", "cribbage"
# Each table that stores a game id in ``game``, with the other columns of its key when
# ``game`` is part of its primary key.
TABLES: dict[str, tuple[str, ...]] = {
    "games": (),
    "seeks": (),
    "ratings": ("account_id",),
    "rating_history": (),
    "game_outcomes": (),
    "tournaments": (),
}


def _rename(source: str, target: str) -> None:
    for table, key in TABLES.items():
        clash = "".join(f" AND other.{column} = {table}.{column}" for column in key)
        taken = (f" AND NOT EXISTS (SELECT 1 FROM {table} AS other"
                 f" WHERE other.game = :target{clash})") if key else ""
        op.execute(sa.text(f"UPDATE {table} SET game = :target WHERE game = :source{taken}")
                   .bindparams(source=source, target=target))


def upgrade() -> None:
    _rename(OLD, NEW)


def downgrade() -> None:
    _rename(NEW, OLD)
