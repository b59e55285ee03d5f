"""Writing one keyed row whose existence the transaction has already read: the stores
that keep a running record per key (ratings, puzzle standings) share it."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Table, insert, update
from sqlalchemy.engine import Connection, CursorResult


def save_row(conn: Connection, table: Table, key: dict[str, Any], values: dict[str, Any],
             exists: bool, count: str | None = None) -> None:
    """Insert the row of ``key`` with ``values``, or update it when ``exists`` (read in
    this transaction). ``count`` names a column that counts the saves: 1 when inserted,
    one more at each update (added by the database, so nothing stale is written)."""
    if exists:
        more = {count: table.c[count] + 1} if count else {}
        conn.execute(update(table).where(*(table.c[k] == v for k, v in key.items()))
                     .values(**values, **more))
    else:
        conn.execute(insert(table).values(**key, **values, **({count: 1} if count else {})))


__all__ = ["save_row"]


def inserted_id(result: CursorResult[Any]) -> int:
    """The id the database gave the row an insert just made."""
    key = result.inserted_primary_key
    if key is None:
        raise RuntimeError("the insert made no row")
    return int(key[0])
