"""Whether an account may use the lobby (seek, accept, challenge, be challenged).

The seam moderation replaces: until it does, no account is banned.
"""

from __future__ import annotations

from sqlalchemy.engine import Engine


def banned(engine: Engine, account_id: int) -> bool:
    """The account is banned from playing (the lobby refuses it, with a clear message)."""
    return False
