"""Log-in sessions, kept on the server, and the CSRF check of cookie-authenticated writes.

The cookie holds a random token (256 bits); the database keeps its SHA-256 hash only,
with the account and an expiry (:data:`LIFETIME` after the log-in). The cookie is
``HttpOnly; Secure; SameSite=Lax; Path=/``: browsers send ``Secure`` cookies to
http://localhost and http://127.0.0.1 too, so local play over plain HTTP works.

CSRF: a write authenticated by the cookie alone (log out, change the password, delete
the account) must carry ``X-CSRF-Token``, a value derived from the session token (the
HMAC-based synchronizer token pattern): the page reads it from ``GET /api/account``,
another site cannot. Every account write, log-ins and sign-ups included, is also refused
when the browser says it comes from another site (``Sec-Fetch-Site``) or names another
origin (``Origin``). Game requests authenticate with the seat token in the
``Authorization`` header, which another site cannot send: the cookie only adds who
may use an account's seat (kingscrib.web.play.deps).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import delete, insert, select
from sqlalchemy.engine import Engine

from kingscrib.web.accounts.store import Account
from kingscrib.web.db.storage import hash_secret
from kingscrib.web.db.tables import account_sessions, accounts
from kingscrib.web.errors import WebError

COOKIE = "kingscrib_session"
CSRF_HEADER = "x-csrf-token"
LIFETIME = 30 * 24 * 3600.0  # seconds


def start(engine: Engine, account_id: int, now: float | None = None) -> str:
    """A new session of the account; returns the token for the cookie."""
    now = now or time.time()
    token = secrets.token_urlsafe(32)
    with engine.begin() as conn:
        conn.execute(delete(account_sessions).where(account_sessions.c.expires < now))
        conn.execute(insert(account_sessions).values(
            token_hash=hash_secret(token), account_id=account_id, created=now,
            expires=now + LIFETIME))
    return token


def account_of(engine: Engine, token: str | None, now: float | None = None) -> Account | None:
    """The account a session token is logged in as (None: no session, or it expired)."""
    if not token or len(token) > 100:
        return None
    with engine.connect() as conn:
        row = conn.execute(select(accounts.c.id, accounts.c.name).join(
            account_sessions, account_sessions.c.account_id == accounts.c.id).where(
            account_sessions.c.token_hash == hash_secret(token),
            account_sessions.c.expires > (now or time.time()))).first()
    return None if row is None else Account(row.id, row.name)


def end(engine: Engine, token: str) -> None:
    with engine.begin() as conn:
        conn.execute(delete(account_sessions)
                     .where(account_sessions.c.token_hash == hash_secret(token)))


def csrf_token(session_token: str) -> str:
    """The CSRF token that goes with a session (derived: nothing more to store)."""
    return hmac.new(session_token.encode(), b"kingscrib csrf", hashlib.sha256).hexdigest()


def check_csrf(session_token: str, headers: Mapping[str, str]) -> None:
    """WebError(403) unless the request carries the session's CSRF token."""
    sent = headers.get(CSRF_HEADER, "")
    if not hmac.compare_digest(sent.encode(), csrf_token(session_token).encode()):
        raise WebError(403, "this request lacks the page's CSRF token (X-CSRF-Token):"
                            " reload the page and try again")


def check_same_origin(headers: Mapping[str, str]) -> None:
    """WebError(403) for a request the browser says another site made: by
    ``Sec-Fetch-Site`` (today's browsers), else by an ``Origin`` that is not this host
    (a reverse proxy must pass the Host header on for those older browsers). A client
    that sends neither (not a browser) is not refused here."""
    site = headers.get("sec-fetch-site")
    origin = headers.get("origin")
    if site is not None:
        foreign = site not in ("same-origin", "none")
    else:
        foreign = origin is not None and (origin == "null"
                                          or urlsplit(origin).netloc != headers.get("host"))
    if foreign:
        raise WebError(403, "account requests are accepted from this site's pages only")


def cookie_args(token: str) -> dict[str, Any]:
    """The session cookie's value and flags (for ``Response.set_cookie``)."""
    return {"key": COOKIE, "value": token, "max_age": int(LIFETIME), "path": "/",
            "httponly": True, "secure": True, "samesite": "lax"}
