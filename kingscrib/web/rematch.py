"""Rematches: a finished game's players start the same table again.

The seats turn one place (the old seat 2 is the new seat 1, the old seat 1 the last), with
the same names, computer levels, rules and game; who begins is then drawn by the rules as
in any game (Kings: the draw for first; Cribbage: the cut for deal). The first player to
ask creates the rematch and takes their seat in it; every other person of the old game,
proving their old seat with its token, is seated in the new game by the same request."""

from __future__ import annotations

from typing import Any

from kingscrib.web.rooms import COMPUTER, Hub, Room, WebError


def over(room: Room) -> bool:
    return room.game.over


def new_seat(old: int, seats: int) -> int:
    """Where the old seat sits in the rematch: every seat turns one place."""
    return (old - 1) % seats


async def rematch_of(hub: Hub, game_id: str) -> dict[str, Any] | None:
    """``{"game_id": ...}`` of the game's rematch, if one was started."""
    found = await hub._db_call(hub.store.rematch, game_id)
    return {"game_id": found[0]} if found else None


async def rematch(hub: Hub, room: Room, seat: int | None) -> dict[str, Any]:
    """Seat ``seat`` of the finished game ``room`` asks for the rematch: it is created if
    need be, and the caller is seated in it. Returns the new game's id, the caller's new
    seat and its token, and the invite code of the new game."""
    if seat is None:
        raise WebError(403, "only a player of this game can ask for a rematch")
    if not over(room):
        raise WebError(409, "a rematch can be asked for once the game is over")
    count = len(room.seats)
    mine = new_seat(seat, count)
    async with room.lock:
        found = await hub._db_call(hub.store.rematch, room.id)
        if found is None:
            rules = (await hub._db_call(hub.store.load, room.id)).rules  # as stored
            order = [room.seats[(i + 1) % count] for i in range(count)]
            specs = [{"kind": s.kind, "name": s.name,
                      **({"level": s.level} if s.kind == COMPUTER else {})} for s in order]
            new_room, _, token, invite = await hub.create(
                specs, rules, None, room.kind, hints=getattr(room, "hints_allowed", False),
                creator=mine)
            await hub._db_call(hub.store.set_rematch, room.id, new_room.id, invite)
            return {"game_id": new_room.id, "seat": mine, "token": token, "invite": invite}
    new_id, invite = found
    new_room = await hub.get(new_id)
    _, token = await hub.join(new_room, invite, mine, room.seats[seat].name)
    return {"game_id": new_id, "seat": mine, "token": token, "invite": invite}
