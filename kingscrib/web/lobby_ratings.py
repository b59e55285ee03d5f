"""What the lobby knows of a player's rating, for a seek's rating range.

This is the seam the ratings code replaces: until it does, nobody's rating is known,
and a seek's rating range then excludes nobody (:func:`kingscrib.web.seeks.in_range`).
"""

from __future__ import annotations


def rating_of(account_id: int, game: str) -> float | None:
    """The account's rating at ``game`` ("kings" or "classic"); None: not known."""
    return None
