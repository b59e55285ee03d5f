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
runs elsewhere (:func:`hash_password`, :func:`check_password` are slow on purpose).
"""

from __future__ import annotations

import functools
import hashlib
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from kingscrib.web.accounts.names import (
    DELETED,
    MAX_NAME,
    login_key,
    look_key,
    person_name,
    skeleton,
)
from kingscrib.web.db.rows import inserted_id
from kingscrib.web.db.storage import Store
from kingscrib.web.db.tables import account_sessions, accounts, login_failures, seat_accounts, seats
from kingscrib.web.errors import WebError
from kingscrib.web.puzzles import store as puzzle_store
from kingscrib.web.ratings import store as ratings
from kingscrib.web.tournaments import store as tournament_store

MIN_PASSWORD, MAX_PASSWORD = 8, 256  # characters; Argon2 takes any length, the body not
# Brute-force limits: failed log-ins in the last WINDOW seconds, per typed account name
# and per client address; sign-ups per address count the same way.
WINDOW = 15 * 60.0
PER_ACCOUNT, PER_ADDRESS, SIGNUPS_PER_ADDRESS = 10, 30, 10
MAX_LINKED = 100  # guest seats a sign-up may bring along
HASHING_AT_ONCE = 2  # Argon2 hashes computed at once (each takes 64 MiB and a core)

_hasher = PasswordHasher()
_INVISIBLE = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


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
    if not isinstance(raw, str) or not raw.strip():
        raise WebError(400, "choose a user name")
    text = unicodedata.normalize("NFC", raw.strip())
    if any(unicodedata.category(ch) in _INVISIBLE for ch in text):
        raise WebError(400, "a user name may not hold control or invisible characters")
    if any(ch.isspace() and ch != " " for ch in text) or "  " in text or "<" in text \
            or ">" in text:
        raise WebError(400, "a user name may hold single spaces only, and no < or >")
    if len(text) > MAX_NAME:
        raise WebError(400, f"a user name is at most {MAX_NAME} characters")
    if not skeleton(text):
        raise WebError(400, "a user name needs a letter or a digit")
    cleaned = person_name(text, "")  # refuses a name that reads as a computer seat's
    if cleaned != text:  # (names.clean_name would change it: marks piled on a letter)
        raise WebError(400, "a user name may not pile marks on a letter")
    return text




def check_password(raw: Any) -> str:
    if not isinstance(raw, str) or len(raw) < MIN_PASSWORD:
        raise WebError(400, f"a password has at least {MIN_PASSWORD} characters")
    if len(raw) > MAX_PASSWORD:
        raise WebError(400, f"a password has at most {MAX_PASSWORD} characters")
    return raw


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


def remove(store: Store, account_id: int) -> list[str]:
    """Delete an account and its sessions; its seats stay, named "deleted player", and
    nobody plays them any more. Returns the ids of the games it had seats in (the other
    server processes sharing a PostgreSQL are told, as for any change of a game)."""
    with store.engine.begin() as conn:
        owned = conn.execute(select(seat_accounts.c.game_id, seat_accounts.c.seat)
                             .where(seat_accounts.c.account_id == account_id)).all()
        for game_id, seat in owned:
            conn.execute(update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat)
                         .values(name=DELETED))
        conn.execute(update(seat_accounts).where(seat_accounts.c.account_id == account_id)
                     .values(account_id=None))
        ratings.forget_account(conn, account_id)
        conn.execute(delete(account_sessions)
                     .where(account_sessions.c.account_id == account_id))
        puzzle_store.forget(conn, account_id)
        tournament_store.forget_account(conn, account_id)
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
            if taken is None:
                conn.execute(insert(seat_accounts).values(game_id=game_id, seat=row.seat,
                                                          account_id=account_id))
                gained += 1
    return gained


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


def failure_keys(address: str, name: Any) -> tuple[str, str]:
    typed = name if isinstance(name, str) else ""
    return _key("address", address), _key("name", login_key(typed[:4 * MAX_NAME]))


def signup_key(address: str) -> str:
    """Sign-ups are counted per address as failed log-ins are, under a key of their own."""
    return _key("signup", address)


def too_many(engine: Engine, limits: list[tuple[str, int]], now: float) -> bool:
    """Whether any key has reached its limit of failures within the window."""
    with engine.begin() as conn:
        conn.execute(delete(login_failures).where(login_failures.c.at < now - WINDOW))
        for key, limit in limits:
            count = conn.execute(select(func.count()).select_from(login_failures).where(
                login_failures.c.key == key, login_failures.c.at >= now - WINDOW)).scalar_one()
            if count >= limit:
                return True
    return False


def count_failure(engine: Engine, keys: list[str], now: float) -> None:
    with engine.begin() as conn:
        conn.execute(insert(login_failures), [{"key": k, "at": now} for k in keys])


def forget_failures(engine: Engine, key: str) -> None:
    with engine.begin() as conn:
        conn.execute(delete(login_failures).where(login_failures.c.key == key))
