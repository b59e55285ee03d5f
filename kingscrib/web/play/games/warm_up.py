"""What a server builds of the engines when it starts, rather than during someone's first
move. Kept apart from the games' adapters so that starting loads no computer player."""

from __future__ import annotations

from kingscrib.kings.hands import hand_table


def warm_up() -> None:
    """Build the Kings engine's table of hand scores."""
    hand_table()
