"""Optional user accounts: user names, Argon2 password hashes, the seats an account owns.

A guest plays as today, with a typed name and the seat tokens the browser keeps. An
account has a user name (checked, never silently changed: a name that is too long or
holds control or invisible characters is refused) and a password hashed with Argon2id
(argon2-cffi's defaults, a salt each). Two accounts may not share a name compared
case-insensitively (NFKC, casefolded) nor one that reads the same (the skeleton of
:mod:`kingscrib.web.accounts.names`).

Log-ins answer alike for an unknown name and a wrong password, and take the same time:
an unknown name is checked against a dummy hash made with the same parameters. Failed
log-ins are counted per client address and per typed name (``login_failures``).

The store functions take the store's engine and run in its thread; password hashing
runs elsewhere (:func:`hash_password`, :func:`password_matches` are slow on purpose).
"""

from __future__ import annotations

import functools
import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import delete, func, insert, select, text, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from kingscrib.web.accounts.names import (
    DELETED,
    MAX_NAME,
    checked_name,
    login_key,
    look_key,
)
from kingscrib.web.db.rows import inserted_id
from kingscrib.web.db.storage import Store
from kingscrib.web.db.tables import account_sessions, accounts, login_failures, seat_accounts, seats
from kingscrib.web.errors import WebError

# Brute-force limits: log-in attempts that failed (or are being checked) in the last
# WINDOW seconds, from one client address (any names), for one typed name from one
# address, and for one typed name from all addresses together (a slower limit, which a
# browser logged in as that account skips: the owner is never locked out by guesses from
# elsewhere). Sign-ups per address count the accounts made.
WINDOW = 15 * 60.0
PER_ADDRESS, PER_NAME_AT_ADDRESS, PER_NAME = 30, 10, 100
SIGNUPS_PER_ADDRESS = 10
MAX_LINKED = 100  # guest seats a sign-up may bring along

_hasher = PasswordHasher()


@dataclass
class Account:
    id: int
    name: str


@dataclass
class Found:
    """A log-in's account row (None: no such name) and the hash to check the password
    against (the dummy hash for an unknown name)."""

    account: Account | None
    password_hash: str


def user_name(raw: Any) -> str:
    """A user name as typed, checked; WebError(400) saying what is wrong with it."""
    return checked_name(raw, "a user name", MAX_NAME)


# ----- hashing (slow: run outside the event loop and the store's thread) ---------------
def hash_password(password: str) -> str:
    return _hasher.hash(password)


@functools.cache
def dummy_hash() -> str:
    """A hash with the same parameters as real ones, checked for unknown names."""
    return _hasher.hash("no account has this password")


def password_matches(password_hash: str, password: str) -> bool:
    try:
        return _hasher.verify(password_hash, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


# ----- the store ------------------------------------------------------------------------
def create(engine: Engine, name: str, password_hash: str, now: float | None = None) -> Account:
    """A new account; WebError(409) when its name, or one that looks like it, is taken."""
    try:
        with engine.begin() as conn:
            new_id = inserted_id(conn.execute(insert(accounts).values(
                name=name, login_key=login_key(name), look_key=look_key(name),
                password_hash=password_hash, created=now or time.time())))
    except IntegrityError:
        raise WebError(409, f"the user name {name!r} (or one that looks like it) is taken;"
                            " choose another") from None
    return Account(new_id, name)


def find(engine: Engine, name: Any) -> Found:
    """The account a log-in names (the dummy hash when none: the same work follows)."""
    row = None
    if isinstance(name, str) and 0 < len(name) <= 4 * MAX_NAME:
        with engine.connect() as conn:
            row = conn.execute(select(accounts.c.id, accounts.c.name, accounts.c.password_hash)
                               .where(accounts.c.login_key == login_key(name))).first()
    if row is None:
        return Found(None, dummy_hash())
    return Found(Account(row.id, row.name), row.password_hash)


def password_hash_of(engine: Engine, account_id: int) -> str | None:
    with engine.connect() as conn:
        return conn.execute(select(accounts.c.password_hash)
                            .where(accounts.c.id == account_id)).scalar_one_or_none()


def set_password(engine: Engine, account_id: int, password_hash: str,
                 keep_session: str | None = None) -> None:
    """A new password; every other session of the account ends."""
    with engine.begin() as conn:
        conn.execute(update(accounts).where(accounts.c.id == account_id)
                     .values(password_hash=password_hash))
        ended = delete(account_sessions).where(account_sessions.c.account_id == account_id)
        if keep_session is not None:
            ended = ended.where(account_sessions.c.token_hash != keep_session)
        conn.execute(ended)


# Another domain forgets an account (its id) in the caller's transaction
# (kingscrib.web.accounts.hooks).
ForgetAccount = Callable[[Connection, int], None]


def remove(store: Store, account_id: int, forget: Sequence[ForgetAccount] = ()) -> list[str]:
    """Delete an account and its sessions; its seats stay, named "deleted player", and
    nobody plays them any more. ``forget``: the other domains' hooks that forget the
    account in the same transaction (kingscrib.web.accounts.hooks: its ratings, puzzle
    progress, tournament entries). Returns the ids of the games it had seats in (the
    other server processes sharing a PostgreSQL are told, as for any change of a game)."""
    with store.engine.begin() as conn:
        owned = conn.execute(select(seat_accounts.c.game_id, seat_accounts.c.seat)
                             .where(seat_accounts.c.account_id == account_id)).all()
        for game_id, seat in owned:
            conn.execute(update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat)
                         .values(name=DELETED))
        conn.execute(update(seat_accounts).where(seat_accounts.c.account_id == account_id)
                     .values(account_id=None))
        conn.execute(delete(account_sessions)
                     .where(account_sessions.c.account_id == account_id))
        for forget_in_domain in forget:
            forget_in_domain(conn, account_id)
        conn.execute(delete(accounts).where(accounts.c.id == account_id))
        game_ids = sorted({game_id for game_id, _ in owned})
        store._notify(conn, game_ids)
    return game_ids


