"""Chat, moderation and correspondence games: chat messages, mutes and reports;
moderators and bans; e-mail addresses for turn notices; clocks of days per move.
New tables and one new nullable column: every stored game stays as it was.

Revision ID: 0006
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("room", sa.String(10), nullable=False),
        sa.Column("sender", sa.String(24), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("account_id", sa.Integer, nullable=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("hidden", sa.Float, nullable=True),
    )
    op.create_index("ix_chat_messages_game_room", "chat_messages", ["game_id", "room", "id"])
    op.create_table(
        "chat_mutes",
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("muted", sa.String(24), primary_key=True),
    )
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("message_id", sa.Integer, nullable=False),
        sa.Column("reporter", sa.String(80), nullable=False),
        sa.Column("reporter_account", sa.Integer, nullable=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("resolved", sa.Float, nullable=True),
    )
    op.create_index("ix_chat_reports_resolved", "chat_reports", ["resolved"])
    op.create_table(
        "moderators",
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("login_key", sa.String(64), nullable=False),
        sa.Column("granted", sa.Float, nullable=False),
    )
    op.create_table(
        "bans",
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("login_key", sa.String(64), nullable=False),
        sa.Column("by", sa.Integer, nullable=True),
        sa.Column("reason", sa.String(200), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "account_emails",
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("login_key", sa.String(64), nullable=False),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("turn_mail", sa.Boolean, nullable=False),
    )
    with op.batch_alter_table("clocks") as batch:
        batch.add_column(sa.Column("per_move", sa.Boolean, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("clocks") as batch:
        batch.drop_column("per_move")
    for table in ("account_emails", "bans", "moderators", "chat_reports", "chat_mutes",
                  "chat_messages"):
        op.drop_table(table)
