"""Seeks: open offers of a game in the lobby, filled seat by seat, and the checks on them.

A seek says which game (Kings Cribbage or Cribbage), how many players (2-4), the rules,
hints, the clock, rated or casual and an optional rating range. Whoever posts it takes
seat 0; each accept takes the next seat (the table's primary key decides a race between
server processes); when the last seat is taken the game starts with everyone seated.

Every seat holder gets a secret *ticket*; only its SHA-256 hash is stored, and it becomes
that seat's token in the game (the ``seats`` table keeps token hashes): the game needs
no secret handed over between processes. A browser also sends its *visitor* secret
(hashed here): it tells a guest's own seeks apart and keeps them alive while the browser
is connected to the lobby (``seen``).

The functions below take the store and run in its thread. Each returns what happened
and the events to tell the lobby (:mod:`kingscrib.web.lobby.live` sends them on).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, insert, select, text, update
from sqlalchemy.engine import Connection, Engine, Row
from sqlalchemy.exc import IntegrityError

from kingscrib.web.accounts import store as accounts
from kingscrib.web.accounts.names import shown_seat_name
from kingscrib.web.db.game_ids import stored_as, stored_game
from kingscrib.web.db.storage import Store, hash_secret
from kingscrib.web.db.tables import accounts as account_rows
from kingscrib.web.db.tables import games, seats, seek_seats, seeks
from kingscrib.web.errors import WebError
from kingscrib.web.lobby import bans as lobby_bans
from kingscrib.web.play.clocks import check_clock
from kingscrib.web.ratings import store as ratings
from kingscrib.web.ratings.maths import START_RATING

MAX_OPEN = 3  # open seeks (and seats waiting in others' seeks) per person
RATING_LOW, RATING_HIGH = 0, 4000  # what a rating range may say
WATCH_LIMIT = 30  # games listed to watch
WATCH_RECENT = 15 * 60.0  # a game with no move for this long is not listed to watch


@dataclass(frozen=True)
class Person:
    """Who asks: the name shown (an account's own), the account (None: a guest) and the
    hash of the browser's visitor secret."""

    name: str
    account_id: int | None
    visitor_hash: str
    # The hash of the client's address, and how many seats waiting it may hold in all,
    # whatever visitor secrets its browsers send ("": not counted).
    address_hash: str = ""
    per_address: int = 0


@dataclass(frozen=True)
class Wish:
    """A seek's options, checked (see :func:`check_wish`)."""

    game: str
    players: int
    rules: dict[str, Any]
    hints: bool
    clock_seconds: int | None
    clock_overtime: int | None
    rated: bool
    rating_min: int | None
    rating_max: int | None


@dataclass
class Seated:
    """A seat taken in a seek: its ticket (the game's seat token to be), which seat, the
    seek as the lobby shows it, and whether that seat filled it (its game starts now:
    ``start`` is then what the game is made of, as :func:`start_of` says)."""

    ticket: str
    seat: int
    seek: dict[str, Any]
    full: bool
    start: dict[str, Any] | None = None


def guest_name(raw: Any) -> str:
    """A guest's typed name, checked as user names are (never silently changed)."""
    try:
        return accounts.user_name(raw)
    except WebError as e:
        raise WebError(400, e.message.replace("a user name", "a name")
                       .replace("choose a name", "type your name")) from None


def check_wish(game: str, players: int, rules: dict[str, Any], hints: bool,
               clock_seconds: int | None, clock_overtime: int | None, rated: bool,
               rating_min: int | None, rating_max: int | None, person: Person) -> Wish:
    """A seek's options as a game would take them; WebError(400/403) saying what is
    impossible. The game itself is made once as a trial, so whatever the game refuses
    (solitaire for three, say) is refused now, not when the last seat is taken."""
    from kingscrib.web.play.games import game_kind, game_name

    game = game_name(game)  # "classic" is read as "cribbage"
    kind = game_kind(game)
    low, high = kind.seats_allowed()
    if not low <= players <= high:
        raise WebError(400, f"{kind.title} is for {low} to {high} players, not {players}")
    try:
        rules = kind.rules_model.model_validate(rules).model_dump(exclude_none=True)
    except ValueError as e:
        raise WebError(400, f"rules: {str(e).splitlines()[-1].strip()}") from None
    rules = kind.check_rules(rules, players)
    try:
        kind.create(rules, 1, [f"Player {i + 1}" for i in range(players)])
    except (ValueError, TypeError) as e:
        raise WebError(400, f"{kind.title} cannot be played so: {e}") from None
    clock = check_clock(clock_seconds, clock_overtime, game)
    if rated and person.account_id is None:
        raise WebError(403, "rated games are for accounts: log in or sign up, or seek a"
                            " casual game")
    for bound in (rating_min, rating_max):
        if bound is not None and not RATING_LOW <= bound <= RATING_HIGH:
            raise WebError(400, f"a rating range lies within {RATING_LOW} to {RATING_HIGH}")
    if rating_min is not None and rating_max is not None and rating_min > rating_max:
        raise WebError(400, f"the rating range {rating_min} to {rating_max} is empty")
    return Wish(game, players, rules, hints, None if clock is None else clock[0],
                None if clock is None else clock[1], rated, rating_min, rating_max)


def in_range(engine: Engine, seek: dict[str, Any], account_id: int | None) -> bool:
    """Whether a rating range lets the account in; an account not rated yet counts at
    the starting rating, as the ratings do."""
    low, high = seek.get("rating_min"), seek.get("rating_max")
    if (low is None and high is None) or account_id is None:
        return True
    rating = ratings.rating_of(engine, account_id, seek["game"])
    if rating is None:
        rating = START_RATING
    return (low is None or rating >= low) and (high is None or rating <= high)


def check_allowed(store: Store, person: Person) -> None:
    if person.account_id is not None and lobby_bans.banned(store.engine, person.account_id):
        raise WebError(403, "your account is banned from playing")


# ----- reading --------------------------------------------------------------------------
def _shown(row: Any, seat_rows: list[Any], target: str | None) -> dict[str, Any]:
    """A seek as the lobby shows it (no secret, no visitor)."""
    return {
        "id": row.id, "created": row.created, "game": stored_game(row.game),
        "players": row.players, "rules": row.rules, "hints": bool(row.hints),
        "clock_seconds": row.clock_seconds, "clock_overtime": row.clock_overtime, "rated": bool(row.rated),
        "rating_min": row.rating_min, "rating_max": row.rating_max, "quick": bool(row.quick),
        "challenge": target,
        "seats": [{"name": s.name, "account": s.account_id is not None}
                  for s in sorted(seat_rows, key=lambda s: s.seat)],
    }


def _audience(row: Any, seat_rows: list[Any]) -> dict[str, Any] | None:
    """Who may see a seek: everyone (None); for a challenge the account challenged and
    the challenger's browser (and account); for Play now's own seek its seat holders only
    (the others see how many wait for Play now, not each seek: a pairing is then news to
    its players, not to every browser in the lobby)."""
    if row.quick:
        return {"accounts": [s.account_id for s in seat_rows if s.account_id],
                "visitors": [s.visitor_hash for s in seat_rows]}
    if row.target_id is None:
        return None
    holders = [s for s in seat_rows if s.seat == 0]
    return {"accounts": [row.target_id, *(s.account_id for s in holders if s.account_id)],
            "visitors": [s.visitor_hash for s in holders]}


def _load(conn: Connection, seek_ids: list[str] | None = None) -> list[dict[str, Any]]:
    """Open seeks (all, or those named) with their audience, as events carry them."""
    query = select(seeks, account_rows.c.name.label("target")).outerjoin(
        account_rows, account_rows.c.id == seeks.c.target_id).where(
        seeks.c.game_id.is_(None), seeks.c.starting.is_(None))
    if seek_ids is not None:
        query = query.where(seeks.c.id.in_(seek_ids))
    rows = conn.execute(query.order_by(seeks.c.created)).all()
    if not rows:
        return []
    seat_rows = conn.execute(select(seek_seats).where(
        seek_seats.c.seek_id.in_([r.id for r in rows]))).all()
    by_seek: dict[str, list[Any]] = {}
    for s in seat_rows:
        by_seek.setdefault(s.seek_id, []).append(s)
    return [{"seek": _shown(r, by_seek.get(r.id, []), r.target),
             "to": _audience(r, by_seek.get(r.id, []))} for r in rows]


def open_seeks(store: Store) -> list[dict[str, Any]]:
    """Every open seek, each ``{"seek": ..., "to": audience}``."""
    with store.engine.connect() as conn:
        return _load(conn)


def games_to_watch(store: Store, now: float | None = None) -> list[dict[str, Any]]:
    """Games being played, every person's seat taken, with a move lately: the id, the game
    and the names at the table (nothing a seat hides)."""
    now = now or time.time()
    with store.engine.connect() as conn:
        open_seat = select(seats.c.seat).where(
            seats.c.game_id == games.c.id, seats.c.kind == "human",
            seats.c.token_hash.is_(None)).exists()
        rows = conn.execute(select(games.c.id, games.c.game).where(
            games.c.over.is_(False), games.c.closed.is_(None),
            games.c.updated > now - WATCH_RECENT, ~open_seat)
            .order_by(games.c.updated.desc()).limit(WATCH_LIMIT)).all()
        if not rows:
            return []
        names: dict[str, list[str]] = {}
        game_of = {r.id: stored_game(r.game) for r in rows}
        for s in conn.execute(select(seats.c.game_id, seats.c.name, seats.c.kind,
                                     seats.c.level).where(
                seats.c.game_id.in_([r.id for r in rows])).order_by(seats.c.seat)):
            names.setdefault(s.game_id, []).append(
                shown_seat_name(game_of[s.game_id], s.name, s.kind, s.level))
    return [{"id": r.id, "game": game_of[r.id], "names": names.get(r.id, [])} for r in rows]


# ----- changing -------------------------------------------------------------------------
def _count_waiting(conn: Connection, person: Person) -> int:
    mine = seek_seats.c.visitor_hash == person.visitor_hash
    if person.account_id is not None:
        mine = mine | (seek_seats.c.account_id == person.account_id)
    return conn.execute(select(func.count()).select_from(seek_seats.join(seeks)).where(
        mine, seeks.c.game_id.is_(None))).scalar_one()


def _hold_counts(conn: Connection, person: Person) -> None:
    """Serialise, until the commit, the counts of seats waiting of this browser, account
    and address across processes (PostgreSQL: an advisory lock per key, taken in one
    order; the count read after it sees every seat committed before). SQLite serves one
    server process, whose store calls run one at a time in its store thread."""
    if conn.dialect.name != "postgresql":
        return
    keys = {f"seeks visitor {person.visitor_hash}"}
    if person.account_id is not None:
        keys.add(f"seeks account {person.account_id}")
    if person.address_hash and person.per_address:
        keys.add(f"seeks address {person.address_hash}")
    for key in sorted(keys):
        conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:k))"), {"k": key})


