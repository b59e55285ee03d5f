"""Tournaments and teams on the web server: their tables and the store calls on them.

The pairing and the standings are :mod:`kingscrib.tournaments`'; this module keeps what
they work from. A round's pairings are inserted in the same transaction as the round's
row, whose key (tournament, round) refuses a second insert: when two server processes
pair the same round at once, one commits and the other's transaction rolls back whole
(:func:`add_round`). An arena's batches of pairings are "rounds" too, numbered in turn.

Each pairing becomes a game (two games for a mirrored pair: one seed, seats swapped)
once a process claims it (:func:`claim_pairing`): a claim older than ``CLAIM_EXPIRES``
seconds without a game (its process stopped) may be taken over after a restart. A
result is written once (the update is conditional on there being none yet).

No seat token of a tournament game is kept here: each seat belongs to its entrant's
account, which takes it by its session (``POST /api/games/{id}/seat`` hands a new token;
the games keep only tokens' hashes, as every seat's).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    UniqueConstraint,
    and_,
    delete,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from kingscrib.tournaments.pairing import Entrant, Record
from kingscrib.tournaments.standings import Result, Standing, standings, team_standings
from kingscrib.web.accounts.names import DELETED
from kingscrib.web.db.game_ids import stored_game
from kingscrib.web.db.rows import inserted_id
from kingscrib.web.db.tables import accounts, metadata

FORMATS = ("round_robin", "swiss", "arena", "match")
UPCOMING, RUNNING, FINISHED = "upcoming", "running", "finished"
MAX_COMPUTERS = 8  # computer entrants one tournament may have
CLAIM_EXPIRES = 60.0  # seconds a claimed pairing may wait for its game

tournaments = Table(
    "tournaments", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(60), nullable=False),
    Column("game", String(16), nullable=False),
    Column("format", String(12), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("clock_seconds", Integer, nullable=True),
    Column("clock_overtime", Integer, nullable=True),
    Column("starts", Float, nullable=False, index=True),
    Column("max_players", Integer, nullable=False),
    Column("min_rating", Integer, nullable=True),
    Column("max_rating", Integer, nullable=True),
    Column("mirrored", Boolean, nullable=False),
    # Four-seat Cribbage: each entrant is a team of two partners, sitting opposite.
    Column("partners", Boolean, nullable=False, default=False),
    Column("rounds", Integer, nullable=True),  # Swiss: how many rounds
    Column("minutes", Integer, nullable=True),  # arena: how long pairing goes on
    Column("no_show", Integer, nullable=False),  # seconds before a no-show forfeits
    Column("team_best", Integer, nullable=False),  # team standings: the best N count
    Column("team_a", Integer, ForeignKey("teams.id"), nullable=True),  # a team match
    Column("team_b", Integer, ForeignKey("teams.id"), nullable=True),
    Column("creator_id", Integer, ForeignKey("accounts.id"), nullable=True),
    Column("state", String(10), nullable=False, index=True),
    Column("created", Float, nullable=False),
    Column("finished", Float, nullable=True),
    Column("note", String(200), nullable=True),  # e.g. why it was cancelled
)

# Entrants are numbered within their tournament; a computer entrant has a level and no
# account. ``withdrawn``: when they left (never paired again; their results stay).
tournament_entrants = Table(
    "tournament_entrants", metadata,
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=True, index=True),
    # A partnership's second player (the entrant is then a team of two, named after it).
    Column("partner_id", Integer, ForeignKey("accounts.id"), nullable=True, index=True),
    Column("level", String(20), nullable=True),
    Column("name", String(40), nullable=False),
    Column("team_id", Integer, ForeignKey("teams.id"), nullable=True),
    Column("rating", Float, nullable=True),  # at joining: the starting order
    Column("joined", Float, nullable=False),
    Column("withdrawn", Float, nullable=True),
    UniqueConstraint("tournament_id", "account_id", name="uq_tournament_account"),
)

# The key that lets each round be paired once only.
tournament_rounds = Table(
    "tournament_rounds", metadata,
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("bye", Integer, nullable=True),  # the entrant number with the bye
    Column("paired", Float, nullable=False),
)

# One game of a pairing (``leg`` 1: the mirrored game, the same seed with seats swapped).
# ``a`` sits in seat 0 of leg 0. ``points_a``: 1, 1/2 or 0 once the game ended.
tournament_games = Table(
    "tournament_games", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), nullable=False,
           index=True),
    Column("round", Integer, nullable=False),
    Column("a", Integer, nullable=False),
    Column("b", Integer, nullable=False),
    Column("leg", Integer, nullable=False),
    Column("seed", String(128), nullable=True),  # the pair's shared secret seed
    Column("claimed", Float, nullable=True),
    Column("game_id", String(32), ForeignKey("games.id"), nullable=True, index=True),
    Column("shown", Boolean, nullable=False, default=False),  # every person has moved
    Column("points_a", Float, nullable=True),
    Column("margin", Integer, nullable=True),
    Column("forfeit", Integer, nullable=True),  # the entrant who forfeited by not showing
    Column("ended", Float, nullable=True),
    UniqueConstraint("tournament_id", "round", "a", "leg", name="uq_tournament_pairing"),
)

teams = Table(
    "teams", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(40), nullable=False),
    Column("name_key", String(40), nullable=False, unique=True),  # casefolded
    Column("creator_id", Integer, ForeignKey("accounts.id"), nullable=True),
    Column("created", Float, nullable=False),
)

team_members = Table(
    "team_members", metadata,
    Column("team_id", Integer, ForeignKey("teams.id"), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True, index=True),
    Column("joined", Float, nullable=False),
)


class Refused(Exception):
    """A request the tournament's state refuses; the message says why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


