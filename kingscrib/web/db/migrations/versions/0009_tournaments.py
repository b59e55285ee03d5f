"""Tournaments and teams (kingscrib.web.tournaments.store).

Revision ID: 0009
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "teams",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(40), nullable=False, unique=True),
        sa.Column("creator_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "team_members",
        sa.Column("team_id", sa.Integer, sa.ForeignKey("teams.id"), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True,
                  index=True),
        sa.Column("joined", sa.Float, nullable=False),
    )
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("format", sa.String(12), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("clock_seconds", sa.Integer, nullable=True),
        sa.Column("clock_overtime", sa.Integer, nullable=True),
        sa.Column("starts", sa.Float, nullable=False, index=True),
        sa.Column("max_players", sa.Integer, nullable=False),
        sa.Column("min_rating", sa.Integer, nullable=True),
        sa.Column("max_rating", sa.Integer, nullable=True),
        sa.Column("mirrored", sa.Boolean, nullable=False),
        sa.Column("partners", sa.Boolean, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=True),
        sa.Column("minutes", sa.Integer, nullable=True),
        sa.Column("no_show", sa.Integer, nullable=False),
        sa.Column("team_best", sa.Integer, nullable=False),
        sa.Column("team_a", sa.Integer, sa.ForeignKey("teams.id"), nullable=True),
        sa.Column("team_b", sa.Integer, sa.ForeignKey("teams.id"), nullable=True),
        sa.Column("creator_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("state", sa.String(10), nullable=False, index=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("finished", sa.Float, nullable=True),
        sa.Column("note", sa.String(200), nullable=True),
    )
    op.create_table(
        "tournament_entrants",
        sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True,
                  index=True),
        sa.Column("partner_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True,
                  index=True),
        sa.Column("level", sa.String(20), nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("team_id", sa.Integer, sa.ForeignKey("teams.id"), nullable=True),
        sa.Column("rating", sa.Float, nullable=True),
        sa.Column("joined", sa.Float, nullable=False),
        sa.Column("withdrawn", sa.Float, nullable=True),
        sa.UniqueConstraint("tournament_id", "account_id", name="uq_tournament_account"),
    )
    op.create_table(
        "tournament_rounds",
        sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("bye", sa.Integer, nullable=True),
        sa.Column("paired", sa.Float, nullable=False),
    )
    op.create_table(
        "tournament_games",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id"),
                  nullable=False, index=True),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("a", sa.Integer, nullable=False),
        sa.Column("b", sa.Integer, nullable=False),
        sa.Column("leg", sa.Integer, nullable=False),
        sa.Column("seed", sa.String(128), nullable=True),
        sa.Column("claimed", sa.Float, nullable=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=True,
                  index=True),
        sa.Column("token_a", sa.String(64), nullable=True),
        sa.Column("token_b", sa.String(64), nullable=True),
        sa.Column("token_a2", sa.String(64), nullable=True),
        sa.Column("token_b2", sa.String(64), nullable=True),
        sa.Column("shown", sa.Boolean, nullable=False),
        sa.Column("points_a", sa.Float, nullable=True),
        sa.Column("margin", sa.Integer, nullable=True),
        sa.Column("forfeit", sa.Integer, nullable=True),
        sa.Column("ended", sa.Float, nullable=True),
        sa.UniqueConstraint("tournament_id", "round", "a", "leg",
                            name="uq_tournament_pairing"),
    )


def downgrade() -> None:
    for table in ("tournament_games", "tournament_rounds", "tournament_entrants",
                  "tournaments", "team_members", "teams"):
        op.drop_table(table)
