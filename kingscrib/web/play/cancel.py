"""Cancelling a game nobody came to: while a person's seat is still open (the invited
friend never came) and no person has played a turn, a seated person may cancel the game.
It is deleted with everything kept about it; its pages are told and then closed."""

from __future__ import annotations

from kingscrib.web.errors import WebError
from kingscrib.web.play.room import HUMAN, Room
from kingscrib.web.play.rooms import Hub


def _people_played(room: Room) -> bool:
    return room.game.people_played({s.seat for s in room.seats if s.kind == HUMAN})


async def cancel(hub: Hub, room: Room, seat: int | None) -> None:
    if seat is None:
        raise WebError(403, "only a seated player can cancel a game")
    if not any(s.kind == HUMAN and not s.taken for s in room.seats):
        raise WebError(409, "every seat is taken: this game can no longer be cancelled")
    if _people_played(room):
        raise WebError(409, "a person has played in this game: it can no longer be cancelled")
    async with room.lock:
        if room.computer_task:
            room.computer_task.cancel()
        await hub.db_call(hub.store.delete_game, room.id)
        hub.rooms.pop(room.id, None)
        for listener in list(room.listeners):
            try:
                await listener.send({"type": "error", "error": "this game was cancelled"})
            except Exception:  # a page already gone
                pass
        room.listeners.clear()