# ----- tournaments and entrants ----------------------------------------------------------
def create(engine: Engine, values: dict[str, Any], per_hour: int | None = None) -> int:
    """A new tournament. ``per_hour``: the most its creator may create in an hour,
    counted and reserved in the one transaction (the creator's account row locked on
    PostgreSQL): Refused(429) past it."""
    now = time.time()
    with engine.begin() as conn:
        creator = values.get("creator_id")
        if per_hour is not None and creator is not None:
            lock = select(accounts.c.id).where(accounts.c.id == creator)
            if conn.dialect.name == "postgresql":
                lock = lock.with_for_update()
            conn.execute(lock).first()
            made = conn.execute(select(func.count()).select_from(tournaments).where(
                tournaments.c.creator_id == creator,
                tournaments.c.created > now - 3600)).scalar_one()
            if made >= per_hour:
                raise Refused(429, f"you created {made} tournaments in the last hour, the"
                                   " most an account may: try again later")
        return inserted_id(conn.execute(insert(tournaments).values(
            state=UPCOMING, created=now, **values)))


def withdraw_everywhere(engine: Engine, account_id: int) -> list[int]:
    """A banned account leaves every tournament not finished (its entries before the
    start are removed; in a running one it is withdrawn: never paired again, no bye).
    Returns those tournaments' ids."""
    with engine.connect() as conn:
        rows = conn.execute(select(tournament_entrants.c.tournament_id,
                                   tournament_entrants.c.number).join(
            tournaments, tournaments.c.id == tournament_entrants.c.tournament_id).where(
            tournaments.c.state != FINISHED, tournament_entrants.c.withdrawn.is_(None),
            or_(tournament_entrants.c.account_id == account_id,
                tournament_entrants.c.partner_id == account_id))).all()
    for tournament_id, number in rows:
        withdraw(engine, tournament_id, number)
    return sorted({r.tournament_id for r in rows})


def get(engine: Engine, tournament_id: int) -> dict[str, Any] | None:
    with engine.connect() as conn:
        row = conn.execute(select(tournaments).where(tournaments.c.id == tournament_id)).first()
    return None if row is None else _tournament(row)


def _tournament(row: Any) -> dict[str, Any]:
    """A tournament's row as a dict, its game read as the core reads ids (``classic``,
    written by an older server, is ``cribbage``)."""
    return {**row._mapping, "game": stored_game(row.game)}


def listing(engine: Engine, limit: int = 50) -> dict[str, list[dict[str, Any]]]:
    """Upcoming (soonest first), running and finished (newest first) tournaments."""
    count = select(func.count()).where(
        tournament_entrants.c.tournament_id == tournaments.c.id,
        tournament_entrants.c.withdrawn.is_(None)).scalar_subquery()
    out: dict[str, list[dict[str, Any]]] = {}
    with engine.connect() as conn:
        for state, order in ((UPCOMING, tournaments.c.starts),
                             (RUNNING, tournaments.c.starts),
                             (FINISHED, tournaments.c.finished.desc())):
            rows = conn.execute(select(tournaments, count.label("players"))
                                .where(tournaments.c.state == state)
                                .order_by(order, tournaments.c.id).limit(limit)).all()
            out[state] = [_tournament(r) for r in rows]
    return out


