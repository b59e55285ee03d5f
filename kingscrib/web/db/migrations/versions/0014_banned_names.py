"""A banned account's name stays reserved apart from the account: ``banned_names`` keeps
its login key and skeleton key, and an account's deletion leaves it (no guest plays
under the name, nor under one that reads the same, and no sign-up takes it). The bans
made before are copied in; one whose account was deleted already keeps its login key
only (the skeleton of a name is not known from its hash).

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "banned_names",
        sa.Column("login_key", sa.String(64), primary_key=True),
        sa.Column("look_key", sa.String(64), nullable=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_banned_names_look_key", "banned_names", ["look_key"])
    op.execute(
        "INSERT INTO banned_names (login_key, look_key, at)"
        " SELECT b.login_key, MAX(a.look_key), MAX(b.at) FROM bans b"
        " LEFT JOIN accounts a ON a.id = b.account_id AND a.login_key = b.login_key"
        " GROUP BY b.login_key")


def downgrade() -> None:
    op.drop_index("ix_banned_names_look_key", table_name="banned_names")
    op.drop_table("banned_names")
