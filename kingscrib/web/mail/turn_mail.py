"""E-mail per turn in correspondence games, for the accounts that asked for it.

An account may give an e-mail address (optional, and not verified: the server sends
only turn notices to it, and only while the account asks for them) and opt in to a
notice each time a correspondence game (a clock of days per move) waits for its move.
Notices go out only when the operator configures SMTP (``kingscrib serve --smtp-host
--smtp-port --smtp-from``, or the environment): the process that stores a turn sends
them, in a thread, so no move waits for the mail server.
"""

from __future__ import annotations

import asyncio
import logging
import re
import smtplib
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any

from sqlalchemy import Boolean, Column, Integer, String, Table, delete, insert, select
from sqlalchemy.engine import Engine

from kingscrib.web.accounts.names import shown_seat_name
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
    text = raw.strip()
    if len(text) > MAX_ADDRESS:
        raise WebError(400, f"an e-mail address is at most {MAX_ADDRESS} characters")
    if not text.isascii() or not _ADDRESS.fullmatch(text) or any(c in text for c in "<>,;\"\\"):
        raise WebError(400, f"{text[:80]!r} does not read as an e-mail address"
                            " (name@example.org)")
    return text


# ----- the store --------------------------------------------------------------------------
def email_of(engine: Engine, account_id: int) -> dict[str, Any]:
    with engine.connect() as conn:
        row = conn.execute(select(account_emails.c.address, account_emails.c.turn_mail).join(
            accounts, (accounts.c.id == account_emails.c.account_id)
            & (accounts.c.login_key == account_emails.c.login_key)).where(
            account_emails.c.account_id == account_id)).first()
    return {"address": None, "turn_mail": False} if row is None else {
        "address": row.address, "turn_mail": bool(row.turn_mail)}


def set_email(engine: Engine, account_id: int, address: str | None, turn_mail: bool) -> None:
    with engine.begin() as conn:
        conn.execute(delete(account_emails).where(account_emails.c.account_id == account_id))
        if address is None:
            return
        key = conn.execute(select(accounts.c.login_key)
                           .where(accounts.c.id == account_id)).scalar_one()
        conn.execute(insert(account_emails).values(account_id=account_id, login_key=key,
                                                   address=address, turn_mail=turn_mail))


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
    message["Subject"] = f"Your turn: {title} against {', '.join(others)}"
    message.set_content(
        f"It is your move in {title} ({' v '.join(names)}).\n"
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
    from kingscrib.web.accounts import store as account_store
    from kingscrib.web.chat import moderation

    def mail_for(room: Room, seats: list[int]) -> list[EmailMessage]:
        """In the store's thread: the notices to send."""
        owners = account_store.seat_owners(hub.store.engine, room.id)
        messages = []
        for seat in seats:
            owner = owners.get(room.seats[seat].token_hash or "")
            if owner is None or moderation.is_banned(hub.store.engine, owner):
                continue
            wanted = email_of(hub.store.engine, owner)
            if wanted["address"] and wanted["turn_mail"]:
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