def entrants(engine: Engine, tournament_id: int) -> list[dict[str, Any]]:
    with engine.connect() as conn:
        return _entrants(conn, tournament_id)


def _entrants(conn: Connection, tournament_id: int) -> list[dict[str, Any]]:
    rows = conn.execute(select(tournament_entrants, teams.c.name.label("team"))
                        .select_from(tournament_entrants.outerjoin(
                            teams, teams.c.id == tournament_entrants.c.team_id))
                        .where(tournament_entrants.c.tournament_id == tournament_id)
                        .order_by(tournament_entrants.c.number)).all()
    return [dict(r._mapping) for r in rows]


def add_entrant(engine: Engine, tournament_id: int, name: str, account_id: int | None,
                level: str | None, rating: float | None, team_id: int | None = None,
                starting: bool = False, partner_id: int | None = None) -> int:
    """A new entrant (an account or a computer level) before the start (``starting``:
    a team match enters its teams' members as it starts); Refused when full or late.
    An account that withdrew and joins again is back in."""
    with engine.begin() as conn:
        t = conn.execute(select(tournaments).where(tournaments.c.id == tournament_id)
                         .with_for_update() if conn.dialect.name == "postgresql" else
                         select(tournaments).where(tournaments.c.id == tournament_id)).first()
        if t is None:
            raise Refused(404, "no such tournament")
        if t.state != UPCOMING and not starting:
            raise Refused(409, "this tournament has started: entries are closed")
        if partner_id is not None:
            taken = conn.execute(select(tournament_entrants.c.number).where(
                tournament_entrants.c.tournament_id == tournament_id,
                tournament_entrants.c.withdrawn.is_(None),
                or_(tournament_entrants.c.account_id.in_((account_id, partner_id)),
                    tournament_entrants.c.partner_id.in_((account_id, partner_id))))).first()
            if taken is not None:
                raise Refused(409, "you or your partner have joined this tournament already")
        if account_id is not None and partner_id is None:
            old = conn.execute(select(tournament_entrants.c.number, tournament_entrants.c.withdrawn)
                               .where(tournament_entrants.c.tournament_id == tournament_id,
                                      tournament_entrants.c.account_id == account_id)).first()
            if old is not None:
                if old.withdrawn is None:
                    raise Refused(409, "you have joined this tournament already")
                conn.execute(update(tournament_entrants).where(
                    tournament_entrants.c.tournament_id == tournament_id,
                    tournament_entrants.c.number == old.number).values(
                    withdrawn=None, team_id=team_id))
                number: int = old.number
                return number
        playing = conn.execute(select(func.count()).where(
            tournament_entrants.c.tournament_id == tournament_id,
            tournament_entrants.c.withdrawn.is_(None))).scalar_one()
        if playing >= t.max_players:
            raise Refused(409, f"this tournament is full ({t.max_players} players)")
        if level is not None:  # (counted under the tournament's lock, as the players are)
            computers = conn.execute(select(func.count()).where(
                tournament_entrants.c.tournament_id == tournament_id,
                tournament_entrants.c.level.is_not(None),
                tournament_entrants.c.withdrawn.is_(None))).scalar_one()
            if computers >= MAX_COMPUTERS:
                raise Refused(409, f"this tournament has {MAX_COMPUTERS} computers, the most"
                                   " one may have")
        number = (conn.execute(select(func.max(tournament_entrants.c.number)).where(
            tournament_entrants.c.tournament_id == tournament_id)).scalar_one() or 0) + 1
        conn.execute(insert(tournament_entrants).values(
            tournament_id=tournament_id, number=number, account_id=account_id, level=level,
            name=name, rating=rating, team_id=team_id, joined=time.time(),
            partner_id=partner_id))
        return number


def withdraw(engine: Engine, tournament_id: int, number: int) -> None:
    """The entrant is not paired again; the games played (and being played) stay. Before
    the start the entry is simply removed."""
    with engine.begin() as conn:
        state = conn.execute(select(tournaments.c.state).where(
            tournaments.c.id == tournament_id)).scalar_one()
        if state == FINISHED:
            raise Refused(409, "this tournament is over")
        where = and_(tournament_entrants.c.tournament_id == tournament_id,
                     tournament_entrants.c.number == number)
        if state == UPCOMING:
            conn.execute(delete(tournament_entrants).where(where))
        else:
            conn.execute(update(tournament_entrants).where(
                where, tournament_entrants.c.withdrawn.is_(None)).values(withdrawn=time.time()))


