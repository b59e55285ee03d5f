"""Baseline: the schema as the server made it before there were migrations.

A database made by the server before migrations (no ``alembic_version`` table) holds
some or all of these tables, perhaps from before later columns existed (``games.game``
before classic Cribbage, ``secret``, ``hints``, ``closed``) or later tables (clocks,
analyses, the shared limits): this revision creates only what is missing, the same DDL
the server ran on start until then, touches nothing that exists, and the database is
then stamped at this revision. On an empty database it creates the whole schema.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _tables() -> list[tuple[str, list[sa.Column[Any] | sa.Constraint], list[tuple[str, str]]]]:
    """Each table: its name, columns and constraints, and indexes (name, column), in the
    order a foreign key needs them. Frozen here: later changes are later revisions."""
    def games_id() -> sa.ForeignKey:
        return sa.ForeignKey("games.id")

    return [
        ("games", [
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("created", sa.Float, nullable=False),
            sa.Column("updated", sa.Float, nullable=False),
            sa.Column("rules", sa.JSON, nullable=False),
            sa.Column("seed", sa.Integer, nullable=False),
            sa.Column("invite_hash", sa.String(64), nullable=False),
            sa.Column("over", sa.Boolean, nullable=False),
            *_late_game_columns(),
        ], []),
        ("seats", [
            sa.Column("game_id", sa.String(32), games_id(), primary_key=True),
            sa.Column("seat", sa.Integer, primary_key=True),
            sa.Column("name", sa.String(40), nullable=False),
            sa.Column("kind", sa.String(10), nullable=False),
            sa.Column("level", sa.String(20), nullable=True),
            sa.Column("token_hash", sa.String(64), nullable=True),
        ], []),
        ("turns", [
            sa.Column("game_id", sa.String(32), games_id(), primary_key=True),
            sa.Column("n", sa.Integer, primary_key=True),
            sa.Column("data", sa.JSON, nullable=False),
        ], []),
        ("rematches", [
            sa.Column("game_id", sa.String(32), games_id(), primary_key=True),
            sa.Column("rematch_id", sa.String(32), games_id(), nullable=False),
            sa.Column("invite", sa.String(64), nullable=False),
        ], []),
        ("clocks", [
            sa.Column("game_id", sa.String(32), games_id(), primary_key=True),
            sa.Column("turn", sa.Integer, nullable=False),
            sa.Column("seconds", sa.Integer, nullable=True),
            sa.Column("overtime", sa.Integer, nullable=False),
            sa.Column("remaining", sa.JSON(none_as_null=True), nullable=True),
            sa.Column("running", sa.JSON(none_as_null=True), nullable=True),
            sa.Column("started", sa.Float, nullable=True),
            sa.Column("due", sa.Float, nullable=True),
            sa.Column("result", sa.JSON(none_as_null=True), nullable=True),
        ], [("ix_clocks_due", "due")]),
        ("alive", [
            sa.Column("name", sa.String(16), primary_key=True),
            sa.Column("at", sa.Float, nullable=False),
        ], []),
        ("analyses", [
            sa.Column("game_id", sa.String(32), games_id(), primary_key=True),
            sa.Column("data", sa.JSON, nullable=False),
        ], []),
        ("address_sockets", [
            sa.Column("instance", sa.String(32), primary_key=True),
            sa.Column("address", sa.String(64), primary_key=True),
            sa.Column("n", sa.Integer, nullable=False),
        ], []),
        ("address_games", [
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("address", sa.String(64), nullable=False),
            sa.Column("at", sa.Float, nullable=False),
        ], [("ix_address_games_address", "address")]),
    ]


def _late_game_columns() -> list[sa.Column[Any]]:
    """The columns of ``games`` added after it was first made (then by ALTER TABLE on
    start): every game stored before ``game`` existed is Kings Cribbage."""
    return [
        sa.Column("game", sa.String(16), nullable=False, server_default="kings"),
        sa.Column("secret", sa.String(128), nullable=True),
        sa.Column("hints", sa.Boolean, nullable=True),
        sa.Column("closed", sa.Float, nullable=True),
    ]


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    existing = set(inspector.get_table_names())
    for name, columns, indexes in _tables():
        if name not in existing:
            op.create_table(name, *columns)
            for index, column in indexes:
                op.create_index(index, name, [column])
            continue
        have = {c["name"] for c in inspector.get_columns(name)}
        if name == "games":
            for late in _late_game_columns():
                if late.name not in have:
                    op.add_column("games", late)
        indexed = {i["name"] for i in inspector.get_indexes(name)}
        for index, column in indexes:
            if index not in indexed:
                op.create_index(index, name, [column])


def downgrade() -> None:
    raise RuntimeError("the baseline cannot be undone: it would drop every stored game")
