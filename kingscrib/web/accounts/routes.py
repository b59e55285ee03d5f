"""Accounts: sign up, log in and out, change the password, delete the account, who am I.

Every answer is JSON; a refusal is ``{"error": "..."}`` with its status. See
kingscrib.web.accounts.store (names, passwords, limits) and kingscrib.web.accounts.sessions (the
cookie, CSRF).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from kingscrib.web.accounts import sessions
from kingscrib.web.accounts import store as accounts
from kingscrib.web.chat import moderation
from kingscrib.web.db.storage import hash_secret
from kingscrib.web.errors import WebError
from kingscrib.web.play.rooms import Hub
from kingscrib.web.server.deps import get_hub
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


def _engine(hub: Hub) -> Any:
    return hub.store.engine


# Argon2 takes 64 MiB and a core for a while on purpose: a burst of log-ins waits its
# turn rather than taking every core and all the memory from the games.
_HASHING = threading.BoundedSemaphore(accounts.HASHING_AT_ONCE)


async def _slow(fn: Any, *args: Any) -> Any:
    """A password hash or check, in a thread (never the event loop's or the store's)."""
    def bounded() -> Any:
        with _HASHING:
            return fn(*args)

    return await asyncio.to_thread(bounded)


async def logged_in(request: Request, hub: Hub) -> tuple[accounts.Account, str]:
    """The caller's account and session token; WebError(401) when not logged in."""
    token = request.cookies.get(sessions.COOKIE)
    account = await hub.db_call(sessions.account_of, _engine(hub), token)
    if account is None or token is None:
        raise WebError(401, "you are not logged in")
    return account, token


def _answer(account: accounts.Account, token: str, status: int = 200,
            **extra: Any) -> JSONResponse:
    response = JSONResponse({"name": account.name, "csrf": sessions.csrf_token(token),
                             **extra}, status_code=status, headers={"Cache-Control": "no-store"})
    response.set_cookie(**sessions.cookie_args(token))
    return response


@router.get("")
async def me(request: Request, hub: Hub = Depends(get_hub)) -> JSONResponse:
    """Who is logged in here: ``{"name", "csrf"}``, or ``{"name": null}`` for a guest."""
    token = request.cookies.get(sessions.COOKIE)
    account = await hub.db_call(sessions.account_of, _engine(hub), token)
    if account is None or token is None:
        return JSONResponse({"name": None}, headers={"Cache-Control": "no-store"})
    engine = _engine(hub)
    return JSONResponse({"name": account.name, "csrf": sessions.csrf_token(token),
                         "id": account.id,
                         "moderator": await hub.db_call(moderation.is_moderator, engine,
                                                        account.id),
                         "banned": await hub.db_call(moderation.is_banned, engine, account.id)},
                        headers={"Cache-Control": "no-store"})


@router.post("/signup", status_code=201)
async def signup(body: SignUp, request: Request, hub: Hub = Depends(get_hub)) -> JSONResponse:
    """A new account, logged in; the guest seats whose tokens come along are its own."""
    sessions.check_same_origin(request.headers)
    name = accounts.user_name(body.name)
    password = accounts.check_password(body.password)
    engine, now = _engine(hub), time.time()
    signup_key = accounts.signup_key(client_address(request.scope))
    if await hub.db_call(accounts.too_many, engine,
                         [(signup_key, accounts.SIGNUPS_PER_ADDRESS)], now):
        raise WebError(429, "too many sign-ups from your address: try again later")
    await hub.db_call(accounts.count_failure, engine, [signup_key], now)
    hashed = await _slow(accounts.hash_password, password)
    account = await hub.db_call(accounts.create, engine, name, hashed, now)
    held = [(s.game_id, hash_secret(s.token)) for s in body.seats]
    linked = await hub.db_call(accounts.own_seats, engine, account.id, held) if held else 0
    old = request.cookies.get(sessions.COOKIE)
    if old:  # a browser logged in as someone else is now the new account only
        await hub.db_call(sessions.end, engine, old)
    token = await hub.db_call(sessions.start, engine, account.id)
    return _answer(account, token, 201, seats=linked)


