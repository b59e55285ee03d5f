"""The database: its tables, schema migrations (Alembic) and the store calls on games."""
