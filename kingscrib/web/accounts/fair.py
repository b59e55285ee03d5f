"""Fair rated play (docs/web.md, "Rated play"): where each account plays from, and the
rated games set aside for the moderators.

Each account's recent client addresses and browsers are kept, hashed (``account_origins``:
one row per account, kind and key, with when it was last seen): an address whenever a
logged-in browser signs up, logs in or takes a seat of a rated game, a browser by its
device cookie (:data:`DEVICE_COOKIE`, set at sign-up and log-in, never shared between
browsers). A rated game between two accounts that were seen from one address or one
browser within :data:`WINDOW` is not rated: it is recorded as unrated and listed in
``rating_flags`` for the moderators (``GET /api/moderation/flags``).
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Mapping
from itertools import combinations
from typing import Any

from sqlalchemy import Column, Float, Integer, String, Table, delete, insert, select, update
from sqlalchemy.engine import Connection, Engine

from kingscrib.web.db.tables import accounts, metadata

DEVICE_COOKIE = "kingscrib_device"
DEVICE_LIFETIME = 400 * 24 * 3600  # the longest a browser keeps a cookie
WINDOW = 30 * 24 * 3600.0  # an address or a browser links two accounts this long
ADDRESS, DEVICE = "address", "device"
SHARED_ADDRESS, SHARED_BROWSER = "shared address", "shared browser"

account_origins = Table(
    "account_origins", metadata,
    Column("account_id", Integer, primary_key=True),
    Column("kind", String(8), primary_key=True),  # address or device
    Column("key", String(64), primary_key=True, index=True),  # SHA-256, never the value
    Column("seen", Float, nullable=False, index=True),
)

# Rated games played as unrated because their accounts share an address or a browser.
rating_flags = Table(
    "rating_flags", metadata,
    Column("game_id", String(32), primary_key=True),
    Column("reason", String(40), nullable=False),
    Column("accounts", String(200), nullable=False),  # the linked accounts' ids, a,b
    Column("at", Float, nullable=False, index=True),
)


def _hashed(kind: str, value: str) -> str:
    return hashlib.sha256(f"origin\0{kind}\0{value}".encode("utf-8", "replace")).hexdigest()


def new_device() -> str:
    return secrets.token_urlsafe(18)


def device_of(cookies: Mapping[str, str]) -> str | None:
    value = cookies.get(DEVICE_COOKIE)
    return value if value and len(value) <= 64 else None


def device_cookie_args(value: str) -> dict[str, Any]:
    """The device cookie's value and flags (for ``Response.set_cookie``)."""
    return {"key": DEVICE_COOKIE, "value": value, "max_age": DEVICE_LIFETIME, "path": "/",
            "httponly": True, "secure": True, "samesite": "lax"}


def note_origin(engine: Engine, account_id: int, address: str | None, device: str | None,
                now: float | None = None) -> None:
    """The account was just seen from ``address`` and the browser ``device``."""
    now = time.time() if now is None else now
    with engine.begin() as conn:
        conn.execute(delete(account_origins).where(account_origins.c.seen < now - WINDOW))
        for kind, value in ((ADDRESS, address), (DEVICE, device)):
            if not value:
                continue
            key = _hashed(kind, value)
            found = conn.execute(update(account_origins).where(
                account_origins.c.account_id == account_id, account_origins.c.kind == kind,
                account_origins.c.key == key).values(seen=now)).rowcount
            if not found:
                conn.execute(insert(account_origins).values(
                    account_id=account_id, kind=kind, key=key, seen=now))


def shared_origin(conn: Connection, account_ids: list[int], addresses: bool, now: float
                  ) -> tuple[str, list[int]] | None:
    """Whether two of these accounts were seen from one browser (or, with ``addresses``,
    one address) within the window: the reason and the two accounts."""
    people = sorted(set(account_ids))
    if len(people) < 2:
        return None
    rows = conn.execute(select(account_origins.c.account_id, account_origins.c.kind,
                               account_origins.c.key).where(
        account_origins.c.account_id.in_(people),
        account_origins.c.seen >= now - WINDOW)).all()
    seen: dict[tuple[str, str], set[int]] = {}
    for r in rows:
        seen.setdefault((r.kind, r.key), set()).add(r.account_id)
    for kind, reason in ((DEVICE, SHARED_BROWSER), (ADDRESS, SHARED_ADDRESS)):
        if kind == ADDRESS and not addresses:
            continue
        for a, b in combinations(people, 2):
            if any(k == kind and {a, b} <= ids for (k, _key), ids in seen.items()):
                return reason, [a, b]
    return None


def flag(conn: Connection, game_id: str, reason: str, account_ids: list[int], now: float
         ) -> None:
    """Set a rated game aside for the moderators (in the caller's transaction)."""
    conn.execute(insert(rating_flags).values(
        game_id=game_id, reason=reason, accounts=",".join(map(str, account_ids)), at=now))


def flags(engine: Engine, limit: int = 200) -> list[dict[str, Any]]:
    """The rated games set aside, newest first, with the linked accounts' names."""
    with engine.connect() as conn:
        rows = conn.execute(select(rating_flags).order_by(rating_flags.c.at.desc())
                            .limit(limit)).all()
        ids = {int(a) for r in rows for a in r.accounts.split(",") if a}
        names = dict(conn.execute(select(accounts.c.id, accounts.c.name)
                                  .where(accounts.c.id.in_(ids))).all()) if ids else {}
    return [{"game_id": r.game_id, "reason": r.reason, "at": r.at,
             "accounts": [{"id": int(a), "name": names.get(int(a))}
                          for a in r.accounts.split(",") if a]} for r in rows]


def forget_account(conn: Connection, account_id: int) -> None:
    conn.execute(delete(account_origins).where(account_origins.c.account_id == account_id))
