"""The lobby: open seeks and the people seated in each so far. New tables only: every
stored game stays as it was.

Revision ID: 0004
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("hints", sa.Boolean, nullable=False),
        sa.Column("clock_seconds", sa.Integer, nullable=True),
        sa.Column("clock_overtime", sa.Integer, nullable=True),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("rating_min", sa.Integer, nullable=True),
        sa.Column("rating_max", sa.Integer, nullable=True),
        sa.Column("quick", sa.Boolean, nullable=False),
        sa.Column("target_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("starting", sa.Float, nullable=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=True),
    )
    op.create_index("ix_seeks_target_id", "seeks", ["target_id"])
    op.create_index("ix_seeks_game_id", "seeks", ["game_id"])
    op.create_table(
        "seek_seats",
        sa.Column("seek_id", sa.String(16), sa.ForeignKey("seeks.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("ticket_hash", sa.String(64), nullable=False),
        sa.Column("visitor_hash", sa.String(64), nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
    )
    op.create_index("ix_seek_seats_account_id", "seek_seats", ["account_id"])
    op.create_index("ix_seek_seats_visitor_hash", "seek_seats", ["visitor_hash"])
    op.create_index("ix_seek_seats_seen", "seek_seats", ["seen"])


def downgrade() -> None:
    op.drop_table("seek_seats")
    op.drop_table("seeks")
