"""The games of computers only, with the address that created each (the
``computer_games`` limit counts them on every server process together).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "computer_games",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("address", sa.String(64), nullable=False),
    )
    op.create_index("ix_computer_games_address", "computer_games", ["address"])


def downgrade() -> None:
    op.drop_index("ix_computer_games_address", table_name="computer_games")
    op.drop_table("computer_games")
