"""Rematches: a finished game's players start the same table again.

The same names, computer levels, rules and game, in the same order round the table, and
the first player moves on by one: the player after the last game's first player begins
(Kings: moves first; Cribbage: deals first). The records stay replayable from their
seeds: the draw for first (Kings) and the cut for deal (Cribbage) follow from the new
game's secret seed and the number of seats alone, so the seat the draw makes first is
computed from the new seed, and the people are placed round the table so that the right
one sits there. The first player to ask creates the rematch and takes their seat in it;
every other person of the old game, proving their old seat with its token, is seated in
the new game by the same request."""

from __future__ import annotations

from typing import Any

from kingscrib.common.shuffle import Seed, new_secret
from kingscrib.web.errors import WebError
from kingscrib.web.play.finish import ended
from kingscrib.web.play.games import game_kind
from kingscrib.web.play.room import COMPUTER, Room
from kingscrib.web.play.rooms import Hub
from kingscrib.web.server.limits import AddressLimits


def over(room: Room) -> bool:
    return ended(room)


def first_of(room: Room) -> int:
    """The seat that began the room's game (the session's ``first_seat``: Kings, who
    moved first; Cribbage, who dealt first). A game that does not say is begun by seat 0."""
    return getattr(room.game, "first_seat", 0)


def first_from_seed(kind: str, rules: dict[str, Any], seed: Seed, names: list[str]) -> int:
    """The seat a new game's seed makes first. Games draw it from the seed and the number
    of seats only, never from who sits where, so a game made just to ask gives it."""
    return getattr(game_kind(kind).create(rules, seed, names), "first_seat", 0)


def new_seat(old: int, old_first: int, new_first: int, seats: int) -> int:
    """Where an old seat sits in the rematch: the player after the old first player sits
    in the seat drawn first, everyone else follows round the table in the same order."""
    return (new_first + old - old_first - 1) % seats


async def rematch_of(hub: Hub, game_id: str) -> dict[str, Any] | None:
    """``{"game_id": ...}`` of the game's rematch, if one was started."""
    found = await hub.db_call(hub.store.rematch, game_id)
    return {"game_id": found[0]} if found else None


async def rematch(hub: Hub, room: Room, seat: int | None, limits: AddressLimits,
                  address: str) -> dict[str, Any]:
    """Seat ``seat`` of the finished game ``room`` asks for the rematch: it is created if
    need be, and counted then against ``address``'s games an hour like any new game (a
    resignation and a rematch would otherwise start games past the limit); the caller is
    seated in it. Returns the new game's id, the caller's new seat and its token, and the
    invite code of the new game."""
    if seat is None:
        raise WebError(403, "only a player of this game can ask for a rematch")
    if not over(room):
        raise WebError(409, "a rematch can be asked for once the game is over")
    count = len(room.seats)
    old_first = first_of(room)
    async with room.lock:
        found = await hub.db_call(hub.store.rematch, room.id)
        if found is None:
            stored = await hub.db_call(hub.store.load, room.id)
            if stored is None:
                raise WebError(404, "no such game")
            rules = stored.rules  # as stored
            seed = new_secret()
            new_first = first_from_seed(room.kind, rules, seed, [s.name for s in room.seats])
            order = [room.seats[0]] * count
            for old in range(count):
                order[new_seat(old, old_first, new_first, count)] = room.seats[old]
            # A computer seat is named after its level (and its new place) again.
            specs = [{"kind": s.kind, "level": s.level} if s.kind == COMPUTER
                     else {"kind": s.kind, "name": s.name} for s in order]
            mine = new_seat(seat, old_first, new_first, count)
            clock = ((room.clock.seconds, room.clock.overtime, room.clock.per_move)
                     if room.clock is not None else None)
            async with limits.creating_game(address):
                new_room, _, token, invite = await hub.create(
                    specs, rules, seed, room.kind, hints=getattr(room, "hints_allowed", False),
                    creator=mine, clock=clock, secret_seed=True, address=address,
                    rated=room.rated)  # (an account's old seat needs its session: it sits)
                await hub.db_call(hub.store.set_rematch, room.id, new_room.id, invite)
            return {"game_id": new_room.id, "seat": mine, "token": token, "invite": invite}
    new_id, invite = found
    new_room = await hub.get(new_id)
    mine = new_seat(seat, old_first, first_of(new_room), count)
    _, token = await hub.join(new_room, invite, mine, room.seats[seat].name)
    return {"game_id": new_id, "seat": mine, "token": token, "invite": invite}
