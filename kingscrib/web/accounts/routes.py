"""Accounts: sign up, log in and out, change the password, delete the account, who am I.

Every answer is JSON; a refusal is ``{"error": "..."}`` with its status. See
kingscrib.web.accounts.store (names, passwords, limits) and kingscrib.web.accounts.sessions (the
cookie, CSRF).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from kingscrib.web.accounts import fair, hashing, moderation, passwords, sessions
from kingscrib.web.accounts import store as accounts
from kingscrib.web.accounts.hooks import AccountHooks, account_hooks
from kingscrib.web.accounts.names import login_key
from kingscrib.web.accounts.schemas import LoggedIn, LoggedOut, Me
from kingscrib.web.db.storage import hash_secret
from kingscrib.web.errors import WebError
from kingscrib.web.server.deps import StoreCalls, store_calls
from kingscrib.web.server.edge import client_address

router = APIRouter(prefix="/api/account", tags=["account"])

WRONG = "wrong user name or password"
LIMITED = "too many failed log-ins: wait a few minutes and try again"
BANNED = "this account is banned by the moderators"


class HeldSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game_id: str = Field(max_length=32)
    token: str = Field(max_length=200)


class LogIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=400)
    password: str = Field(max_length=1024)


class SignUp(LogIn):
    # The seats this browser holds as a guest (their tokens): the account keeps them.
    seats: list[HeldSeat] = Field(default_factory=list, max_length=accounts.MAX_LINKED)


class NewPassword(BaseModel):
    model_config = ConfigDict(extra="forbid")
    password: str = Field(max_length=1024)
    new_password: str = Field(max_length=1024)


class Confirm(BaseModel):
    model_config = ConfigDict(extra="forbid")
    password: str = Field(max_length=1024)


def _engine(hub: StoreCalls) -> Any:
    return hub.store.engine


async def _slow(priority: int, fn: Any, *args: Any) -> Any:
    """A password hash or check, in a hashing worker, in its turn (accounts.hashing)."""
    return await hashing.gate().run(priority, fn, *args)


async def logged_in(request: Request, hub: StoreCalls) -> tuple[accounts.Account, str]:
    """The caller's account and session token; WebError(401) when not logged in."""
    token = request.cookies.get(sessions.COOKIE)
    account = await hub.db_call(sessions.account_of, _engine(hub), token)
    if account is None or token is None:
        raise WebError(401, "you are not logged in")
    return account, token


def _answer(response: Response, account: accounts.Account, token: str,
            seats: int | None = None) -> LoggedIn:
    """The session's cookie set on ``response``; ``seats`` only where given (a sign-up)."""
    response.headers["Cache-Control"] = "no-store"
    response.set_cookie(**sessions.cookie_args(token))
    answer = LoggedIn(name=account.name, csrf=sessions.csrf_token(token))
    if seats is not None:
        answer.seats = seats
    return answer


async def _note_device(request: Request, response: Response, hub: StoreCalls,
                       account_id: int) -> None:
    """The browser keeps (or is given) its device cookie, noted with its address as
    where the account plays from (kingscrib.web.accounts.fair)."""
    device = fair.device_of(request.cookies) or fair.new_device()
    response.set_cookie(**fair.device_cookie_args(device))
    await hub.db_call(fair.note_origin, _engine(hub), account_id,
                      client_address(request.scope), device)


@router.get("", response_model_exclude_unset=True)
async def me(request: Request, response: Response,
             hub: StoreCalls = Depends(store_calls)) -> Me:
    """Who is logged in here: ``{"name", "csrf"}``, or ``{"name": null}`` for a guest."""
    response.headers["Cache-Control"] = "no-store"
    token = request.cookies.get(sessions.COOKIE)
    account = await hub.db_call(sessions.account_of, _engine(hub), token)
    if account is None or token is None:
        return Me(name=None)
    engine = _engine(hub)
    return Me(name=account.name, csrf=sessions.csrf_token(token), id=account.id,
              moderator=await hub.db_call(moderation.is_moderator, engine, account.id),
              banned=await hub.db_call(moderation.is_banned, engine, account.id))


@router.post("/signup", status_code=201, response_model_exclude_unset=True)
async def signup(body: SignUp, request: Request, response: Response,
                 hub: StoreCalls = Depends(store_calls)) -> LoggedIn:
    """A new account, logged in; the guest seats whose tokens come along are its own.
    Sign-ups are limited per address; a refused one (a taken name, a weak password) does
    not count."""
    sessions.check_same_origin(request.headers)
    name = accounts.user_name(body.name)
    password = passwords.check_password(body.password, name)
    engine, now = _engine(hub), time.time()
    if await hub.db_call(moderation.name_banned, engine, name):
        raise WebError(409, f"the user name {name!r} (or one that looks like it) belongs to"
                            " an account banned by the moderators; choose another")
    address = client_address(request.scope)
    limit = [(accounts.signup_key(address), accounts.SIGNUPS_PER_ADDRESS)]
    gate = hashing.gate()
    gate.enter(address)
    try:
        reserved = await hub.db_call(accounts.reserve, engine, limit, now)
        if reserved is None:
            raise WebError(429, "too many sign-ups from your address: try again later")
        try:
            hashed = await _slow(reserved.before, accounts.hash_password, password)
            account = await hub.db_call(accounts.create, engine, name, hashed, now)
        except BaseException:
            await hub.db_call(accounts.release, engine, reserved)  # no account: not counted
            raise
    finally:
        gate.leave(address)
    held = [(s.game_id, hash_secret(s.token)) for s in body.seats]
    linked = await hub.db_call(accounts.own_seats, engine, account.id, held) if held else 0
    old = request.cookies.get(sessions.COOKIE)
    if old:  # a browser logged in as someone else is now the new account only
        await hub.db_call(sessions.end, engine, old)
    token = await hub.db_call(sessions.start, engine, account.id)
    await _note_device(request, response, hub, account.id)
    return _answer(response, account, token, seats=linked)