def entrant_of(engine: Engine, tournament_id: int, account_id: int) -> dict[str, Any] | None:
    with engine.connect() as conn:
        row = conn.execute(select(tournament_entrants).where(
            tournament_entrants.c.tournament_id == tournament_id,
            or_(tournament_entrants.c.account_id == account_id,
                tournament_entrants.c.partner_id == account_id))
            .order_by(tournament_entrants.c.withdrawn.is_(None).desc())).first()
    return None if row is None else dict(row._mapping)


def set_state(engine: Engine, tournament_id: int, old: str, new: str,
              note: str | None = None) -> bool:
    """Move the tournament from ``old`` to ``new``; False when another process did first."""
    values: dict[str, Any] = {"state": new}
    if new == FINISHED:
        values["finished"] = time.time()
    if note:
        values["note"] = note
    with engine.begin() as conn:
        return conn.execute(update(tournaments).where(
            tournaments.c.id == tournament_id, tournaments.c.state == old)
            .values(**values)).rowcount == 1


def due(engine: Engine, now: float) -> list[int]:
    with engine.connect() as conn:
        return list(conn.execute(select(tournaments.c.id).where(
            tournaments.c.state == UPCOMING, tournaments.c.starts <= now)).scalars())


def running(engine: Engine) -> list[dict[str, Any]]:
    with engine.connect() as conn:
        return [_tournament(r) for r in conn.execute(
            select(tournaments).where(tournaments.c.state == RUNNING))]


# ----- rounds and games ------------------------------------------------------------------
def games_of(engine: Engine, tournament_id: int) -> list[dict[str, Any]]:
    with engine.connect() as conn:
        return [dict(r._mapping) for r in conn.execute(
            select(tournament_games).where(tournament_games.c.tournament_id == tournament_id)
            .order_by(tournament_games.c.round, tournament_games.c.id))]


def rounds_of(engine: Engine, tournament_id: int) -> list[dict[str, Any]]:
    with engine.connect() as conn:
        return [dict(r._mapping) for r in conn.execute(
            select(tournament_rounds).where(tournament_rounds.c.tournament_id == tournament_id)
            .order_by(tournament_rounds.c.number))]


def add_round(engine: Engine, tournament_id: int, number: int,
              pairs: list[tuple[int, int]], bye: int | None, mirrored: bool,
              seeds: list[str]) -> bool:
    """Round ``number`` with its pairings, in one transaction; False (nothing stored)
    when that round was paired already (by another process)."""
    rows = []
    for (a, b), seed in zip(pairs, seeds):
        for leg in (0, 1) if mirrored else (0,):
            rows.append({"tournament_id": tournament_id, "round": number, "a": a, "b": b,
                         "leg": leg, "seed": seed, "shown": False})
    try:
        with engine.begin() as conn:
            conn.execute(insert(tournament_rounds).values(
                tournament_id=tournament_id, number=number, bye=bye, paired=time.time()))
            if rows:
                conn.execute(insert(tournament_games), rows)
    except IntegrityError:
        return False
    return True


def claim_pairing(engine: Engine, pairing_id: int, now: float) -> bool:
    """This process makes the pairing's game: False when another process claimed it
    first (and its claim has not expired)."""
    with engine.begin() as conn:
        return conn.execute(update(tournament_games).where(
            tournament_games.c.id == pairing_id, tournament_games.c.game_id.is_(None),
            or_(tournament_games.c.claimed.is_(None),
                tournament_games.c.claimed < now - CLAIM_EXPIRES))
            .values(claimed=now)).rowcount == 1


def unmade(engine: Engine, tournament_id: int, now: float) -> list[dict[str, Any]]:
    """Pairings without a game whose claim (if any) expired."""
    with engine.connect() as conn:
        return [dict(r._mapping) for r in conn.execute(select(tournament_games).where(
            tournament_games.c.tournament_id == tournament_id,
            tournament_games.c.game_id.is_(None),
            or_(tournament_games.c.claimed.is_(None),
                tournament_games.c.claimed < now - CLAIM_EXPIRES)))]


