"""The tutorial's progress of an account: one row per finished lesson.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "learn_progress",
        sa.Column("account_id", sa.Integer,
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.String(16), primary_key=True),
        sa.Column("lesson", sa.String(40), primary_key=True),
        sa.Column("finished", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("learn_progress")
