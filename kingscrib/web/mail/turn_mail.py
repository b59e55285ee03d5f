"""E-mail per turn in correspondence games, for the accounts that asked for it.

An account may give an e-mail address (optional) and opt in to a notice each time a
correspondence game (a clock of days per move) waits for its move. A new address is
confirmed first: the server mails it a link (a secret token, kept hashed) and sends no
notice to it until that link is opened, so nobody can sign a stranger up. A notice's
subject names the game only; the players' names are in its body.
Notices go out only when the operator configures SMTP (``kingscrib serve --smtp-host
--smtp-port --smtp-from``, or the environment): the process that stores a turn sends
them, in a thread, so no move waits for the mail server.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import smtplib
import time
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    Integer,
    String,
    Table,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine

from kingscrib.web.accounts.names import shown_seat_name
from kingscrib.web.accounts.text_rules import checked_text
from kingscrib.web.db.storage import hash_secret
from kingscrib.web.db.tables import accounts, metadata
from kingscrib.web.errors import WebError
from kingscrib.web.play.room import Room
from kingscrib.web.play.rooms import Hub

log = logging.getLogger("kingscrib.web")
MAX_ADDRESS = 254
_ADDRESS = re.compile(r"[^@\s]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
                      r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+")

account_emails = Table(
    "account_emails", metadata,
    Column("account_id", Integer, primary_key=True),
    Column("login_key", String(64), nullable=False),  # the same account (moderation.py)
    Column("address", String(MAX_ADDRESS), nullable=False),
    Column("turn_mail", Boolean, nullable=False),
    Column("confirmed", Float, nullable=True),  # when its link was opened (None: not yet)
    Column("confirm_hash", String(64), nullable=True, index=True),  # the link's token, hashed
)


@dataclass
class MailSettings:
    """Where turn notices go out from. ``site_url``: the address players open (links)."""

    host: str
    port: int = 25
    sender: str = "kingscrib@localhost"
    site_url: str = "http://127.0.0.1:8000"
    starttls: bool = False
    user: str | None = None
    password: str | None = None


def check_address(raw: Any) -> str:
    """An e-mail address as typed, checked; WebError(400) saying what is wrong."""
    if not isinstance(raw, str) or not raw.strip():
        raise WebError(400, "give an e-mail address")
    text = checked_text(raw.strip(), "an e-mail address", MAX_ADDRESS)
    if not text.isascii() or not _ADDRESS.fullmatch(text) or any(c in text for c in "<>,;\"\\"):
        raise WebError(400, f"{text[:80]!r} does not read as an e-mail address"
                            " (name@example.org)")
    return text


# ----- the store --------------------------------------------------------------------------
def email_of(engine: Engine, account_id: int) -> dict[str, Any]:
    with engine.connect() as conn:
        row = conn.execute(select(account_emails.c.address, account_emails.c.turn_mail,
                                  account_emails.c.confirmed).join(
            accounts, (accounts.c.id == account_emails.c.account_id)
            & (accounts.c.login_key == account_emails.c.login_key)).where(
            account_emails.c.account_id == account_id)).first()
    return {"address": None, "turn_mail": False, "confirmed": False} if row is None else {
        "address": row.address, "turn_mail": bool(row.turn_mail),
        "confirmed": row.confirmed is not None}


def set_email(engine: Engine, account_id: int, address: str | None, turn_mail: bool
              ) -> str | None:
    """Give, change or remove the account's address. Returns the token of the link that
    confirms a new address (to mail to it), None when there is nothing to confirm (the
    same confirmed address, or none)."""
    with engine.begin() as conn:
        old = conn.execute(select(account_emails.c.address, account_emails.c.confirmed)
                           .where(account_emails.c.account_id == account_id)).first()
        conn.execute(delete(account_emails).where(account_emails.c.account_id == account_id))
        if address is None:
            return None
        key = conn.execute(select(accounts.c.login_key)
                           .where(accounts.c.id == account_id)).scalar_one()
        kept = old is not None and old.address.lower() == address.lower() \
            and old.confirmed is not None
        token = None if kept else secrets.token_urlsafe(24)
        conn.execute(insert(account_emails).values(
            account_id=account_id, login_key=key, address=address, turn_mail=turn_mail,
            confirmed=old.confirmed if kept and old is not None else None,
            confirm_hash=None if token is None else hash_secret(token)))
    return token


def confirm(engine: Engine, token: str) -> bool:
    """The link of a confirmation mail was opened: its address is confirmed."""
    if not token or len(token) > 100:
        return False
    with engine.begin() as conn:
        return conn.execute(update(account_emails).where(
            account_emails.c.confirm_hash == hash_secret(token)).values(
            confirmed=time.time(), confirm_hash=None)).rowcount == 1


def confirmation(settings: MailSettings, to: str, token: str) -> EmailMessage:
    """The mail that asks an address's owner to confirm it (no user text in it)."""
    message = EmailMessage()
    message["From"] = settings.sender
    message["To"] = to
    message["Subject"] = "Confirm your e-mail address for Kingscrib turn notices"
    message.set_content(
        "A Kingscrib account gave this address for its turn notices. To get them, open:\n\n"
        f"{settings.site_url.rstrip('/')}/api/account/email/confirm?token={token}\n\n"
        "If you did not ask for this, ignore this message: nothing is sent to this"
        " address until the link is opened.\n")
    return message


