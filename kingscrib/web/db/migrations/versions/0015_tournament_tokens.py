"""Tournament games keep no seat token in plain: ``tournament_games`` loses ``token_a``,
``token_b``, ``token_a2`` and ``token_b2``. Every seat of a tournament game is its
entrant's account's, and the games keep the tokens' hashes as for any seat: a running
tournament plays on, each entrant taking their seat by their account's session
(``POST /api/games/{id}/seat``, a new token); a token handed out before still opens its
seat. A downgrade brings the columns back empty (the plain tokens are gone).

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

COLUMNS = ("token_a", "token_b", "token_a2", "token_b2")


def upgrade() -> None:
    with op.batch_alter_table("tournament_games") as batch:
        for name in COLUMNS:
            batch.drop_column(name)


def downgrade() -> None:
    with op.batch_alter_table("tournament_games") as batch:
        for name in COLUMNS:
            batch.add_column(sa.Column(name, sa.String(64), nullable=True))