def _refuse_too_many(conn: Connection, person: Person) -> None:
    """WebError(429) when the person, or their address, holds as many seats waiting as
    allowed (seeks posted and seats taken in others'); the counts are held until the
    transaction ends (:func:`_hold_counts`), so two at once cannot both take the last
    place."""
    _hold_counts(conn, person)
    if _count_waiting(conn, person) >= MAX_OPEN:
        raise WebError(429, f"you have {MAX_OPEN} seeks waiting already: cancel one first")
    if person.address_hash and person.per_address:
        held = conn.execute(select(func.count()).select_from(seek_seats.join(seeks)).where(
            seek_seats.c.address_hash == person.address_hash,
            seeks.c.game_id.is_(None))).scalar_one()
        if held >= person.per_address:
            raise WebError(429, f"{person.per_address} seeks are waiting from your address"
                                " already: wait until one starts or is cancelled")


def post(store: Store, wish: Wish, person: Person, quick: bool = False,
         target: str | None = None, now: float | None = None) -> Seated:
    """A new seek with ``person`` in seat 0. ``target``: a direct challenge to the account
    of that name (WebError(404) when there is none)."""
    check_allowed(store, person)
    now = now or time.time()
    ticket = secrets.token_urlsafe(24)
    seek_id = secrets.token_urlsafe(9)
    with store.engine.begin() as conn:
        target_id = None
        if target is not None:
            found = accounts.find(store.engine, target).account
            if found is None:
                raise WebError(404, f"no account is named {target[:40]!r}")
            if found.id == person.account_id:
                raise WebError(400, "you cannot challenge yourself")
            if lobby_bans.banned(store.engine, found.id):
                raise WebError(403, f"{found.name} is banned from playing")
            target_id = found.id
        _refuse_too_many(conn, person)
        conn.execute(insert(seeks).values(
            id=seek_id, created=now, game=wish.game, players=wish.players, rules=wish.rules,
            hints=wish.hints, clock_seconds=wish.clock_seconds,
            clock_overtime=wish.clock_overtime, rated=wish.rated, rating_min=wish.rating_min,
            rating_max=wish.rating_max, quick=quick, target_id=target_id))
        conn.execute(insert(seek_seats).values(
            seek_id=seek_id, seat=0, name=person.name, account_id=person.account_id,
            ticket_hash=hash_secret(ticket), visitor_hash=person.visitor_hash,
                address_hash=person.address_hash or None, seen=now))
        shown = _load(conn, [seek_id])[0]
    return Seated(ticket, 0, shown, False)


