"""Whether an account may use the lobby (seek, accept, challenge, be challenged): not
while a moderator's ban holds (:mod:`kingscrib.web.accounts.moderation`)."""

from __future__ import annotations

from sqlalchemy.engine import Engine

from kingscrib.web.accounts.moderation import is_banned


def banned(engine: Engine, account_id: int) -> bool:
    """The account is banned from playing (the lobby refuses it, with a clear message)."""
    return is_banned(engine, account_id)
