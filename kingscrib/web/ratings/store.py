"""Ratings and the record of finished games: each account's rating per game, its
history, and how every finished game placed its account seats (profiles, archive).

A rated game (chosen at creation; every person's seat must be an account's) is rated
when it ends, exactly once: the transaction that updates the ratings also inserts the
game's id into ``rated_games``, whose key refuses a second insert, so when two server
processes (or a retry) rate the same game, one commits and the other's transaction
rolls back whole. The rows of the ratings it reads are locked (``FOR UPDATE`` on
PostgreSQL; SQLite has one writer at a time), so two games of one player ending at once
are applied one after the other. Computer seats play at their level's fixed rating
(:data:`level_ratings.json`, made by ``benchmarks/level_ratings.py``), which never moves.
The maths is :mod:`kingscrib.web.ratings.maths`.

Every finished game with an account seat (rated or not) also gets a row per account
seat in ``game_outcomes``: its place, won, lost or drawn, its score, when. Nothing there
is hidden from anyone once the game is over (no rack, hand, crib or bag).
"""

from __future__ import annotations

import functools
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    and_,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from kingscrib.players import level_names
from kingscrib.web.accounts import fair
from kingscrib.web.accounts.names import login_key
from kingscrib.web.db.game_ids import stored_as, stored_game
from kingscrib.web.db.rows import save_row
from kingscrib.web.db.tables import accounts, clocks, games, metadata, seat_accounts, seats
from kingscrib.web.ratings.maths import Rating, aged, rate

RATED_GAMES = ("kings", "cribbage")
GAME_TITLES = {"kings": "Kings Cribbage", "cribbage": "Cribbage"}
LEVEL_RATINGS = Path(__file__).with_name("level_ratings.json")

ratings = Table(
    "ratings", metadata,
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("game", String(16), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("games", Integer, nullable=False),  # rated games played
    Column("updated", Float, nullable=False),
    Index("ix_ratings_game_rating", "game", "rating"),
)

# The games rated already: the key that lets a game be rated once only.
rated_games = Table(
    "rated_games", metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("at", Float, nullable=False),
)

# Each rated game's change of each account's rating (the profile's chart).
rating_history = Table(
    "rating_history", metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True, index=True),
    Column("game", String(16), nullable=False),
    Column("previous", Float, nullable=False),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("at", Float, nullable=False),
)

# How a finished game placed each account seat; ``account_id`` None: the account was
# deleted since (the seat reads "deleted player", the game stays).
game_outcomes = Table(
    "game_outcomes", metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=True, index=True),
    Column("game", String(16), nullable=False),
    Column("place", Integer, nullable=False),  # 0 first; partners share their side's
    Column("outcome", String(5), nullable=False),  # won, lost or drawn
    Column("score", Integer, nullable=True),
    Column("rated", Boolean, nullable=False),
    Column("at", Float, nullable=False, index=True),
)

WON, LOST, DRAWN = "won", "lost", "drawn"


@functools.cache
def _level_table() -> dict[str, dict[str, dict[str, float]]]:
    table: dict[str, dict[str, dict[str, float]]] = json.loads(LEVEL_RATINGS.read_text())
    return {stored_game(game): levels for game, levels in table.items()}


def level_rating(game: str, level: str | None) -> Rating:
    """A computer level's fixed rating (and the deviation of its calibration)."""
    entry = _level_table().get(stored_game(game), {}).get(level or "")
    if entry is None:  # a level not calibrated: a newcomer's, never moved either
        return Rating()
    return Rating(float(entry["rating"]), float(entry["deviation"]))


def level_table(game: str) -> list[dict[str, Any]]:
    """The published table: each level's title, line, rating and deviation, weakest
    first; an alias (Kings' ``greedy``, the player ``medium`` is) not listed again."""
    rows = []
    table = _level_table().get(stored_game(game), {})
    for level, entry in table.items():
        name = level_names.describe(game, level)
        if name.same_as in table:
            continue
        rows.append({"level": level, "title": name.title, "line": name.line,
                     "rating": entry["rating"], "deviation": entry["deviation"]})
    return sorted(rows, key=lambda r: (r["rating"], r["level"]))


def rating_of(engine: Engine, account_id: int, game: str) -> float | None:
    """The account's rating at ``game`` (``kings`` or ``cribbage``); None before its
    first rated game (it starts at 1500 +- 350) or for no such account."""
    with engine.connect() as conn:
        rows = conn.execute(select(ratings.c.game, ratings.c.rating).where(
            ratings.c.account_id == account_id, ratings.c.game.in_(stored_as(game)))).all()
    return _preferred(rows, game).rating if rows else None