def _open_seek(conn: Connection, seek_id: str, gone: str, started: str
               ) -> tuple[Row[Any], Sequence[Row[Any]]]:
    """A seek still open (WebError 404 ``gone``, 409 ``started`` when its game is made or
    being made) and its seats in order."""
    row = conn.execute(select(seeks).where(seeks.c.id == seek_id)).first()
    if row is None:
        raise WebError(404, gone)
    if row.game_id is not None or row.starting is not None:
        raise WebError(409, started)
    held = conn.execute(select(seek_seats).where(seek_seats.c.seek_id == seek_id)
                        .order_by(seek_seats.c.seat)).all()
    return row, held


def _holds(seat: Any, person: Person, ticket: str | None = None) -> bool:
    """Whether a seek's seat is the person's: their browser's, their account's, or (when
    given) the ticket's."""
    return (seat.visitor_hash == person.visitor_hash
            or (ticket is not None and seat.ticket_hash == hash_secret(ticket))
            or (person.account_id is not None and seat.account_id == person.account_id))


def accept(store: Store, seek_id: str, person: Person, now: float | None = None) -> Seated:
    """Take the next seat of a seek; WebError and nothing changed when that cannot be
    (no such seek, taken, one's own, a challenge to someone else, out of range...)."""
    check_allowed(store, person)
    now = now or time.time()
    ticket = secrets.token_urlsafe(24)
    try:
        with store.engine.begin() as conn:
            row, held = _open_seek(conn, seek_id,
                                   gone="this seek is gone (cancelled, or its player left)",
                                   started="this seek was just taken")
            mine = [s.seat for s in held if _holds(s, person)]
            if mine:
                raise WebError(409, "this is your own seek: wait for someone to accept it"
                                    if mine[0] == 0 else
                                    "you are seated in this seek already: wait for the others")
            if row.target_id is not None and row.target_id != person.account_id:
                raise WebError(403, "this challenge is for another player")
            if row.rated and person.account_id is None:
                raise WebError(403, "a rated game is for accounts: log in or sign up first")
            if not in_range(store.engine, {"game": stored_game(row.game),
                                           "rating_min": row.rating_min,
                                           "rating_max": row.rating_max}, person.account_id):
                raise WebError(403, "your rating is outside this seek's range")
            _refuse_too_many(conn, person)
            seat = len(held)
            if seat >= row.players:
                raise WebError(409, "this seek was just taken")
            conn.execute(insert(seek_seats).values(
                seek_id=seek_id, seat=seat, name=person.name, account_id=person.account_id,
                ticket_hash=hash_secret(ticket), visitor_hash=person.visitor_hash,
                address_hash=person.address_hash or None, seen=now))
            full = seat + 1 == row.players
            if full:  # this seat fills it: this process starts the game (see start_of)
                claimed = conn.execute(update(seeks).where(
                    seeks.c.id == seek_id, seeks.c.starting.is_(None)).values(starting=now))
                if claimed.rowcount != 1:
                    raise WebError(409, "this seek was just taken")
                shown = {"seek": {"id": seek_id}, "to": None}
                start = _start_of(conn, seek_id)  # read here: no second trip to the store
            else:
                shown, start = _load(conn, [seek_id])[0], None
    except IntegrityError:  # another process took that seat first
        raise WebError(409, "that seat was just taken: try again") from None
    return Seated(ticket, seat, shown, full, start)


