"""The live game's pieces of the routers: the hub, the caller's seat (a seat of an
account needs that account's session), a banned account's refusal."""

from __future__ import annotations

from collections.abc import Mapping

from fastapi import Header, Request

from kingscrib.web.accounts import fair, moderation, sessions
from kingscrib.web.accounts import store as accounts
from kingscrib.web.db.storage import hash_secret
from kingscrib.web.errors import WebError
from kingscrib.web.play import last_known
from kingscrib.web.play.room import Room
from kingscrib.web.play.rooms import Hub
from kingscrib.web.server.edge import client_address


async def get_hub(request: Request) -> Hub:
    # async: FastAPI runs a plain function dependency in a worker thread, a thread hop
    # for every request (and, under load, dozens of threads each with a malloc arena)
    hub: Hub = request.app.state.hub
    return hub


async def bearer(request: Request,
                 authorization: str | None = Header(default=None, max_length=200)) -> str | None:
    """The seat token of ``Authorization: Bearer <token>`` (None: a spectator). The seat
    of an account also needs that account's session (see :func:`guard_seat`)."""
    if not authorization:
        return None
    scheme, _, given = authorization.partition(" ")
    token = given.strip() if scheme.lower() == "bearer" and given.strip() else None
    game_id = request.path_params.get("game_id")
    if token and isinstance(game_id, str):
        hub: Hub = request.app.state.hub
        await hub.get(game_id)  # (a game that cannot be loaded says so first)
        await guard_seat(hub, request.cookies, game_id, token)
    return token


async def guard_seat(hub: Hub, cookies: Mapping[str, str], game_id: str, token: str) -> None:
    """WebError(403) when the token's seat belongs to an account this browser is not
    logged in as (or to a deleted account), or when this browser is logged in as a
    banned account (no seat is played from its session, a guest's seat included). A
    guest's seat needs its token only."""
    owners = await last_known.seat_owners(hub, game_id)
    token_hash = hash_secret(token)
    if token_hash in owners and owners[token_hash] is None:
        raise WebError(403, "this seat's account was deleted: nobody plays it any more")
    session = cookies.get(sessions.COOKIE)
    caller = None
    if session or token_hash in owners:
        caller = await hub.last_known.ask(hub, ("session", hash_secret(session or "")),
                                          sessions.account_of, hub.store.engine, session)
    if caller is not None and await hub.last_known.ask(
            hub, ("banned", caller.id), moderation.is_banned, hub.store.engine, caller.id):
        raise WebError(403, "this account is banned by the moderators: it cannot play")
    if token_hash in owners and (caller is None or caller.id != owners[token_hash]):
        raise WebError(403, "this seat belongs to an account: log in as its player to use it")


async def own_if_logged_in(request: Request, hub: Hub, game_id: str, token: str | None
                           ) -> None:
    """A seat taken by a logged-in browser (a new game, a join) is its account's."""
    session = request.cookies.get(sessions.COOKIE)
    if not token or not session:
        return
    account = await hub.db_call(sessions.account_of, hub.store.engine, session)
    if account is not None:
        await hub.db_call(accounts.own_seats, hub.store.engine, account.id,
                          [(game_id, hash_secret(token))])
        await last_known.seat_owners(hub, game_id)


async def rated_seat_allowed(request: Request, hub: Hub, doing: str) -> None:
    """WebError(403) unless the caller is logged in: every person's seat of a rated game
    is an account's (a guest's result could not move any rating)."""
    account = await hub.db_call(sessions.account_of, hub.store.engine,
                                request.cookies.get(sessions.COOKIE))
    if account is None:
        raise WebError(403, f"log in (or sign up) to {doing}: every person in a rated game"
                            " plays under an account")
    await note_origin(request, hub, account.id)


async def note_origin(request: Request, hub: Hub, account_id: int) -> None:
    """The account plays from this request's address and browser (fair rated play:
    kingscrib.web.accounts.fair)."""
    await hub.db_call(fair.note_origin, hub.store.engine, account_id,
                      client_address(request.scope), fair.device_of(request.cookies))


async def seat_for(hub: Hub, room: Room, token: str | None) -> int | None:
    """The caller's seat (None: a spectator); 401 for a token of no seat of this game."""
    seat = await hub.seat_or_refresh(room, token)
    if token and seat is None:
        raise WebError(401, "this seat token does not open a seat of this game")
    return seat


async def refuse_banned_name(hub: Hub, names: list[str | None]) -> None:
    """WebError(403) when a guest would play under a banned account's name."""
    for name in names:
        if not name:
            continue
        if await hub.db_call(moderation.name_banned, hub.store.engine, name):
            raise WebError(403, f"the name {name.strip()[:40]!r} belongs to an account banned"
                                " by the moderators: choose another name")


async def refuse_banned(request: Request, hub: Hub, what: str) -> None:
    """WebError(403) when this browser is logged in as a banned account."""
    session = request.cookies.get(sessions.COOKIE)
    if not session:
        return
    account = await hub.db_call(sessions.account_of, hub.store.engine, session)
    if account is not None and await hub.db_call(moderation.is_banned, hub.store.engine,
                                                 account.id):
        raise WebError(403, f"this account is banned by the moderators: it cannot {what}")
