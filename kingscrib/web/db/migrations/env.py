"""Alembic's environment: the migrations run on the connection kingscrib.web.db.schema hands
over (inside its transaction and, on PostgreSQL, under its advisory lock)."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