def pair(store: Store, wish: Wish, person: Person) -> Seated | None:
    """Play now's seat: the next seat of the oldest seek compatible with ``wish`` that can
    still be taken (None: there is none). One call, so a pairing waits for the store's
    thread once rather than once per step."""
    for seek_id in compatible(store, wish, person):
        try:
            return accept(store, seek_id, person)
        except WebError:  # taken meanwhile: the next one
            continue
    return None


def start_of(store: Store, seek_id: str) -> dict[str, Any]:
    """What a full seek's game is made of: its options and the seats in order (name,
    account, ticket hash)."""
    with store.engine.connect() as conn:
        return _start_of(conn, seek_id)


def _start_of(conn: Connection, seek_id: str) -> dict[str, Any]:
    row = conn.execute(select(seeks).where(seeks.c.id == seek_id)).one()
    held = conn.execute(select(seek_seats).where(seek_seats.c.seek_id == seek_id)
                        .order_by(seek_seats.c.seat)).all()
    return {"game": stored_game(row.game), "rules": row.rules, "hints": bool(row.hints),
            "clock_seconds": row.clock_seconds, "clock_overtime": row.clock_overtime,
            "rated": bool(row.rated),
            "seats": [{"name": s.name, "account_id": s.account_id,
                       "ticket_hash": s.ticket_hash} for s in held]}