# ----- sending ----------------------------------------------------------------------------
def notice(settings: MailSettings, to: str, room: Room, seat: int) -> EmailMessage:
    from kingscrib.web.play.games import game_kind

    title = game_kind(room.kind).title
    names = [shown_seat_name(room.kind, s.name, s.kind, s.level) for s in room.seats]
    others = [name for i, name in enumerate(names) if i != seat]
    days = room.clock.seconds / 86400 if room.clock else 0
    message = EmailMessage()
    message["From"] = settings.sender
    message["To"] = to
    message["Subject"] = f"Your turn: {title}"  # (no player's text: names go below)
    message.set_content(
        f"It is your move in {title} against {', '.join(others)} ({' v '.join(names)}).\n"
        f"You have {days:g} day{'s' if days != 1 else ''} for it.\n\n"
        f"Open the game: {settings.site_url.rstrip('/')}/?game={room.id}\n\n"
        "You get this because your account asked for a notice per turn; turn it off on"
        " the start page (Your turn, e-mail).\n")
    return message


def send(settings: MailSettings, message: EmailMessage) -> None:
    with smtplib.SMTP(settings.host, settings.port, timeout=10) as smtp:
        if settings.starttls:
            smtp.starttls()
        if settings.user:
            smtp.login(settings.user, settings.password or "")
        smtp.send_message(message)


def watcher(hub: Hub, settings: MailSettings) -> Any:
    """What the hub calls after each turn (:attr:`Hub.turn_watchers`): a notice to each
    seat whose move begins in a correspondence game, when its account opted in."""
    from kingscrib.web.accounts import moderation
    from kingscrib.web.accounts import store as account_store

    def mail_for(room: Room, seats: list[int]) -> list[EmailMessage]:
        """In the store's thread: the notices to send."""
        owners = account_store.seat_owners(hub.store.engine, room.id)
        messages = []
        for seat in seats:
            owner = owners.get(room.seats[seat].token_hash or "")
            if owner is None or moderation.is_banned(hub.store.engine, owner):
                continue
            wanted = email_of(hub.store.engine, owner)
            if wanted["address"] and wanted["turn_mail"] and wanted["confirmed"]:
                messages.append(notice(settings, wanted["address"], room, seat))
        return messages

    async def mail(room: Room, seats: list[int]) -> None:
        try:
            for message in await hub.db_call(mail_for, room, seats):
                await asyncio.to_thread(send, settings, message)
        except Exception as e:  # a mail server away never stops a game
            log.warning("a turn notice for %s was not sent: %s", room.id, e)

    def on_turn(room: Room, before: set[int]) -> None:
        from kingscrib.web.play.finish import ended

        if room.clock is None or not room.clock.per_move or ended(room):
            return
        begun = [s for s in room.game.waiting() if s not in before
                 and room.seats[s].kind == "human"]
        if begun:
            hub.background.start(mail(room, begun))

    return on_turn