@router.post("/login")
async def login(body: LogIn, request: Request, hub: Hub = Depends(get_hub)) -> JSONResponse:
    """Log in. An unknown name and a wrong password get the same answer, after the same
    work; failures are limited per address and per name (429 past the limit)."""
    sessions.check_same_origin(request.headers)
    engine, now = _engine(hub), time.time()
    keys = accounts.failure_keys(client_address(request.scope), body.name)
    limits = [(keys[0], accounts.PER_ADDRESS), (keys[1], accounts.PER_ACCOUNT)]
    if await hub.db_call(accounts.too_many, engine, limits, now):
        raise WebError(429, LIMITED)
    found = await hub.db_call(accounts.find, engine, body.name)
    right = await _slow(accounts.password_matches, found.password_hash,
                                    body.password)
    if not right or found.account is None:
        await hub.db_call(accounts.count_failure, engine, list(keys), now)
        raise WebError(401, WRONG)
    await hub.db_call(accounts.forget_failures, engine, keys[1])
    if await hub.db_call(moderation.is_banned, engine, found.account.id):
        raise WebError(403, BANNED)  # (said after the right password only: no enumeration)
    old = request.cookies.get(sessions.COOKIE)
    if old:  # a new session, never the one the browser came with
        await hub.db_call(sessions.end, engine, old)
    token = await hub.db_call(sessions.start, engine, found.account.id)
    return _answer(found.account, token)


@router.post("/logout")
async def logout(request: Request, hub: Hub = Depends(get_hub)) -> JSONResponse:
    """End this session (a browser without one is simply a guest already)."""
    sessions.check_same_origin(request.headers)
    token = request.cookies.get(sessions.COOKIE)
    if token:
        account = await hub.db_call(sessions.account_of, _engine(hub), token)
        if account is not None:
            sessions.check_csrf(token, request.headers)
            await hub.db_call(sessions.end, _engine(hub), token)
    response = JSONResponse({"name": None})
    response.delete_cookie(sessions.COOKIE, path="/", secure=True, httponly=True,
                           samesite="lax")
    return response


async def _confirmed(request: Request, hub: Hub, password: str
                     ) -> tuple[accounts.Account, str]:
    """The logged-in account, after the CSRF check and its current password (wrong
    passwords count against the brute-force limits as log-ins do)."""
    sessions.check_same_origin(request.headers)
    account, token = await logged_in(request, hub)
    sessions.check_csrf(token, request.headers)
    engine, now = _engine(hub), time.time()
    keys = accounts.failure_keys(client_address(request.scope), account.name)
    limits = [(keys[0], accounts.PER_ADDRESS), (keys[1], accounts.PER_ACCOUNT)]
    if await hub.db_call(accounts.too_many, engine, limits, now):
        raise WebError(429, LIMITED)
    hashed = await hub.db_call(accounts.password_hash_of, engine, account.id)
    if not await _slow(accounts.password_matches, hashed or "", password):
        await hub.db_call(accounts.count_failure, engine, list(keys), now)
        raise WebError(403, "the current password is wrong")
    return account, token


@router.post("/password")
async def change_password(body: NewPassword, request: Request,
                          hub: Hub = Depends(get_hub)) -> JSONResponse:
    """A new password (the current one confirms it); the account's other sessions end."""
    new = accounts.check_password(body.new_password)
    account, token = await _confirmed(request, hub, body.password)
    hashed = await _slow(accounts.hash_password, new)
    await hub.db_call(accounts.set_password, _engine(hub), account.id, hashed,
                      hash_secret(token))
    return _answer(account, token)


@router.delete("")
async def delete_account(body: Confirm, request: Request,
                         hub: Hub = Depends(get_hub)) -> JSONResponse:
    """Delete the account (its password confirms it). Its games stay; its seats read
    "deleted player" and nobody can play them any more."""
    account, _token = await _confirmed(request, hub, body.password)
    game_ids = await hub.db_call(accounts.remove, hub.store, account.id)
    for game_id in game_ids:  # the rooms in memory take the new names now
        room = hub.rooms.get(game_id)
        if room is not None:
            with contextlib.suppress(WebError):
                await hub.refresh(room, rebuild=True)
    response = JSONResponse({"name": None, "games": len(game_ids)})
    response.delete_cookie(sessions.COOKIE, path="/", secure=True, httponly=True,
                           samesite="lax")
    return response