def started(store: Store, seek_id: str, game_id: str, owners: list[tuple[int, int]],
            also: Callable[[Connection], None] | None = None) -> None:
    """The seek's game is stored: note it, and give the accounts their seats
    (``owners``: (seat, account id)). ``also``: more to do in the same transaction."""
    from kingscrib.web.db.tables import seat_accounts

    with store.engine.begin() as conn:
        conn.execute(update(seeks).where(seeks.c.id == seek_id).values(game_id=game_id))
        if owners:
            conn.execute(insert(seat_accounts), [
                {"game_id": game_id, "seat": seat, "account_id": account}
                for seat, account in owners])
        if also is not None:
            also(conn)


def unstart(store: Store, seek_id: str) -> None:
    """The game of a full seek could not be made: the seek goes (its people are told)."""
    _remove(store, [seek_id])


def leave(store: Store, seek_id: str, person: Person, ticket: str | None) -> str:
    """The person leaves a seek: the whole seek when it is their own ("cancelled"), their
    seat otherwise ("left"), a challenge made to them ("declined"). WebError when they
    hold no seat there, or the game has started."""
    with store.engine.begin() as conn:
        row, held = _open_seek(conn, seek_id, gone="this seek is gone already",
                               started="this seek's game has started")
        mine = [s for s in held if _holds(s, person, ticket)]
        if row.target_id is not None and row.target_id == person.account_id and not mine:
            how = "declined"
        elif not mine:
            raise WebError(403, "you hold no seat in this seek")
        elif mine[0].seat == 0:
            how = "cancelled"
        else:
            conn.execute(delete(seek_seats).where(seek_seats.c.seek_id == seek_id,
                                                  seek_seats.c.seat == mine[0].seat))
            later = [s for s in held if s.seat > mine[0].seat]
            for s in later:  # the seats after move up: seats stay numbered from 0
                conn.execute(update(seek_seats).where(
                    seek_seats.c.seek_id == seek_id, seek_seats.c.seat == s.seat)
                    .values(seat=s.seat - 1))
            return "left"
    _remove(store, [seek_id])
    return how