def _preferred(rows: Any, game: str) -> Any:
    """Of one account's rating rows of ``game`` (its id and, written by an older server,
    its older name), the one under the id when there is one."""
    return min(rows, key=lambda r: r.game != stored_game(game))


# ----- a game ends -----------------------------------------------------------------------
@dataclass
class SeatOf:
    seat: int
    kind: str
    level: str | None
    account_id: int | None  # None: a guest's or a computer's seat, or a deleted account
    owned: bool  # the seat is (or was) an account's


def _seats(conn: Connection, game_id: str) -> list[SeatOf]:
    rows = conn.execute(select(seats.c.seat, seats.c.kind, seats.c.level,
                               seat_accounts.c.account_id, seat_accounts.c.seat.label("owned"))
                        .select_from(seats.outerjoin(seat_accounts, and_(
                            seat_accounts.c.game_id == seats.c.game_id,
                            seat_accounts.c.seat == seats.c.seat)))
                        .where(seats.c.game_id == game_id).order_by(seats.c.seat)).all()
    return [SeatOf(r.seat, r.kind, r.level, r.account_id, r.owned is not None) for r in rows]


def settle(engine: Engine, game_id: str, game: str, rated: bool,
           standing: list[dict[str, Any]], now: float | None = None,
           addresses: bool = True) -> bool:
    """Record a finished game's outcome for its account seats and, when it is rated,
    rate it. ``standing``: its game's ``standing`` (each side's seats, place, score).
    ``now``: when it ended (None: its last change as stored, so a game settled late
    by the housekeeping keeps its own date). False when it was done already (by this
    or another process): nothing changes.

    A rated game is recorded as unrated when an account holds two of its seats, or
    when two of its accounts were seen from one browser (or, with ``addresses``, one
    address): those are set aside for the moderators (:mod:`.fair`)."""
    for attempt in range(3):
        try:
            with engine.begin() as conn:
                ended = now or conn.execute(select(games.c.updated).where(
                    games.c.id == game_id)).scalar_one_or_none() or time.time()
                return _settle(conn, game_id, game, rated, standing, ended, addresses)
        except IntegrityError:
            # The game's key was taken (settled elsewhere), or two first games of one
            # player ended at once and both inserted its rating row: look again.
            with engine.connect() as conn:
                if conn.execute(select(game_outcomes.c.game_id).where(
                        game_outcomes.c.game_id == game_id).limit(1)).first() is not None:
                    return False
            if attempt == 2:
                raise
    return False


def _outcome(place: int, places: list[int]) -> str:
    if place:
        return LOST
    return DRAWN if places.count(0) > 1 else WON


def _settle(conn: Connection, game_id: str, game: str, rated: bool,
            standing: list[dict[str, Any]], now: float, addresses: bool = True) -> bool:
    table = _seats(conn, game_id)
    if not any(s.owned for s in table):
        return False  # guests and computers only: nobody's profile to write
    places = [side["place"] for side in standing]
    side_of = {seat: i for i, side in enumerate(standing) for seat in side["seats"]}
    people = [s.account_id for s in table if s.account_id is not None]
    # One account in two seats (refused since; older games) plays nobody: not rated.
    rateable = rated and all(s.owned or s.kind != "human" for s in table) \
        and len(people) == len(set(people))
    if rateable:
        shared = fair.shared_origin(conn, people, addresses, now)
        if shared is not None:
            fair.flag(conn, game_id, shared[0], shared[1], now)
            rateable = False
    if rateable:
        conn.execute(insert(rated_games).values(game_id=game_id, at=now))  # once only
    for s in table:
        if s.owned:
            side = standing[side_of[s.seat]]
            conn.execute(insert(game_outcomes).values(
                game_id=game_id, seat=s.seat, account_id=s.account_id, game=game,
                place=side["place"], outcome=_outcome(side["place"], places),
                score=side.get("score"), rated=rateable, at=now))
    if rateable:
        _rate(conn, game_id, game, table, standing, now)
    return True