def set_game(engine: Engine, pairing_id: int, game_id: str) -> None:
    """The pairing's game (its seats are its entrants' accounts')."""
    with engine.begin() as conn:
        conn.execute(update(tournament_games).where(tournament_games.c.id == pairing_id)
                     .values(game_id=game_id))


def set_result(engine: Engine, pairing_id: int, points_a: float, margin: int,
               forfeit: int | None = None) -> bool:
    with engine.begin() as conn:
        return conn.execute(update(tournament_games).where(
            tournament_games.c.id == pairing_id, tournament_games.c.points_a.is_(None))
            .values(points_a=points_a, margin=margin, ended=time.time(),
                    **({"forfeit": forfeit} if forfeit is not None else {}))).rowcount == 1


def set_shown(engine: Engine, pairing_id: int) -> None:
    with engine.begin() as conn:
        conn.execute(update(tournament_games).where(tournament_games.c.id == pairing_id)
                     .values(shown=True))


def note_forfeit(engine: Engine, pairing_id: int, number: int) -> None:
    with engine.begin() as conn:
        conn.execute(update(tournament_games).where(tournament_games.c.id == pairing_id)
                     .values(forfeit=number))


def playing(engine: Engine) -> list[dict[str, Any]]:
    """Every game of a running tournament that has no result yet, with its game's state
    (over, an early result, last change)."""
    from kingscrib.web.db.tables import clocks, games

    with engine.connect() as conn:
        rows = conn.execute(
            select(tournament_games, games.c.over, games.c.updated, games.c.closed,
                   clocks.c.result.label("early"), tournaments.c.no_show)
            .join(tournaments, tournaments.c.id == tournament_games.c.tournament_id)
            .join(games, games.c.id == tournament_games.c.game_id)
            .outerjoin(clocks, clocks.c.game_id == games.c.id)
            .where(tournaments.c.state == RUNNING, tournament_games.c.points_a.is_(None)))
        return [dict(r._mapping) for r in rows]


def account_names(engine: Engine, ids: list[int]) -> dict[int, str]:
    with engine.connect() as conn:
        return {r.id: r.name for r in conn.execute(
            select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(ids)))}


def seats_that_acted(engine: Engine, game_id: str) -> set[int]:
    """The seats with a stored turn (Cribbage turns say ``seat``, Kings ``player``)."""
    from kingscrib.web.db.tables import turns

    with engine.connect() as conn:
        data = conn.execute(select(turns.c.data).where(turns.c.game_id == game_id)).scalars()
        acted: set[int] = set()
        for d in data:
            if isinstance(d, dict):
                acted.add(int(d["seat"] if "seat" in d else d.get("player", -1)))
        return acted


# ----- standings -------------------------------------------------------------------------
@dataclass
class Tally:
    """A tournament's standings and what pairing needs, from its stored results."""

    rows: list[Standing]
    records: dict[Entrant, Record] = field(default_factory=dict)  # by entrant number
    byes: list[int] = field(default_factory=list)


def results_of(games_rows: list[dict[str, Any]]) -> list[Result]:
    """Each finished game as a Result of the entrant in seat 0 of leg 0 (``a``)."""
    return [Result(g["a"], g["b"], g["points_a"], g["margin"] or 0)
            for g in games_rows if g["points_a"] is not None]


def table(entrant_rows: list[dict[str, Any]], game_rows: list[dict[str, Any]],
          round_rows: list[dict[str, Any]], mirrored: bool) -> Tally:
    order = sorted(entrant_rows, key=lambda e: (-(e["rating"] or 0), e["number"]))
    byes = [r["bye"] for r in round_rows if r["bye"] is not None]
    rows = standings(results_of(game_rows), byes, [e["number"] for e in order],
                     bye_points=2.0 if mirrored else 1.0)
    rank = {e["number"]: i for i, e in enumerate(order)}
    records = {s.entrant: Record(s.points, set(s.opponents), s.byes, rank[s.entrant])
               for s in rows if s.entrant in rank}
    for g in game_rows:  # a pairing still being played counts as met
        for me, them in ((g["a"], g["b"]), (g["b"], g["a"])):
            if me in records:
                records[me].met.add(them)
    return Tally(rows, records, byes)


