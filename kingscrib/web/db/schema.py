"""The database schema's version: Alembic migrations (``kingscrib/web/db/migrations``).

Every schema change is a revision there; the server upgrades its database to the
newest one on start (and ``kingscrib db upgrade`` does it alone). A database made
before migrations existed has no ``alembic_version`` table: the baseline revision
completes it to the schema of that day and stamps it, keeping every game.

Several processes may start at once on one PostgreSQL: the upgrade runs under a
session advisory lock, so one migrates while the others wait, then find it done.
On SQLite the upgrade holds the database's write lock (``BEGIN IMMEDIATE``) and runs
in one transaction, as it does on PostgreSQL.

Alembic is imported only when a database needs migrating: a server whose database is
up to date (the usual start) reads ``alembic_version`` with one query and never loads
it, which spares each server process about 10 MB.
"""

from __future__ import annotations

import contextlib
import functools
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).parent / "migrations"
BASELINE = "0001"
# The newest revision in MIGRATIONS (a test checks it is Alembic's head): known without
# loading Alembic. A new migration moves it.
HEAD = "0015"
# pg_advisory_lock's two-key form: its own key space, apart from the shared limits'
# one-key transaction locks (kingscrib.web.db.shared_counts.lock_address).
_LOCK = "SELECT pg_advisory_lock(4242, 1)"
_UNLOCK = "SELECT pg_advisory_unlock(4242, 1)"


class SchemaTooNew(RuntimeError):
    """The database was migrated by a newer kingscrib than this one."""


def config(connection: Connection | None = None) -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


def head() -> str:
    """The newest revision this code knows."""
    return HEAD


@functools.cache
def migrations_head() -> str:
    """The newest revision as Alembic reads it from MIGRATIONS (loads Alembic)."""
    from alembic.script import ScriptDirectory

    found = ScriptDirectory.from_config(config()).get_current_head()
    assert found is not None
    return found


def current(engine: Engine) -> str | None:
    """The database's revision (None: not migrated, or made before migrations)."""
    with engine.connect() as conn:
        return _revision(conn)


def _revision(conn: Connection) -> str | None:
    if not inspect(conn).has_table("alembic_version"):
        return None
    return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


def upgrade(engine: Engine) -> str:
    """Bring the database to the newest revision; returns it. SchemaTooNew when the
    database is at a revision this code does not know (a newer kingscrib migrated it)."""
    postgres = engine.dialect.name == "postgresql"
    with engine.connect() as conn:
        if _revision(conn) == HEAD:
            return HEAD  # the usual start: no lock, no Alembic
        conn.rollback()
        from alembic import command

        if postgres:
            conn.execute(text(_LOCK))  # waits while another process migrates
            conn.commit()
        try:
            if engine.dialect.name == "sqlite":
                conn.exec_driver_sql("BEGIN IMMEDIATE")  # the DDL in the transaction too
            # The connection is in a transaction already: Alembic leaves it to us, so
            # the check, every revision and the stamp commit together or not at all.
            _check_known(conn)
            command.upgrade(config(conn), "head")
            conn.commit()
        except BaseException:
            conn.rollback()
            raise
        finally:
            if postgres:  # (a lost connection has released the lock already)
                with contextlib.suppress(Exception):
                    conn.execute(text(_UNLOCK))
                    conn.commit()
    return head()


def _check_known(conn: Connection) -> None:
    from alembic.script import ScriptDirectory

    found = _revision(conn)
    if found is None:
        return
    try:
        ScriptDirectory.from_config(config()).get_revision(found)
    except Exception:
        raise SchemaTooNew(
            f"the database is at schema revision {found!r}, which this kingscrib does not"
            f" know (its newest is {head()!r}): a newer kingscrib migrated it; run that"
            " version") from None