def _rate(conn: Connection, game_id: str, game: str, table: list[SeatOf],
          standing: list[dict[str, Any]], now: float) -> None:
    people = sorted({s.account_id for s in table if s.account_id is not None})
    query = select(ratings).where(ratings.c.account_id.in_(people),
                                  ratings.c.game.in_(stored_as(game)))\
        .order_by(ratings.c.account_id)
    if conn.dialect.name == "postgresql":
        query = query.with_for_update()
    rows = conn.execute(query).all()
    held = {a: _preferred([r for r in rows if r.account_id == a], game)
            for a in {r.account_id for r in rows}}
    before = {a: _aged(held[a], now) if a in held else Rating() for a in people}
    by_seat = {s.seat: s for s in table}

    def current(seat: int) -> Rating:
        s = by_seat[seat]
        if s.kind != "human":
            return level_rating(game, s.level)
        # A deleted account's seat plays as a newcomer would; nothing of it is kept.
        return before[s.account_id] if s.account_id is not None else Rating()

    teams = [[current(seat) for seat in side["seats"]] for side in standing]
    after = rate(teams, [side["place"] for side in standing])
    for side, new_team in zip(standing, after):
        for seat, new in zip(side["seats"], new_team):
            account = by_seat[seat].account_id
            if by_seat[seat].kind != "human" or account is None:
                continue  # computers keep their published rating
            values: dict[str, float | str] = {"rating": new.rating, "deviation": new.deviation,
                                              "volatility": new.volatility, "updated": now}
            stored = held[account].game if account in held else game
            if stored != game:  # written by an older server: kept, under the id now
                values["game"] = game
            save_row(conn, ratings, {"account_id": account, "game": stored}, values,
                     exists=account in held, count="games")
            conn.execute(insert(rating_history).values(
                game_id=game_id, account_id=account, game=game,
                previous=before[account].rating, rating=new.rating,
                deviation=new.deviation, at=now))


def game_ratings(engine: Engine, game_id: str) -> dict[str, Any] | None:
    """What a finished game did to its players' ratings, for its end box: ``status``
    ``casual`` (not a rated game), ``pending`` (rated, not settled yet: it is still on,
    or settling), ``unrated`` (settled without rating: ended before every side moved,
    or set aside for the moderators) or ``rated``; then, once rated, each seat's rating
    before and after (``change`` is the difference of the two as shown, rounded) or a
    computer's fixed rating. None: no such game."""
    with engine.connect() as conn:
        row = conn.execute(select(games.c.game, games.c.rated).where(
            games.c.id == game_id)).first()
        if row is None:
            return None
        game = stored_game(row.game)
        if not row.rated:
            return {"game_id": game_id, "status": "casual", "seats": []}
        settled = conn.execute(select(game_outcomes.c.rated).where(
            game_outcomes.c.game_id == game_id).limit(1)).first()
        if settled is None or not settled.rated:
            return {"game_id": game_id, "status": "pending" if settled is None else "unrated",
                    "seats": []}
        moved = {r.account_id: r for r in conn.execute(select(
            rating_history.c.account_id, rating_history.c.previous, rating_history.c.rating)
            .where(rating_history.c.game_id == game_id))}
        table = conn.execute(select(seats.c.seat, seats.c.name, seats.c.kind, seats.c.level,
                                    seat_accounts.c.account_id)
                             .select_from(seats.outerjoin(seat_accounts, and_(
                                 seat_accounts.c.game_id == seats.c.game_id,
                                 seat_accounts.c.seat == seats.c.seat)))
                             .where(seats.c.game_id == game_id).order_by(seats.c.seat)).all()
    shown = []
    for s in table:
        name = player_of(game, s.name, s.kind, s.level)["name"]
        if s.kind != "human":
            fixed = round(level_rating(game, s.level).rating)
            shown.append({"seat": s.seat, "name": name, "computer": True,
                          "previous": fixed, "rating": fixed, "change": 0})
        elif s.account_id in moved:
            m = moved[s.account_id]
            shown.append({"seat": s.seat, "name": name, "computer": False,
                          "previous": round(m.previous), "rating": round(m.rating),
                          "change": round(m.rating) - round(m.previous)})
    return {"game_id": game_id, "status": "rated", "seats": shown}


def _aged(row: Any, now: float) -> Rating:
    """A stored rating as it stands ``now``: its deviation widened for the days since
    its last rated game (:func:`rating_maths.aged`)."""
    return aged(Rating(row.rating, row.deviation, row.volatility), now - row.updated)


