"""Fair rated play (kingscrib.web.accounts.fair): where each account plays from (hashed
addresses and browsers) and the rated games set aside for the moderators. New tables
only: the games and ratings stored before are read as they were.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "account_origins",
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), primary_key=True),
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("seen", sa.Float, nullable=False),
    )
    op.create_index("ix_account_origins_key", "account_origins", ["key"])
    op.create_index("ix_account_origins_seen", "account_origins", ["seen"])
    op.create_table(
        "rating_flags",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("reason", sa.String(40), nullable=False),
        sa.Column("accounts", sa.String(200), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_flags_at", "rating_flags", ["at"])


def downgrade() -> None:
    op.drop_table("rating_flags")
    op.drop_table("account_origins")
