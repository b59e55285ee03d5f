"""E-mail addresses are confirmed by a link before any turn notice goes to them
(kingscrib.web.mail.turn_mail): when, and the link's token, hashed. An address given
before has neither: it gets no notice until its account saves it again and its link
is opened.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("account_emails") as batch:
        batch.add_column(sa.Column("confirmed", sa.Float, nullable=True))
        batch.add_column(sa.Column("confirm_hash", sa.String(64), nullable=True))
        batch.create_index("ix_account_emails_confirm_hash", ["confirm_hash"])


def downgrade() -> None:
    with op.batch_alter_table("account_emails") as batch:
        batch.drop_index("ix_account_emails_confirm_hash")
        batch.drop_column("confirm_hash")
        batch.drop_column("confirmed")
