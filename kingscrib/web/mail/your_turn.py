"""The *Your turn* list: every game, across all of someone's seats, waiting for their move.

For an account: every seat it owns in a game not over; for a guest: the seats whose
tokens the browser holds. A game counts when every person's seat is taken, the game is
not over, and it waits for that seat (in Cribbage several seats may be waited for at
once, while each lays away to the crib).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine

from kingscrib.web.accounts.names import shown_seat_name
from kingscrib.web.db.tables import games, seat_accounts
from kingscrib.web.errors import WebError
from kingscrib.web.play.finish import ended
from kingscrib.web.play.room import Room
from kingscrib.web.play.rooms import Hub

MAX_GAMES = 100  # seats looked at for one list


def account_seats(engine: Engine, account_id: int) -> list[tuple[str, int]]:
    """(game id, seat) of the account's seats in games not over, newest game first."""
    with engine.connect() as conn:
        rows = conn.execute(select(seat_accounts.c.game_id, seat_accounts.c.seat).join(
            games, games.c.id == seat_accounts.c.game_id).where(
            seat_accounts.c.account_id == account_id, games.c.over.is_(False))
            .order_by(games.c.updated.desc()).limit(MAX_GAMES)).all()
    return [(r.game_id, r.seat) for r in rows]


def entry(room: Room, seat: int) -> dict[str, Any] | None:
    """The list's line for this seat of this game, or None when it is not its move."""
    from kingscrib.web.play.games import game_kind

    if ended(room) or any(not s.taken for s in room.seats) \
            or seat not in room.game.waiting():
        return None
    left = room.clock.left_for(seat) if room.clock is not None else None
    return {"game_id": room.id, "game": room.kind, "title": game_kind(room.kind).title,
            "seat": seat, "players": [shown_seat_name(room.kind, s.name, s.kind, s.level)
                                    for s in room.seats],
            "time_left": left, "per_move": bool(room.clock and room.clock.per_move)}


async def your_turn(hub: Hub, account_id: int | None, held: list[tuple[str, str]]
                    ) -> list[dict[str, Any]]:
    """The games waiting for the caller: ``account_id`` (None: a guest) and the seats
    the browser holds, (game id, token)."""
    wanted: dict[tuple[str, int], None] = {}
    if account_id is not None:
        for key in await hub.db_call(account_seats, hub.store.engine, account_id):
            wanted[key] = None
    for game_id, token in held[:MAX_GAMES]:
        try:
            room = await hub.get(game_id)
        except WebError:
            continue  # a game this server no longer has
        seat = room.seat_of(token)
        if seat is not None:
            wanted[(game_id, seat)] = None
    found = []
    for game_id, seat in list(wanted)[:MAX_GAMES]:
        try:
            room = await hub.get(game_id)
        except WebError:
            continue
        line = entry(room, seat)
        if line is not None:
            found.append(line)
    # The most pressing first: the least time left, then games without a clock.
    found.sort(key=lambda g: (g["time_left"] is None, g["time_left"] or 0))
    return found