def unsettled(engine: Engine, limit: int = 50, grace: float = 60.0) -> list[str]:
    """Finished games with an account seat but no outcome stored ``grace`` seconds after
    their last change (the process that ended them stopped first, or a Joker was never
    called on the last play): the housekeeping settles them."""
    with engine.connect() as conn:
        rows = conn.execute(select(games.c.id).where(
            games.c.over.is_(True), games.c.closed.is_(None),
            games.c.updated < time.time() - grace,
            games.c.id.in_(select(seat_accounts.c.game_id)),
            games.c.id.not_in(select(game_outcomes.c.game_id)))
            .order_by(games.c.updated).limit(limit)).all()
    return [r.id for r in rows]


def forget_account(conn: Connection, account_id: int) -> None:
    """An account is deleted: its ratings and their history go; its games stay, their
    outcomes no longer name it (in the caller's transaction)."""
    conn.execute(delete(ratings).where(ratings.c.account_id == account_id))
    fair.forget_account(conn, account_id)
    conn.execute(delete(rating_history).where(rating_history.c.account_id == account_id))
    conn.execute(update(game_outcomes).where(game_outcomes.c.account_id == account_id)
                 .values(account_id=None))


# ----- leaderboard, profiles, archive ----------------------------------------------------
def leaderboard(engine: Engine, game: str, limit: int = 100) -> list[dict[str, Any]]:
    """The rated accounts of ``game``, best first (provisional ones marked)."""
    with engine.connect() as conn:
        rows = conn.execute(select(accounts.c.name, ratings.c.rating, ratings.c.deviation,
                                   ratings.c.volatility, ratings.c.updated, ratings.c.games)
                            .join(accounts, accounts.c.id == ratings.c.account_id)
                            .where(ratings.c.game.in_(stored_as(game)))
                            .order_by(ratings.c.rating.desc(), accounts.c.name)
                            .limit(limit)).all()
    now = time.time()
    shown = [(r, _aged(r, now)) for r in rows]
    return [{"rank": i + 1, "name": r.name, "rating": round(r.rating),
             "deviation": round(a.deviation), "provisional": a.provisional,
             "games": r.games} for i, (r, a) in enumerate(shown)]


def account_named(engine: Engine, name: str) -> tuple[int, str] | None:
    """The account of a user name as typed (any case), and its name as chosen."""
    with engine.connect() as conn:
        row = conn.execute(select(accounts.c.id, accounts.c.name).where(
            accounts.c.login_key == login_key(name))).first()
    return None if row is None else (row.id, row.name)


def player_of(game: str, name: str, kind: str, level: str | None) -> dict[str, Any]:
    """A seat as the lists show it: a computer by its level's title (kingscrib.players.level_names)."""
    if kind != "human":
        return {"name": level_names.title(game, level or ""), "computer": True,
                "level": level}
    return {"name": name, "computer": False}


def _players(conn: Connection, game_ids: list[str], kinds: dict[str, str]
             ) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {g: [] for g in game_ids}
    if not game_ids:
        return out
    rows = conn.execute(select(seats.c.game_id, seats.c.seat, seats.c.name, seats.c.kind,
                               seats.c.level).where(seats.c.game_id.in_(game_ids))
                        .order_by(seats.c.game_id, seats.c.seat)).all()
    held = {(r.game_id, r.seat) for r in conn.execute(
        select(game_outcomes.c.game_id, game_outcomes.c.seat).where(
            game_outcomes.c.game_id.in_(game_ids), game_outcomes.c.account_id.is_not(None)))}
    for r in rows:
        out[r.game_id].append({**player_of(kinds[r.game_id], r.name, r.kind, r.level),
                               "account": (r.game_id, r.seat) in held})
    for game_id, players in out.items():  # Cribbage for four: partners sit opposite
        partners = kinds[game_id] == "cribbage" and len(players) == 4
        for i, p in enumerate(players):
            p["side"] = i % 2 if partners else i
    return out


@dataclass
class Search:
    """What the archive may be searched by (each checked by the router)."""

    opponent: str | None = None  # part of an opponent's name (or a level's title)
    game: str | None = None
    result: str | None = None  # won, lost or drawn
    since: float | None = None
    until: float | None = None
    limit: int = 50
    offset: int = 0