async def _password_checked(request: Request, hub: StoreCalls, name: Any, password: str,
                            known: bool, lookup: Callable[[], Awaitable[accounts.Found]]
                            ) -> accounts.Found | None:
    """The account found by ``lookup`` (its hash, or the dummy hash for no account) when
    ``password`` matches, else None; the attempt is first let in line (refused at once
    when its address has one there already, before any work) and reserved against the
    limits (accounts.store.login_limits; WebError(429) past them). A right password of a
    real account gives the attempt back; any other stays counted as a failure."""
    engine, now = _engine(hub), time.time()
    address = client_address(request.scope)
    gate = hashing.gate()
    gate.enter(address)
    try:
        reserved = await hub.db_call(accounts.reserve, engine,
                                     accounts.login_limits(address, name, known), now)
        if reserved is None:
            raise WebError(429, LIMITED)
        found = await lookup()
        right = bool(await _slow(reserved.before, accounts.password_matches,
                                 found.password_hash, password))
    finally:
        gate.leave(address)
    if not right or found.account is None:
        return None
    await hub.db_call(accounts.release, engine, reserved)
    return found


@router.post("/login", response_model_exclude_unset=True)
async def login(body: LogIn, request: Request, response: Response,
                hub: StoreCalls = Depends(store_calls)) -> LoggedIn:
    """Log in. An unknown name and a wrong password get the same answer, after the same
    work; attempts are limited per address, per name and address and per name (429 past
    a limit), each reserved before its password is checked."""
    sessions.check_same_origin(request.headers)
    engine = _engine(hub)
    old = request.cookies.get(sessions.COOKIE)
    current = await hub.db_call(sessions.account_of, engine, old) if old else None
    known = current is not None and isinstance(body.name, str) \
        and login_key(current.name) == login_key(body.name)

    async def lookup() -> accounts.Found:
        return await hub.db_call(accounts.find, engine, body.name)

    found = await _password_checked(request, hub, body.name, body.password, known, lookup)
    if found is None or found.account is None:
        raise WebError(401, WRONG)
    if await hub.db_call(moderation.is_banned, engine, found.account.id):
        raise WebError(403, BANNED)  # (said after the right password only: no enumeration)
    if old:  # a new session, never the one the browser came with
        await hub.db_call(sessions.end, engine, old)
    token = await hub.db_call(sessions.start, engine, found.account.id)
    await _note_device(request, response, hub, found.account.id)
    return _answer(response, found.account, token)


@router.post("/logout", response_model_exclude_unset=True)
async def logout(request: Request, response: Response,
                 hub: StoreCalls = Depends(store_calls)) -> LoggedOut:
    """End this session (a browser without one is simply a guest already)."""
    sessions.check_same_origin(request.headers)
    token = request.cookies.get(sessions.COOKIE)
    if token:
        account = await hub.db_call(sessions.account_of, _engine(hub), token)
        if account is not None:
            sessions.check_csrf(token, request.headers)
            await hub.db_call(sessions.end, _engine(hub), token)
    response.delete_cookie(sessions.COOKIE, path="/", secure=True, httponly=True,
                           samesite="lax")
    return LoggedOut(name=None)


async def _confirmed(request: Request, hub: StoreCalls, password: str
                     ) -> tuple[accounts.Account, str]:
    """The logged-in account, after the CSRF check and its current password (wrong
    passwords count against the brute-force limits as log-ins do)."""
    sessions.check_same_origin(request.headers)
    account, token = await logged_in(request, hub)
    sessions.check_csrf(token, request.headers)

    async def lookup() -> accounts.Found:
        hashed = await hub.db_call(accounts.password_hash_of, _engine(hub), account.id)
        return accounts.Found(account if hashed else None, hashed or "")

    if await _password_checked(request, hub, account.name, password, True, lookup) is None:
        raise WebError(403, "the current password is wrong")
    return account, token


@router.post("/password", response_model_exclude_unset=True)
async def change_password(body: NewPassword, request: Request, response: Response,
                          hub: StoreCalls = Depends(store_calls)) -> LoggedIn:
    """A new password (the current one confirms it); the account's other sessions end."""
    account, token = await _confirmed(request, hub, body.password)
    new = passwords.check_password(body.new_password, account.name)
    hashed = await _slow(0, accounts.hash_password, new)
    await hub.db_call(accounts.set_password, _engine(hub), account.id, hashed,
                      hash_secret(token))
    return _answer(response, account, token)


@router.delete("", response_model_exclude_unset=True)
async def delete_account(body: Confirm, request: Request, response: Response,
                         hub: StoreCalls = Depends(store_calls),
                         hooks: AccountHooks = Depends(account_hooks)) -> LoggedOut:
    """Delete the account (its password confirms it). Its games stay; its seats read
    "deleted player" and nobody can play them any more."""
    account, _token = await _confirmed(request, hub, body.password)
    game_ids = await hub.db_call(accounts.remove, hub.store, account.id, hooks.forget)
    await hooks.seats_renamed(game_ids)  # the rooms in memory take the new names now
    response.delete_cookie(sessions.COOKIE, path="/", secure=True, httponly=True,
                           samesite="lax")
    return LoggedOut(name=None, games=len(game_ids))