def own_seats(engine: Engine, account_id: int, held: list[tuple[str, str]]) -> int:
    """Give the account the guest seats whose tokens it shows (game id, token hash); a
    seat already owned (by anyone) stays as it is. Returns how many it gained."""
    gained = 0
    with engine.begin() as conn:
        for game_id, token_hash in held[:MAX_LINKED]:
            row = conn.execute(select(seats.c.seat).where(
                seats.c.game_id == game_id, seats.c.token_hash == token_hash,
                seats.c.kind == "human")).first()
            if row is None:
                continue
            taken = conn.execute(select(seat_accounts.c.seat).where(
                seat_accounts.c.game_id == game_id, seat_accounts.c.seat == row.seat)).first()
            # One account plays one seat of a game: a second guest seat stays a guest's.
            if taken is None and _seat_held(conn, game_id, account_id) is None:
                conn.execute(insert(seat_accounts).values(game_id=game_id, seat=row.seat,
                                                          account_id=account_id))
                gained += 1
    return gained


def _seat_held(conn: Connection, game_id: str, account_id: int) -> int | None:
    seat: int | None = conn.execute(select(seat_accounts.c.seat).where(
        seat_accounts.c.game_id == game_id, seat_accounts.c.account_id == account_id)
        .order_by(seat_accounts.c.seat).limit(1)).scalar_one_or_none()
    return seat


def seat_held(engine: Engine, game_id: str, account_id: int) -> int | None:
    """The seat of the game the account holds (None: none)."""
    with engine.connect() as conn:
        return _seat_held(conn, game_id, account_id)


def seat_owners(engine: Engine, game_id: str) -> dict[str, int | None]:
    """The game's seats that belong to an account, by their token's hash: the account
    (None: a deleted one). A seat not listed is a guest's (or no seat at all)."""
    with engine.connect() as conn:
        rows = conn.execute(select(seats.c.token_hash, seat_accounts.c.account_id).join(
            seats, (seats.c.game_id == seat_accounts.c.game_id)
            & (seats.c.seat == seat_accounts.c.seat)).where(
            seats.c.game_id == game_id, seats.c.token_hash.is_not(None))).all()
    return {row.token_hash: row.account_id for row in rows}


# ----- brute-force limits ---------------------------------------------------------------
def _key(kind: str, value: str) -> str:
    return hashlib.sha256(f"{kind}\0{value}".encode("utf-8", "replace")).hexdigest()


def signup_key(address: str) -> str:
    """Sign-ups are counted per address as failed log-ins are, under a key of their own."""
    return _key("signup", address)


@dataclass(frozen=True)
class Reservation:
    """Attempts counted ahead of their work: the rows to give back if it succeeds, and how
    many attempts the first key had in the window before this one."""

    ids: tuple[int, ...]
    before: int


def reserve(engine: Engine, limits: list[tuple[str, int]], now: float) -> Reservation | None:
    """Count one attempt under every key, unless one of them has reached its limit within
    the window (None then, nothing counted). The check and the count are one
    transaction that holds the keys: on PostgreSQL an advisory lock per key (all
    processes), on SQLite the database's write lock, taken by the transaction's first
    statement; so no two attempts can both take the last place."""
    since = now - WINDOW
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            for key in sorted({k for k, _ in limits}):
                conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:k))"),
                             {"k": f"login {key}"})
        conn.execute(delete(login_failures).where(login_failures.c.at < since))
        counts = []
        for key, limit in limits:
            count = conn.execute(select(func.count()).select_from(login_failures).where(
                login_failures.c.key == key, login_failures.c.at >= since)).scalar_one()
            if count >= limit:
                return None
            counts.append(count)
        ids = tuple(inserted_id(conn.execute(insert(login_failures).values(key=key, at=now)))
                    for key, _ in limits)
    return Reservation(ids, counts[0] if counts else 0)


def release(engine: Engine, reservation: Reservation) -> None:
    """Give the reserved attempts back (a right password; a sign-up that made nothing)."""
    with engine.begin() as conn:
        conn.execute(delete(login_failures).where(login_failures.c.id.in_(reservation.ids)))


def login_limits(address: str, name: Any, known: bool) -> list[tuple[str, int]]:
    """The keys a log-in attempt counts under, with their limits; ``known``: the browser is
    logged in as the account named (the owner confirming their password), which skips the
    limit per name over all addresses."""
    typed = login_key(name[:4 * MAX_NAME] if isinstance(name, str) else "")
    limits = [(_key("address", address), PER_ADDRESS),
              (_key("name at address", f"{typed}\0{address}"), PER_NAME_AT_ADDRESS)]
    if not known:
        limits.append((_key("name", typed), PER_NAME))
    return limits
