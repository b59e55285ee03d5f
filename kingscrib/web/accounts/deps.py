"""The caller's account, for every domain's routes: from the session cookie, through the
app's store calls (:mod:`kingscrib.web.server.deps`)."""

from __future__ import annotations

from collections.abc import Mapping

from fastapi import Request

from kingscrib.web.accounts import sessions
from kingscrib.web.accounts.store import Account
from kingscrib.web.errors import WebError
from kingscrib.web.server.deps import StoreCalls


async def session_account(calls: StoreCalls, cookies: Mapping[str, str]
                          ) -> tuple[Account | None, str | None]:
    """The account the session cookie is logged in as (None: no cookie, or no live
    session), and the cookie's token."""
    token = cookies.get(sessions.COOKIE)
    account = await calls.db_call(sessions.account_of, calls.store.engine, token) \
        if token else None
    return account, token


async def logged_in_account(request: Request, calls: StoreCalls, write: bool = False
                            ) -> Account:
    """The caller's account; WebError(401) when not logged in. A ``write`` (a cookie-
    authenticated change) must also come from this site with the session's CSRF token."""
    account, token = await session_account(calls, request.cookies)
    if account is None or token is None:
        raise WebError(401, "you are not logged in")
    if write:
        sessions.check_same_origin(request.headers)
        sessions.check_csrf(token, request.headers)
    return account