def archive(engine: Engine, account_id: int, search: Search) -> dict[str, Any]:
    """The account's finished games, newest first, as ``search`` narrows them."""
    query = select(game_outcomes.c.game_id, game_outcomes.c.seat, game_outcomes.c.game,
                   game_outcomes.c.place, game_outcomes.c.outcome, game_outcomes.c.score,
                   game_outcomes.c.rated, game_outcomes.c.at,
                   rating_history.c.previous, rating_history.c.rating,
                   clocks.c.result.label("ending"))\
        .select_from(game_outcomes.outerjoin(rating_history, and_(
            rating_history.c.game_id == game_outcomes.c.game_id,
            rating_history.c.account_id == game_outcomes.c.account_id))
            .outerjoin(clocks, clocks.c.game_id == game_outcomes.c.game_id))\
        .where(game_outcomes.c.account_id == account_id)
    if search.game:
        query = query.where(game_outcomes.c.game.in_(stored_as(search.game)))
    if search.result:
        query = query.where(game_outcomes.c.outcome == search.result)
    if search.since is not None:
        query = query.where(game_outcomes.c.at >= search.since)
    if search.until is not None:
        query = query.where(game_outcomes.c.at < search.until)
    with engine.connect() as conn:
        rows = conn.execute(query.order_by(game_outcomes.c.at.desc(),
                                           game_outcomes.c.game_id)).all()
        kinds = {r.game_id: stored_game(r.game) for r in rows}
        players = _players(conn, list(kinds), kinds)
    found = []
    wanted = (search.opponent or "").casefold()
    for r in rows:
        others = [p for i, p in enumerate(players[r.game_id]) if i != r.seat]
        if wanted and not any(wanted in p["name"].casefold()
                              or (p.get("level") or "") == wanted for p in others):
            continue
        game = kinds[r.game_id]
        found.append({"game_id": r.game_id, "game": game, "title": GAME_TITLES.get(game, game),
                      "at": r.at, "seat": r.seat, "place": r.place, "result": r.outcome,
                      "sides": len({p["side"] for p in players[r.game_id]}),
                      "ended_by": _ended_by(r.ending),
                      "score": r.score, "rated": r.rated, "players": players[r.game_id],
                      "rating": None if r.rating is None else round(r.rating),
                      "change": None if r.rating is None else round(r.rating - r.previous)})
    return {"total": len(found),
            "games": found[search.offset:search.offset + search.limit]}


def _ended_by(ending: Any) -> str | None:
    """``resigned`` or ``time`` for a game ended early (its clock row's result)."""
    if isinstance(ending, str):  # a JSON text on a backend that hands it back unread
        ending = json.loads(ending)
    reason = ending.get("reason") if isinstance(ending, dict) else None
    return reason if reason in ("resigned", "time") else None


def profile(engine: Engine, account_id: int, name: str, recent: int = 10) -> dict[str, Any]:
    """A player's public page: per game their rating, its history, games played, won,
    drawn and lost; their most recent games."""
    with engine.connect() as conn:
        rated = {stored_game(r.game): r for r in sorted(
            conn.execute(select(ratings).where(ratings.c.account_id == account_id)),
            key=lambda r: r.game == stored_game(r.game))}  # the id's row over an older name's
        counts = conn.execute(select(game_outcomes.c.game, game_outcomes.c.outcome,
                                     func.count().label("n"))
                              .where(game_outcomes.c.account_id == account_id)
                              .group_by(game_outcomes.c.game, game_outcomes.c.outcome)).all()
        history = conn.execute(select(rating_history.c.game, rating_history.c.at,
                                      rating_history.c.rating, rating_history.c.game_id)
                               .where(rating_history.c.account_id == account_id)
                               .order_by(rating_history.c.at)).all()
    per_game = {}
    now = time.time()
    for game in RATED_GAMES:
        r = rated.get(game)
        a = None if r is None else _aged(r, now)
        tally = {o: sum(c.n for c in counts if stored_game(c.game) == game and c.outcome == o)
                 for o in (WON, DRAWN, LOST)}
        per_game[game] = {
            "title": GAME_TITLES[game],
            "rating": None if r is None else round(r.rating),
            "deviation": None if a is None else round(a.deviation),
            "provisional": True if a is None else a.provisional,
            "rated_games": 0 if r is None else r.games,
            "played": sum(tally.values()), **tally,
            "history": [{"at": h.at, "rating": round(h.rating), "game_id": h.game_id}
                        for h in history if stored_game(h.game) == game]}
    return {"name": name, "games": per_game,
            "recent": archive(engine, account_id, Search(limit=recent))["games"]}