def _remove(store: Store, seek_ids: list[str]) -> None:
    with store.engine.begin() as conn:
        conn.execute(delete(seek_seats).where(seek_seats.c.seek_id.in_(seek_ids)))
        conn.execute(delete(seeks).where(seeks.c.id.in_(seek_ids), seeks.c.game_id.is_(None)))


def reload(store: Store, seek_id: str) -> dict[str, Any] | None:
    """One open seek as events carry it (None: no longer open)."""
    with store.engine.connect() as conn:
        found = _load(conn, [seek_id])
    return found[0] if found else None


def keep_alive(store: Store, visitor_hashes: list[str], now: float) -> None:
    """The browsers connected here are still around: their seats in open seeks stay."""
    if not visitor_hashes:
        return
    with store.engine.begin() as conn:
        conn.execute(update(seek_seats).where(seek_seats.c.visitor_hash.in_(visitor_hashes))
                     .values(seen=now))


def sweep(store: Store, before: float, stuck_before: float) -> tuple[list[str], list[str]]:
    """Seats whose browser has not been seen since ``before`` leave their seeks; a seek
    whose poster left goes whole, as does one stuck starting since ``stuck_before`` (its
    process stopped meanwhile). Returns (seeks gone, seeks changed)."""
    with store.engine.begin() as conn:
        stale = conn.execute(select(seek_seats.c.seek_id, seek_seats.c.seat).join(seeks).where(
            seek_seats.c.seen < before, seeks.c.game_id.is_(None),
            seeks.c.starting.is_(None))).all()
        stuck = [r.id for r in conn.execute(select(seeks.c.id).where(
            seeks.c.game_id.is_(None), seeks.c.starting < stuck_before))]
    gone = sorted({r.seek_id for r in stale if r.seat == 0} | set(stuck))
    if gone:
        _remove(store, gone)
    changed = []
    for seek_id in sorted({r.seek_id for r in stale if r.seat != 0} - set(gone)):
        seats_left = [r.seat for r in stale if r.seek_id == seek_id]
        for seat in sorted(seats_left, reverse=True):
            held = _holder(store, seek_id, seat)
            if held is not None:
                leave(store, seek_id, held, None)
        changed.append(seek_id)
    return gone, changed


def _holder(store: Store, seek_id: str, seat: int) -> Person | None:
    with store.engine.connect() as conn:
        row = conn.execute(select(seek_seats).where(
            seek_seats.c.seek_id == seek_id, seek_seats.c.seat == seat)).first()
    return None if row is None else Person(row.name, None, row.visitor_hash)


def compatible(store: Store, wish: Wish, person: Person) -> list[str]:
    """Open seeks Play now may take for ``wish``: the same game, players and clock, not a
    challenge, not the person's own, casual unless they have an account; oldest first."""
    with store.engine.connect() as conn:
        found = conn.execute(select(seeks.c.id, seeks.c.game, seeks.c.rating_min,
                                    seeks.c.rating_max).where(
            seeks.c.game_id.is_(None), seeks.c.starting.is_(None),
            seeks.c.target_id.is_(None), seeks.c.game.in_(stored_as(wish.game)),
            seeks.c.players == wish.players,
            (seeks.c.clock_seconds == wish.clock_seconds) if wish.clock_seconds is not None
            else seeks.c.clock_seconds.is_(None),
            *([] if person.account_id is not None else [seeks.c.rated.is_(False)]),
            ~select(seek_seats.c.seat).where(
                seek_seats.c.seek_id == seeks.c.id,
                (seek_seats.c.visitor_hash == person.visitor_hash)
                | (seek_seats.c.account_id == (person.account_id or -1))).exists())
            .order_by(seeks.c.created).limit(20)).all()
    return [r.id for r in found if in_range(store.engine, r._asdict(), person.account_id)]
