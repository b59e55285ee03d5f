"""Moderators and banned accounts live with the accounts (a ban also refuses the log-in):
:mod:`kingscrib.web.accounts.moderation`. Their names stay importable from here."""

from __future__ import annotations

from typing import Any

from sqlalchemy.engine import Engine

from kingscrib.web.accounts.moderation import (
    MAX_REASON,
    account_named,
    ban,
    banned,
    bans,
    is_banned,
    is_moderator,
    moderators,
    name_banned,
    set_moderator,
    unban,
)
from kingscrib.web.chat import store as chat_store

__all__ = ["MAX_REASON", "account_named", "ban", "banned", "bans", "is_banned", "is_moderator",
           "moderators", "name_banned", "open_reports", "set_moderator", "unban"]


def open_reports(engine: Engine) -> list[dict[str, Any]]:
    """The reports no moderator has dealt with (``chat.store.open_reports``), each saying
    whether its sender's account is banned already (``account_id`` stays: "ban the
    sender" needs it)."""
    found = chat_store.open_reports(engine)
    for report in found:
        report["banned"] = bool(report["account_id"]) and is_banned(engine, report["account_id"])
    return found
