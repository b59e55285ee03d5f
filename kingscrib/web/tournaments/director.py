"""The tournament director: a periodic task in every server process that runs the
tournaments stored in :mod:`kingscrib.web.tournaments.store`.

Each pass it starts the tournaments that are due, records the result of every
tournament game that ended, resigns for a player who did not show (no move ``no_show``
seconds after the game was made or their opponent's last move), makes the games of new
pairings, pairs the next round once every game of the round has ended (an arena: pairs
the players who are free), and finishes the tournaments that are done. Everything it
knows is read from the store each pass, so a restarted process carries on where any
process left off; the store's keys decide every race between processes (one round row
per round, a claim per pairing, a conditional update per result).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from kingscrib.common.shuffle import new_secret
from kingscrib.tournaments.pairing import Entrant, arena_pairs, round_robin, swiss_round
from kingscrib.web.accounts import store as accounts
from kingscrib.web.db.storage import hash_secret
from kingscrib.web.errors import WebError
from kingscrib.web.play import last_known
from kingscrib.web.play.endings import end_early
from kingscrib.web.play.finish import RESIGNED
from kingscrib.web.play.games import game_kind
from kingscrib.web.play.rooms import Hub
from kingscrib.web.server import outage
from kingscrib.web.tournaments import store

log = logging.getLogger("kingscrib.web")
JOKER_GRACE = 60.0  # seconds a finished Kings game may still get a Joker call


async def direct(hub: Hub, every: float) -> None:
    """Run :func:`tick` every ``every`` seconds, and as soon as a game ends in this
    process (its result recorded, the next pairing made without waiting), until
    cancelled."""
    wake = asyncio.Event()
    hub.ended_hooks.append(lambda _room: wake.set())
    while True:
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(wake.wait(), every)
        wake.clear()
        try:
            await tick(hub)
        except Exception as e:
            if not outage.reported(e):
                log.exception("the tournament director failed")


async def tick(hub: Hub, now: float | None = None) -> None:
    now = time.time() if now is None else now
    engine = hub.store.engine
    for tournament_id in await hub.db_call(store.due, engine, now):
        await start(hub, tournament_id)
    for row in await hub.db_call(store.playing, engine):
        if row["over"] or row["early"] is not None or row["closed"] is not None:
            await record(hub, row, now)
        elif not row["shown"] and row["updated"] < now - row["no_show"]:
            await no_show(hub, row)
    for t in await hub.db_call(store.running, engine):
        await advance(hub, t, now)


async def start(hub: Hub, tournament_id: int) -> None:
    engine = hub.store.engine
    entrants = await hub.db_call(store.entrants, engine, tournament_id)
    if sum(e["withdrawn"] is None for e in entrants) < 2:
        await hub.db_call(store.set_state, engine, tournament_id, store.UPCOMING,
                          store.FINISHED, "cancelled: fewer than two players came")
        return
    if await hub.db_call(store.set_state, engine, tournament_id, store.UPCOMING,
                         store.RUNNING):
        log.info("tournament %d started", tournament_id)


# ----- results and no-shows ----------------------------------------------------------------
def _seats(pairing: dict[str, Any]) -> tuple[int, int]:
    """The (first) seats of entrants a and b in this pairing's game; partners sit two
    seats on, opposite."""
    return (0, 1) if pairing["leg"] == 0 else (1, 0)


async def record(hub: Hub, row: dict[str, Any], now: float) -> bool:
    """Store the result of an ended tournament game (once, whichever process)."""
    try:
        room = await hub.get(row["game_id"])
    except WebError:
        return False
    closing = room.closed or now - row["updated"] > JOKER_GRACE
    standing = game_kind(room.kind).standing(room.game, room.result, closing)
    if standing is None:
        return False  # a Joker may still be called on the last play
    side = {seat: s for s in standing for seat in s["seats"]}
    seat_a, seat_b = _seats(row)
    place_a, place_b = side[seat_a]["place"], side[seat_b]["place"]
    points_a = 1.0 if place_a < place_b else 0.5 if place_a == place_b else 0.0
    margin = int(side[seat_a].get("score") or 0) - int(side[seat_b].get("score") or 0)
    return await hub.db_call(store.set_result, hub.store.engine, row["id"], points_a, margin)


async def no_show(hub: Hub, row: dict[str, Any]) -> None:
    """Resign for the person the game waits for who has not moved in it at all."""
    engine = hub.store.engine
    try:
        room = await hub.get(row["game_id"])
    except WebError:
        return
    acted = await hub.db_call(store.seats_that_acted, engine, row["game_id"])
    people = {s.seat for s in room.seats if s.kind == "human"}
    if people <= acted:
        await hub.db_call(store.set_shown, engine, row["id"])
        return
    missing = [s for s in room.game.waiting() if s in people and s not in acted]
    if not missing:
        return
    seat = missing[0]
    async with room.lock:
        try:
            await end_early(hub, room, RESIGNED, seat)
        except WebError as e:  # it ended meanwhile, or another process was first
            log.info("no-show of %s not stored: %s", row["game_id"], e.message)
            return
    await hub.broadcast(room)
    seat_a, _ = _seats(row)
    await hub.db_call(store.note_forfeit, engine, row["id"],
                      row["a"] if seat % 2 == seat_a % 2 else row["b"])
    log.info("tournament game %s: seat %d did not show and forfeits", row["game_id"], seat)


# ----- pairing -----------------------------------------------------------------------------
async def advance(hub: Hub, t: dict[str, Any], now: float) -> None:
    engine = hub.store.engine
    tid = t["id"]
    entrants = await hub.db_call(store.entrants, engine, tid)
    # The rounds first: a round's games are committed with it, so every round read has
    # its games in what is read next (another process may pair meanwhile).
    rounds = await hub.db_call(store.rounds_of, engine, tid)
    games = await hub.db_call(store.games_of, engine, tid)
    await make_games(hub, t, entrants, games, now)
    last = rounds[-1]["number"] if rounds else 0
    playing = [g for g in games if g["points_a"] is None]
    if t["format"] == "arena":
        if now < t["starts"] + 60 * (t["minutes"] or 0):
            await pair_arena(hub, t, entrants, games, rounds, now)
        elif not playing:
            await hub.db_call(store.set_state, engine, tid, store.RUNNING, store.FINISHED)
        return
    if playing:
        return  # the round is still being played
    active = [e for e in entrants if e["withdrawn"] is None]
    total = planned_rounds(t, entrants)
    if last >= total or len(active) < 2:
        if await hub.db_call(store.set_state, engine, tid, store.RUNNING, store.FINISHED):
            log.info("tournament %d finished", tid)
        return
    pairs, bye = next_round(t, entrants, games, rounds, last + 1)
    seeds = [new_secret() for _ in pairs]
    if await hub.db_call(store.add_round, engine, tid, last + 1, pairs, bye, t["mirrored"],
                         seeds):
        log.info("tournament %d: round %d paired", tid, last + 1)
        games = await hub.db_call(store.games_of, engine, tid)
        await make_games(hub, t, entrants, games, now)


def planned_rounds(t: dict[str, Any], entrants: list[dict[str, Any]]) -> int:
    if t["format"] == "round_robin":
        return len(round_robin([e["number"] for e in entrants]))
    if t["format"] == "match":
        return 1
    return t["rounds"] or 1


def _by_rank(entrants: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(entrants, key=lambda e: (-(e["rating"] or 0), e["number"]))


def entrant_number(entrant: Entrant) -> int:
    """An entrant as the pairing gives it back: the web pairs entrants by number."""
    if not isinstance(entrant, int):
        raise TypeError(f"an entrant is paired by its number, not {entrant!r}")
    return entrant


def next_round(t: dict[str, Any], entrants: list[dict[str, Any]], games: list[dict[str, Any]],
               rounds: list[dict[str, Any]], number: int
               ) -> tuple[list[tuple[int, int]], int | None]:
    """The pairs (and bye) of round ``number``, from the stored results."""
    active = {e["number"] for e in entrants if e["withdrawn"] is None}
    if t["format"] == "round_robin":
        # The whole schedule is fixed by the entrants at the start (withdrawn ones
        # included, so it never shifts); a withdrawn entrant's games are not played.
        schedule = round_robin([e["number"] for e in _by_rank(entrants)])[number - 1]
        pairs = [(entrant_number(a), entrant_number(b)) for a, b in schedule.pairs
                 if a in active and b in active]
        bye = entrant_number(schedule.bye) if schedule.bye in active else None
        return pairs, bye
    if t["format"] == "match":
        side_a = [e["number"] for e in _by_rank(entrants)
                  if e["team_id"] == t["team_a"] and e["number"] in active]
        side_b = [e["number"] for e in _by_rank(entrants)
                  if e["team_id"] == t["team_b"] and e["number"] in active]
        return list(zip(side_a, side_b)), None
    table = store.table(entrants, games, rounds, t["mirrored"])
    records = {n: r for n, r in table.records.items() if n in active}
    chosen = swiss_round(records)
    bye = None if chosen.bye is None else entrant_number(chosen.bye)
    return [(entrant_number(a), entrant_number(b)) for a, b in chosen.pairs], bye


async def pair_arena(hub: Hub, t: dict[str, Any], entrants: list[dict[str, Any]],
                     games: list[dict[str, Any]], rounds: list[dict[str, Any]],
                     now: float) -> None:
    busy = {n for g in games if g["points_a"] is None for n in (g["a"], g["b"])}
    last_end: dict[int, float] = {}
    last_opponent: dict[Entrant, Entrant] = {}
    for g in sorted(games, key=lambda g: g["id"]):
        for me, them in ((g["a"], g["b"]), (g["b"], g["a"])):
            last_opponent[me] = them
            last_end[me] = g["ended"] or 0.0
    free = sorted((e["number"] for e in entrants
                   if e["withdrawn"] is None and e["number"] not in busy),
                  key=lambda n: (last_end.get(n, 0.0), n))
    if len(free) < 2:
        return
    table = store.table(entrants, games, rounds, t["mirrored"])
    pairs = [(entrant_number(a), entrant_number(b))
             for a, b in arena_pairs(free, table.records, last_opponent)]
    number = (rounds[-1]["number"] if rounds else 0) + 1
    if await hub.db_call(store.add_round, hub.store.engine, t["id"], number, pairs, None,
                         t["mirrored"], [new_secret() for _ in pairs]):
        games = await hub.db_call(store.games_of, hub.store.engine, t["id"])
        await make_games(hub, t, entrants, games, now)


# ----- games -------------------------------------------------------------------------------
def seat_spec(entrant: dict[str, Any]) -> dict[str, Any]:
    if entrant["level"]:
        return {"kind": "computer", "level": entrant["level"]}
    return {"kind": "human", "name": entrant["name"]}


async def make_games(hub: Hub, t: dict[str, Any], entrants: list[dict[str, Any]],
                     games: list[dict[str, Any]], now: float) -> None:
    """The games of pairings that have none (claimed first: one process makes each)."""
    engine = hub.store.engine
    by_number = {e["number"]: e for e in entrants}
    for g in games:
        if g["game_id"] is not None or (g["claimed"] and g["claimed"] >= now
                                        - store.CLAIM_EXPIRES):
            continue
        if not await hub.db_call(store.claim_pairing, engine, g["id"], now):
            continue
        try:
            await make_game(hub, t, g, by_number)
        except WebError as e:  # the creator's computer games are all being played
            if e.status != 429:
                raise
            log.info("the game of tournament %d's pairing %d waits: %s", t["id"], g["id"],
                     e.message)
        except Exception:
            log.exception("the game of tournament %d's pairing %d could not be made",
                          t["id"], g["id"])


def _table(t: dict[str, Any], first: dict[str, Any], second: dict[str, Any],
           names: dict[int, str]) -> list[tuple[dict[str, Any], int | None]]:
    """Each seat's spec and account, round the table: two seats, or four for partners
    (the first entrant's players in seats 0 and 2)."""
    def seat(e: dict[str, Any], key: str) -> tuple[dict[str, Any], int | None]:
        if e["level"]:
            return seat_spec(e), None
        return {"kind": "human", "name": names.get(e[key], e["name"])}, e[key]

    if not t.get("partners"):
        return [seat(first, "account_id"), seat(second, "account_id")]
    return [seat(first, "account_id"), seat(second, "account_id"),
            seat(first, "partner_id"), seat(second, "partner_id")]


async def make_game(hub: Hub, t: dict[str, Any], g: dict[str, Any],
                    by_number: dict[int, dict[str, Any]]) -> str:
    a, b = by_number[g["a"]], by_number[g["b"]]
    ids = [x for e in (a, b) for x in (e["account_id"], e["partner_id"]) if x is not None]
    names = await hub.db_call(store.account_names, hub.store.engine, ids)
    table = _table(t, *((a, b) if g["leg"] == 0 else (b, a)), names)
    specs = [spec for spec, _ in table]
    people = [i for i, (spec, _) in enumerate(table) if spec["kind"] == "human"]
    clock = (t["clock_seconds"], t["clock_overtime"] or 0) if t["clock_seconds"] else None
    # A game of computers only is its creator's, counted in the computer-games limit
    # (a 429 here: the pairing waits until one of them ends; make_games).
    owner = f"account {t['creator_id']}" if not people and t.get("creator_id") else None
    room, first, token, invite = await hub.create(
        specs, {}, g["seed"], t["game"], creator=people[0] if people else None, clock=clock,
        secret_seed=True, rated=t["rated"], address=owner)
    tokens: dict[int, str] = {}
    if first is not None and token is not None:
        tokens[first] = token
    for seat in people[1:]:
        _, tokens[seat] = await hub.join(room, invite, seat, specs[seat]["name"])
    for seat, tok in tokens.items():
        await hub.db_call(accounts.own_seats, hub.store.engine, table[seat][1],
                          [(room.id, hash_secret(tok))])
    await last_known.seat_owners(hub, room.id)
    # The tokens are dropped here: each entrant takes their seat by their account's
    # session (a new token, POST /api/games/{id}/seat); no token is stored in plain.
    await hub.db_call(store.set_game, hub.store.engine, g["id"], room.id)
    return room.id
