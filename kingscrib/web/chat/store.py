"""Chat history, mutes and reports, in tables of their own.

Chat is never written into a game's turns, record or export: its messages live here,
keyed by the game's id only (no foreign key: a cancelled game or a deleted account
takes nothing here down with it, and nothing here blocks them). Each message is in one
of a game's two rooms, ``players`` or ``spectators``. A moderator may hide a message:
it stays stored (for the reports) but nobody is shown it again.

The functions take the store's engine and run in the store's thread.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Any

from sqlalchemy import (
    Column,
    Float,
    Index,
    Integer,
    String,
    Table,
    Text,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine

from kingscrib.web.db.rows import inserted_id
from kingscrib.web.db.tables import metadata

ROOMS = ("players", "spectators")
MAX_MUTES = 200  # senders one account may mute
HISTORY = 100  # messages a room shows when it is opened

chat_messages = Table(
    "chat_messages", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), nullable=False),
    Column("room", String(10), nullable=False),  # players or spectators
    # Who sent it, as mutes name them: "a<account id>", or "g<seat>" for a guest's seat.
    Column("sender", String(24), nullable=False),
    Column("name", String(40), nullable=False),
    Column("account_id", Integer, nullable=True),
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
    Column("hidden", Float, nullable=True),  # when a moderator hid it
    Index("ix_chat_messages_game_room", "game_id", "room", "id"),
)

# Who an account muted (a guest's mutes stay in their browser).
chat_mutes = Table(
    "chat_mutes", metadata,
    Column("account_id", Integer, primary_key=True),
    Column("muted", String(24), primary_key=True),  # a sender key as above
)

# Messages reported for the moderators, and who reported them.
chat_reports = Table(
    "chat_reports", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("message_id", Integer, nullable=False),
    Column("reporter", String(80), nullable=False),  # as the moderators read it
    Column("reporter_account", Integer, nullable=True),
    Column("at", Float, nullable=False),
    Column("resolved", Float, nullable=True),  # when a moderator dealt with it
    Index("ix_chat_reports_resolved", "resolved"),
)


@dataclass
class Message:
    id: int
    game_id: str
    room: str
    sender: str
    name: str
    text: str
    at: float

    def public(self) -> dict[str, Any]:
        """What every reader of the room is sent: no account id, nothing of the game."""
        data = asdict(self)
        del data["game_id"]
        return data


def _message(row: Any) -> Message:
    return Message(row.id, row.game_id, row.room, row.sender, row.name, row.text, row.at)


def add(engine: Engine, game_id: str, room: str, sender: str, name: str,
        account_id: int | None, text: str, now: float | None = None) -> Message:
    now = time.time() if now is None else now
    with engine.begin() as conn:
        new_id = inserted_id(conn.execute(insert(chat_messages).values(
            game_id=game_id, room=room, sender=sender, name=name, account_id=account_id,
            text=text, at=now)))
    return Message(new_id, game_id, room, sender, name, text, now)


def history(engine: Engine, game_id: str, room: str, limit: int = HISTORY) -> list[Message]:
    """The room's last ``limit`` messages not hidden, oldest first."""
    with engine.connect() as conn:
        rows = conn.execute(select(chat_messages).where(
            chat_messages.c.game_id == game_id, chat_messages.c.room == room,
            chat_messages.c.hidden.is_(None)).order_by(chat_messages.c.id.desc())
            .limit(limit)).all()
    return [_message(r) for r in reversed(rows)]


def find(engine: Engine, message_id: int) -> Message | None:
    with engine.connect() as conn:
        row = conn.execute(select(chat_messages).where(
            chat_messages.c.id == message_id, chat_messages.c.hidden.is_(None))).first()
    return None if row is None else _message(row)


def sender_account(engine: Engine, message_id: int) -> int | None:
    with engine.connect() as conn:
        return conn.execute(select(chat_messages.c.account_id)
                            .where(chat_messages.c.id == message_id)).scalar_one_or_none()


def hide(engine: Engine, message_id: int, now: float | None = None) -> Message | None:
    """Hide a message for everyone (its reports are resolved); None: no such message."""
    now = time.time() if now is None else now
    with engine.begin() as conn:
        row = conn.execute(select(chat_messages).where(chat_messages.c.id == message_id)).first()
        if row is None:
            return None
        conn.execute(update(chat_messages).where(chat_messages.c.id == message_id,
                                                 chat_messages.c.hidden.is_(None))
                     .values(hidden=now))
        conn.execute(update(chat_reports).where(chat_reports.c.message_id == message_id,
                                                chat_reports.c.resolved.is_(None))
                     .values(resolved=now))
    return _message(row)


# ----- mutes (accounts) -------------------------------------------------------------
def mutes(engine: Engine, account_id: int) -> list[str]:
    with engine.connect() as conn:
        return sorted(conn.execute(select(chat_mutes.c.muted)
                                   .where(chat_mutes.c.account_id == account_id)).scalars())


def mute(engine: Engine, account_id: int, sender: str, muted: bool) -> bool:
    """Mute (or unmute) a sender; False, nothing changed, when the account has
    :data:`MAX_MUTES` mutes already."""
    with engine.begin() as conn:
        others = conn.execute(select(func.count()).select_from(chat_mutes).where(
            chat_mutes.c.account_id == account_id, chat_mutes.c.muted != sender)).scalar_one()
        if muted and others >= MAX_MUTES:
            return False
        conn.execute(delete(chat_mutes).where(chat_mutes.c.account_id == account_id,
                                              chat_mutes.c.muted == sender))
        if muted:
            conn.execute(insert(chat_mutes).values(account_id=account_id, muted=sender))
    return True


# ----- reports ----------------------------------------------------------------------
def report(engine: Engine, message_id: int, reporter: str, reporter_account: int | None,
           now: float | None = None) -> int | None:
    """A report of the message; None when this reporter (an account, or a guest's seat
    as named) reported it already."""
    with engine.begin() as conn:
        who = (chat_reports.c.reporter_account == reporter_account
               if reporter_account is not None else chat_reports.c.reporter == reporter)
        if conn.execute(select(chat_reports.c.id).where(
                chat_reports.c.message_id == message_id, who)).first() is not None:
            return None
        return inserted_id(conn.execute(insert(chat_reports).values(
            message_id=message_id, reporter=reporter, reporter_account=reporter_account,
            at=time.time() if now is None else now)))


def open_reports(engine: Engine, limit: int = 200) -> list[dict[str, Any]]:
    """Reports no moderator has dealt with, newest first, each with its message."""
    with engine.connect() as conn:
        rows = conn.execute(select(
            chat_reports.c.id, chat_reports.c.reporter, chat_reports.c.at,
            chat_messages.c.id.label("message_id"), chat_messages.c.game_id,
            chat_messages.c.room, chat_messages.c.name, chat_messages.c.text,
            chat_messages.c.account_id, chat_messages.c.at.label("sent"),
            chat_messages.c.hidden).join(
            chat_messages, chat_messages.c.id == chat_reports.c.message_id).where(
            chat_reports.c.resolved.is_(None)).order_by(chat_reports.c.id.desc())
            .limit(limit)).all()
    return [dict(r._mapping) for r in rows]


def resolve(engine: Engine, report_id: int, now: float | None = None) -> bool:
    with engine.begin() as conn:
        done = conn.execute(update(chat_reports).where(
            chat_reports.c.id == report_id, chat_reports.c.resolved.is_(None))
            .values(resolved=time.time() if now is None else now))
    return done.rowcount == 1
