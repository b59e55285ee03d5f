"""The lobby counts the seats waiting per client address too: ``seek_seats`` keeps the
address's hash. Seats stored before have none (they count for their browser and
account only, as before).

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seek_seats") as batch:
        batch.add_column(sa.Column("address_hash", sa.String(64), nullable=True))
        batch.create_index("ix_seek_seats_address_hash", ["address_hash"])


def downgrade() -> None:
    with op.batch_alter_table("seek_seats") as batch:
        batch.drop_index("ix_seek_seats_address_hash")
        batch.drop_column("address_hash")