def team_table(rows: list[Standing], entrant_rows: list[dict[str, Any]], best: int
               ) -> list[dict[str, Any]]:
    named: dict[str, list[int]] = {}
    for e in entrant_rows:
        if e.get("team"):
            named.setdefault(e["team"], []).append(e["number"])
    table = team_standings(rows, named, best)
    points = [t.points for t in table]
    return [{"team": t.team, "points": t.points, "counted": list(t.counted),
             "place": 1 + sum(p > t.points for p in points), "tied": points.count(t.points) > 1}
            for t in table]


def forget_account(conn: Connection, account_id: int) -> None:
    """An account is deleted (in the caller's transaction): its entries read "deleted
    player" and are withdrawn (their results stay), it leaves its teams, and the
    tournaments and teams it created stay without a creator."""
    mine = or_(tournament_entrants.c.account_id == account_id,
               tournament_entrants.c.partner_id == account_id)
    conn.execute(update(tournament_entrants).where(
        mine, tournament_entrants.c.withdrawn.is_(None)).values(withdrawn=time.time()))
    conn.execute(update(tournament_entrants).where(
        tournament_entrants.c.partner_id == account_id).values(partner_id=None))
    conn.execute(update(tournament_entrants).where(
        tournament_entrants.c.account_id == account_id).values(account_id=None, name=DELETED))
    conn.execute(delete(team_members).where(team_members.c.account_id == account_id))
    conn.execute(update(teams).where(teams.c.creator_id == account_id).values(creator_id=None))
    conn.execute(update(tournaments).where(tournaments.c.creator_id == account_id)
                 .values(creator_id=None))


# ----- teams -----------------------------------------------------------------------------
def team_key(name: str) -> str:
    import unicodedata

    return unicodedata.normalize("NFKC", name.strip()).casefold()[:40]


def create_team(engine: Engine, name: str, account_id: int) -> int:
    with engine.begin() as conn:
        try:
            team_id = inserted_id(conn.execute(insert(teams).values(
                name=name, name_key=team_key(name), creator_id=account_id,
                created=time.time())))
        except IntegrityError:
            raise Refused(409, f"a team named {name!r} exists already") from None
        conn.execute(insert(team_members).values(team_id=team_id, account_id=account_id,
                                                 joined=time.time()))
        return team_id


def join_team(engine: Engine, team_id: int, account_id: int) -> None:
    try:
        with engine.begin() as conn:
            if conn.execute(select(teams.c.id).where(teams.c.id == team_id)).first() is None:
                raise Refused(404, "no such team")
            conn.execute(insert(team_members).values(team_id=team_id, account_id=account_id,
                                                     joined=time.time()))
    except IntegrityError:
        raise Refused(409, "you are in this team already") from None


def leave_team(engine: Engine, team_id: int, account_id: int) -> None:
    with engine.begin() as conn:
        gone = conn.execute(delete(team_members).where(
            team_members.c.team_id == team_id,
            team_members.c.account_id == account_id)).rowcount
    if not gone:
        raise Refused(409, "you are not in this team")


def team_list(engine: Engine) -> list[dict[str, Any]]:
    with engine.connect() as conn:
        rows = conn.execute(select(teams.c.id, teams.c.name, accounts.c.name.label("member"),
                                   accounts.c.id.label("account_id"))
                            .select_from(teams.outerjoin(team_members,
                                                         team_members.c.team_id == teams.c.id)
                                         .outerjoin(accounts,
                                                    accounts.c.id == team_members.c.account_id))
                            .order_by(teams.c.name, accounts.c.name)).all()
    out: dict[int, dict[str, Any]] = {}
    for r in rows:
        team = out.setdefault(r.id, {"id": r.id, "name": r.name, "members": []})
        if r.member is not None:
            team["members"].append({"name": r.member, "account_id": r.account_id})
    return list(out.values())


def members(engine: Engine, team_id: int) -> list[tuple[int, str]]:
    with engine.connect() as conn:
        return [(r.id, r.name) for r in conn.execute(
            select(accounts.c.id, accounts.c.name).join(
                team_members, team_members.c.account_id == accounts.c.id)
            .where(team_members.c.team_id == team_id).order_by(team_members.c.joined))]


def in_team(engine: Engine, team_id: int, account_id: int) -> bool:
    with engine.connect() as conn:
        return conn.execute(select(team_members.c.team_id).where(
            team_members.c.team_id == team_id,
            team_members.c.account_id == account_id)).first() is not None
