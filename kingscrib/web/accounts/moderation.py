"""Moderators and banned accounts.

The moderator role is granted and taken back on the server's database by the operator
(``kingscrib moderator grant NAME`` / ``revoke``); moderators see reported chat
messages, hide messages and ban accounts from the moderator page. A banned account
cannot log in, chat, seek nor create or join games (its sessions are kept so that each
of those answers says why); :func:`is_banned` is what every such path asks.

A banned account's name stays reserved apart from the account (``banned_names``: its
login key and skeleton key): no guest plays under it nor under one that reads the same,
and no sign-up takes it, even after the account is deleted (:func:`name_banned`).

Both tables name the account by its id and its login key: an account deleted and a new
one given the same id (SQLite reuses the highest id) is not the same account.
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import Column, Float, Integer, String, Table, delete, insert, select
from sqlalchemy.engine import Connection, Engine

from kingscrib.web.accounts.names import login_key, look_key
from kingscrib.web.db.tables import accounts, metadata

MAX_REASON = 200

moderators = Table(
    "moderators", metadata,
    Column("account_id", Integer, primary_key=True),
    Column("login_key", String(64), nullable=False),
    Column("granted", Float, nullable=False),
)

bans = Table(
    "bans", metadata,
    Column("account_id", Integer, primary_key=True),
    Column("login_key", String(64), nullable=False),
    Column("by", Integer, nullable=True),  # the moderator's account
    Column("reason", String(MAX_REASON), nullable=False, default=""),
    Column("at", Float, nullable=False),
)

# The names of banned accounts, kept when the account is deleted (an unban frees its own).
banned_names = Table(
    "banned_names", metadata,
    Column("login_key", String(64), primary_key=True),
    Column("look_key", String(64), nullable=True, index=True),  # None: banned before 0014
    Column("at", Float, nullable=False),
)


def _same_account(table: Table) -> Any:
    return (accounts.c.id == table.c.account_id) & (accounts.c.login_key == table.c.login_key)


def _has(engine: Engine, table: Table, account_id: int | None) -> bool:
    if account_id is None:
        return False
    with engine.connect() as conn:
        return conn.execute(select(table.c.account_id).join(accounts, _same_account(table))
                            .where(table.c.account_id == account_id)).first() is not None


def is_moderator(engine: Engine, account_id: int | None) -> bool:
    return _has(engine, moderators, account_id)


def is_banned(engine: Engine, account_id: int | None) -> bool:
    """Whether the account is banned (None, a guest: never)."""
    return _has(engine, bans, account_id)


def name_banned(engine: Engine, name: str | None) -> bool:
    """Whether a name is a banned account's, or reads as one (reserved: nobody plays
    under it as a guest nor signs up with it), the account deleted or not."""
    if not name or not name.strip():
        return False
    typed = name.strip()[:200]
    with engine.connect() as conn:
        return conn.execute(select(banned_names.c.login_key).where(
            (banned_names.c.login_key == login_key(typed))
            | (banned_names.c.look_key == look_key(typed)))).first() is not None


def account_named(engine: Engine, name: str) -> tuple[int, str, str] | None:
    """(id, name, login key) of the account a user name logs in as; None: no such account."""
    with engine.connect() as conn:
        row = conn.execute(select(accounts.c.id, accounts.c.name, accounts.c.login_key)
                           .where(accounts.c.login_key == login_key(name))).first()
    return None if row is None else (row.id, row.name, row.login_key)


def _key_of(conn: Connection, account_id: int) -> str | None:
    key: str | None = conn.execute(select(accounts.c.login_key)
                                   .where(accounts.c.id == account_id)).scalar_one_or_none()
    return key


def set_moderator(engine: Engine, account_id: int, on: bool) -> bool:
    """Grant (``on``) or take back the role; False when nothing changed."""
    with engine.begin() as conn:
        key = _key_of(conn, account_id)
        had = conn.execute(select(moderators.c.login_key).where(
            moderators.c.account_id == account_id)).scalar_one_or_none()
        conn.execute(delete(moderators).where(moderators.c.account_id == account_id))
        if on and key is not None:
            conn.execute(insert(moderators).values(account_id=account_id, login_key=key,
                                                   granted=time.time()))
    return (had == key) != on


def ban(engine: Engine, account_id: int, by: int | None, reason: str = "") -> bool:
    """Ban an account (its name reserved); False when it was banned already (or is no
    account)."""
    with engine.begin() as conn:
        key = _key_of(conn, account_id)
        if key is None:
            return False
        look = conn.execute(select(accounts.c.look_key)
                            .where(accounts.c.id == account_id)).scalar_one()
        conn.execute(delete(banned_names).where(banned_names.c.login_key == key))
        conn.execute(insert(banned_names).values(login_key=key, look_key=look,
                                                 at=time.time()))
        had = conn.execute(select(bans.c.login_key).where(
            bans.c.account_id == account_id)).scalar_one_or_none()
        if had == key:
            return False
        conn.execute(delete(bans).where(bans.c.account_id == account_id))
        conn.execute(insert(bans).values(account_id=account_id, login_key=key, by=by,
                                         reason=reason[:MAX_REASON], at=time.time()))
    return True


def unban(engine: Engine, account_id: int) -> bool:
    with engine.begin() as conn:
        key = _key_of(conn, account_id)
        if key is not None:
            conn.execute(delete(banned_names).where(banned_names.c.login_key == key))
        return conn.execute(delete(bans).where(bans.c.account_id == account_id)).rowcount == 1


def banned(engine: Engine) -> list[dict[str, Any]]:
    """The banned accounts, newest ban first."""
    with engine.connect() as conn:
        rows = conn.execute(select(accounts.c.id, accounts.c.name, bans.c.reason, bans.c.at)
                            .join(accounts, _same_account(bans))
                            .order_by(bans.c.at.desc())).all()
    return [dict(r._mapping) for r in rows]
