"""Alembic migrations of the web server's database (run by :mod:`kingscrib.web.db.schema`)."""
