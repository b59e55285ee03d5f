"""Where games live between server runs: SQLAlchemy over SQLite or PostgreSQL.

A game is stored as which game it is (``kings`` or ``cribbage``; a row an older server
wrote may say ``classic``, read as ``cribbage``), its rules, seed
and seats, plus one row per turn. A Kings turn is the turn as the game record
writes it (RULES.md Part 3, joker calls included), rebuilt by
:func:`kingscrib.kings.record.game_from_record`; other games store the turns
their module in :mod:`kingscrib.web.play.games` applies and replays. Seat tokens are
stored as SHA-256 hashes only. The tables are in :mod:`kingscrib.web.db.tables`.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine

from kingscrib.common.paths import data_dir
from kingscrib.common.shuffle import Seed
from kingscrib.core import DEFAULT_GAME
from kingscrib.web.db import schema
from kingscrib.web.db.analyses import Analyses
from kingscrib.web.db.game_ids import stored_game
from kingscrib.web.db.process_beats import ProcessBeats
from kingscrib.web.db.shared_counts import SharedCounts, address_key, lock_address
from kingscrib.web.db.tables import (
    analyses,
    clocks,
    computer_games,
    games,
    rematches,
    seat_accounts,
    seats,
    turns,
)


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def postgres_driver(url: str) -> str:
    """A plain ``postgresql://`` (or ``postgres://``) URL, as PostgreSQL prints it, goes
    through psycopg 3, the driver installed with the web extra."""
    for scheme in ("postgresql://", "postgres://"):
        if url.startswith(scheme):
            return "postgresql+psycopg://" + url[len(scheme):]
    return url


def default_url() -> str:
    """SQLite in the user's data folder (``$KINGSCRIB_DATA_DIR`` honoured)."""
    return f"sqlite:///{data_dir() / 'web.sqlite3'}"


@dataclass
class StoredSeat:
    seat: int
    name: str
    kind: str
    level: str | None
    token_hash: str | None


@dataclass
class TurnWrite:
    """A turn to store: ``new`` (the game's turn ``n``, and whether the game is now over)
    or a rewrite of turn ``n`` (a Joker call)."""

    game_id: str
    n: int
    data: dict[str, Any]
    new: bool = True
    over: bool = False
    # The game's clock row after this turn (see ``clocks``): {"seconds", "remaining",
    # "running", "started", "due", "result"}; None: an older game without one.
    clock: dict[str, Any] | None = None


@dataclass
class StoredGame:
    id: str
    rules: dict[str, Any]
    seed: Seed
    invite_hash: str
    over: bool
    seats: list[StoredSeat]
    turns: list[dict[str, Any]]
    game: str = DEFAULT_GAME
    hints: bool = False
    closed: float | None = None
    clock: dict[str, Any] | None = None  # the ``clocks`` row (None: a game stored before)
    rated: bool = False


class StaleGame(Exception):
    """The game changed meanwhile (through another server process): a turn, a
    resignation or a time-out was stored first."""


class TooManyComputerGames(Exception):
    """The address has its limit of games of computers only being played."""

    def __init__(self, playing: int) -> None:
        super().__init__(playing)
        self.playing = playing


class SeatTaken(Exception):
    """Someone (through another server process) took the seat first."""


# PostgreSQL NOTIFY channel: "<process> <game id>", or "<process> <game id> <n> <turn>"
# for a new turn (the turn as stored, as JSON, then a newline and the game's new
# ``clocks`` row as JSON when the game has one). PostgreSQL caps a payload at 8,000 bytes:
# a longer turn goes as a bare note and is read from the store.
CHANNEL = "kingscrib_games"
LISTENER_NAME = "kingscrib-listen"  # the listening connection's application_name
NOTE_LIMIT = 7900
CONNECT_TIMEOUT = 5  # seconds to open a PostgreSQL connection


class Store(ProcessBeats, SharedCounts, Analyses):
    """Synchronous storage; the server calls it from one worker thread.

    On PostgreSQL several server processes may share a store: every write also
    sends ``NOTIFY kingscrib_games, '<process> <game id>'`` (delivered when the
    transaction commits) and :meth:`listen` hands the other processes' notes over."""

    def __init__(self, url: str | None = None) -> None:
        self.url = postgres_driver(url or default_url())
        self.shared = self.url.startswith("postgresql")
        self.instance = uuid.uuid4().hex[:12]  # this process, in the notes it sends
        self.listening = False  # the LISTEN connection is up (see listen; readiness)
        kwargs: dict[str, Any] = {}
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
        elif self.shared:  # an unreachable host is a prompt 503, not a request hanging
            kwargs["connect_args"] = {"connect_timeout": CONNECT_TIMEOUT}
            # After PostgreSQL restarts every pooled connection is dead: each is checked
            # before use, so the first requests after an outage do not fail on them.
            kwargs["pool_pre_ping"] = True
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        # The schema is Alembic's (kingscrib/web/db/migrations): brought to the newest
        # revision, a database from before migrations completed and stamped first.
        schema.upgrade(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    def create_game(self, game_id: str, rules: dict[str, Any], seed: Seed, invite_hash: str,
                    seat_rows: list[StoredSeat], game: str = DEFAULT_GAME, hints: bool = False,
                    clock: dict[str, Any] | None = None,
                    computers_of: tuple[str, int] | None = None, rated: bool = False) -> None:
        """Store a new game. ``computers_of``: (address, limit) of a game of computers
        only: TooManyComputerGames, nothing stored, when the address has ``limit`` of
        them being played (not over, not closed, a turn in the last ``PLAYING`` seconds)."""
        now = time.time()
        secret = seed if isinstance(seed, str) else None
        with self.engine.begin() as conn:
            owner = None if computers_of is None else self._computers_owner(
                conn, *computers_of, now)
            conn.execute(insert(games).values(id=game_id, created=now, updated=now, rules=rules,
                                              seed=0 if secret else seed, secret=secret,
                                              invite_hash=invite_hash, over=False, game=game,
                                              hints=hints, rated=rated))
            if owner is not None:
                conn.execute(insert(computer_games).values(game_id=game_id, address=owner))
            conn.execute(insert(seats), [
                {"game_id": game_id, "seat": s.seat, "name": s.name, "kind": s.kind,
                 "level": s.level, "token_hash": s.token_hash} for s in seat_rows])
            conn.execute(insert(clocks).values({"game_id": game_id, "turn": 0, "overtime": 0,
                                                **(clock or {})}))

    def _computers_owner(self, conn: Connection, address: str, limit: int, now: float) -> str:
        """The stored key of ``address``, which may create one more game of computers
        only; TooManyComputerGames otherwise."""
        key = address_key(address)
        if self.shared:
            lock_address(conn, key)
        playing = conn.execute(
            select(func.count()).select_from(computer_games.join(games)).where(
                computer_games.c.address == key, games.c.over.is_(False),
                games.c.closed.is_(None), games.c.updated > now - PLAYING)).scalar_one()
        if playing >= limit:
            raise TooManyComputerGames(playing)
        return key

    def take_seat(self, game_id: str, seat: int, name: str, token_hash: str,
                  clock: dict[str, Any] | None = None) -> None:
        """Give an open seat its token; SeatTaken when it was taken meanwhile. ``clock``:
        the clocks start (the last open seat was taken)."""
        with self.engine.begin() as conn:
            done = conn.execute(update(seats).where(
                seats.c.game_id == game_id, seats.c.seat == seat, seats.c.kind == "human",
                seats.c.token_hash.is_(None)).values(name=name, token_hash=token_hash))
            if done.rowcount != 1:
                raise SeatTaken(seat)
            if clock is not None:
                conn.execute(update(clocks).where(clocks.c.game_id == game_id).values(**clock))
            conn.execute(update(games).where(games.c.id == game_id).values(updated=time.time()))
            self._notify(conn, [game_id])

    def _notify(self, conn: Connection, game_ids: Any, turns: dict[str, TurnWrite] | None = None
                ) -> None:
        """Tell the other server processes (PostgreSQL only) which games changed, all in
        one statement. A game whose one change is a new turn gets the turn in its note, so
        that a process following it applies the turn without reading the store."""
        if not self.shared:
            return
        notes = []
        for game_id in sorted(set(game_ids)):
            note = f"{self.instance} {game_id}"
            write = (turns or {}).get(game_id)
            if write is not None:
                carried = f"{note} {write.n} " + _carried(json.dumps(write.data,
                                                                     separators=(",", ":")),
                                                          write.clock)
                if len(carried.encode("utf-8")) <= NOTE_LIMIT:
                    note = carried
            notes.append(note)
        conn.execute(text("SELECT pg_notify(:channel, note)"
                          " FROM unnest(CAST(:notes AS text[])) AS note"),
                     {"channel": CHANNEL, "notes": notes})

    def listen(self, on_note: Callable[[str, str], None], stop: threading.Event,
               on_connect: Callable[[bool], None] | None = None,
               on_lost: Callable[[], None] | None = None) -> None:
        """Pass each note another process sends to ``on_note(game_id, rest)`` until ``stop``
        is set (PostgreSQL only; runs in a thread of its own, reconnecting after a lost
        connection). ``rest`` is "" or the new turn: "<n> <turn as JSON>"; the notes this
        process sent itself are skipped before anything is parsed. ``on_connect(again)``
        runs each time the channel is listened to (``again``: after the connection was
        lost, which ``on_lost()`` tells): the notes sent while the connection was down are
        lost, so whatever changed meanwhile must be read from the store."""
        import psycopg

        url = "postgresql://" + self.url.split("://", 1)[1]
        mine = self.instance + " "
        connected = False
        while not stop.is_set():
            try:
                # Named, so that an operator (or a test) can tell the listener apart in
                # pg_stat_activity; keepalives notice a connection gone silently.
                with psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT,
                                     application_name=LISTENER_NAME, keepalives=1,
                                     keepalives_idle=10, keepalives_interval=5,
                                     keepalives_count=3) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.listening = True
                    if on_connect is not None:
                        on_connect(connected)
                    connected = True
                    while not stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            if note.payload.startswith(mine):
                                continue
                            _origin, _, rest = note.payload.partition(" ")
                            game_id, _, rest = rest.partition(" ")
                            on_note(game_id, rest)
            except psycopg.Error:
                self.listening = False
                if on_lost is not None:
                    on_lost()
                stop.wait(1.0)
        self.listening = False

    def versions(self, game_ids: list[str]) -> dict[str, tuple[int, bool]]:
        """Each stored game's version and whether it is closed (PostgreSQL: one query).
        The version counts what :attr:`Room.version` counts of the stored game: its turns
        and the Joker calls on them, the people seated, an early ending. A game no longer
        stored is left out."""
        if not game_ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(text(
                "SELECT g.id, g.closed IS NOT NULL AS closed,"
                " (SELECT count(*) + count(*) FILTER (WHERE jsonb_exists(t.data::jsonb,"
                " 'joker')) FROM turns t WHERE t.game_id = g.id)"
                " + (SELECT count(*) FROM seats s WHERE s.game_id = g.id"
                " AND s.kind = 'human' AND s.token_hash IS NOT NULL)"
                " + (SELECT count(*) FROM clocks c WHERE c.game_id = g.id"
                " AND c.result IS NOT NULL) AS version"
                " FROM games g WHERE g.id = ANY(:ids)"), {"ids": list(game_ids)}).all()
        return {r.id: (int(r.version), bool(r.closed)) for r in rows}

    def rekey_seat(self, game_id: str, seat: int, token_hash: str) -> bool:
        """A taken person's seat gets a new token (its old one opens nothing any more);
        False when the seat is no taken person's seat."""
        with self.engine.begin() as conn:
            done = conn.execute(update(seats).where(
                seats.c.game_id == game_id, seats.c.seat == seat, seats.c.kind == "human",
                seats.c.token_hash.is_not(None)).values(token_hash=token_hash))
            if done.rowcount != 1:
                return False
            self._notify(conn, [game_id])
        return True

    def seat_with_token(self, game_id: str, token_hash: str) -> int | None:
        """The seat of a game the stored token hash opens (None: none)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(seats.c.seat).where(
                seats.c.game_id == game_id, seats.c.token_hash == token_hash)).first()
        return None if row is None else row.seat

    def add_turn(self, game_id: str, n: int, data: dict[str, Any], over: bool) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(turns).values(game_id=game_id, n=n, data=data))
            conn.execute(update(games).where(games.c.id == game_id)
                         .values(updated=time.time(), over=over))

    def replace_turn(self, game_id: str, n: int, data: dict[str, Any]) -> None:
        """Rewrite a turn (a Joker call is recorded on the play it answers)."""
        with self.engine.begin() as conn:
            conn.execute(update(turns).where(turns.c.game_id == game_id, turns.c.n == n)
                         .values(data=data))
            conn.execute(update(games).where(games.c.id == game_id).values(updated=time.time()))

    def write_batch(self, writes: list[TurnWrite]) -> list[Exception | None]:
        """Store many turns (of any games) in one transaction: one ``executemany`` per kind
        of statement, one commit. Returns, for each write, None (stored) or why it failed;
        when the batch fails as a whole each write is retried alone, so one bad write does
        not sink the others."""
        try:
            with self.engine.begin() as conn:
                self._write(conn, writes)
            return [None] * len(writes)
        except Exception as e:
            if len(writes) == 1:
                return [e]
        results: list[Exception | None] = []
        for w in writes:
            try:
                with self.engine.begin() as conn:
                    self._write(conn, [w])
                results.append(None)
            except Exception as e:
                results.append(e)
        return results

    def _write(self, conn: Connection, writes: list[TurnWrite]) -> None:
        if self.shared:
            return self._write_postgres(conn, writes)
        now = time.time()
        added = [{"game_id": w.game_id, "n": w.n, "data": w.data} for w in writes if w.new]
        replaced = [{"b_game": w.game_id, "b_n": w.n, "b_data": w.data}
                    for w in writes if not w.new]
        over: dict[str, bool] = {}
        touched: set[str] = set()
        changes: dict[str, list[TurnWrite]] = {}
        for w in writes:
            if w.new:
                over[w.game_id] = w.over
            touched.add(w.game_id)
            changes.setdefault(w.game_id, []).append(w)
        if added:
            conn.execute(insert(turns), added)
        for w in writes:
            if w.new and w.clock is not None:
                done = conn.execute(update(clocks).where(
                    clocks.c.game_id == w.game_id, clocks.c.turn == w.n,
                    clocks.c.result.is_(None)).values(turn=w.n + 1, **w.clock))
                if done.rowcount != 1:
                    raise StaleGame(w.game_id)
        if replaced:
            conn.execute(update(turns).where(turns.c.game_id == bindparam("b_game"),
                                             turns.c.n == bindparam("b_n"))
                         .values(data=bindparam("b_data")), replaced)
        if over:
            conn.execute(update(games).where(games.c.id == bindparam("b_game"))
                         .values(updated=now, over=bindparam("b_over")),
                         [{"b_game": g, "b_over": o} for g, o in over.items()])
        if touched - over.keys():
            conn.execute(update(games).where(games.c.id == bindparam("b_game"))
                         .values(updated=now), [{"b_game": g} for g in touched - over.keys()])
        # A note carries the turn when it is the game's one change in this batch and new.
        carried = {g: ws[0] for g, ws in changes.items() if len(ws) == 1 and ws[0].new}
        self._notify(conn, touched, carried)

    def _write_postgres(self, conn: Connection, writes: list[TurnWrite]) -> None:
        """The batch in one statement (one round trip): the new turns inserted, the games
        touched, the notes sent. A turn already stored (another process won the race)
        fails it all with IntegrityError, as the unique (game, turn) key says."""
        added = [w for w in writes if w.new]
        texts = {id(w): json.dumps(w.data, separators=(",", ":")) for w in added}
        over: dict[str, bool | None] = {w.game_id: None for w in writes}
        changes: dict[str, list[TurnWrite]] = {}
        for w in writes:
            if w.new:
                over[w.game_id] = w.over
            changes.setdefault(w.game_id, []).append(w)
        notes = []
        for game_id in sorted(changes):
            note = f"{self.instance} {game_id}"
            ws = changes[game_id]
            if len(ws) == 1 and ws[0].new:  # the note carries the turn
                carried = f"{note} {ws[0].n} " + _carried(texts[id(ws[0])], ws[0].clock)
                if len(carried.encode("utf-8")) <= NOTE_LIMIT:
                    note = carried
            notes.append(note)
        # The clocks row of each new turn's game moves on only from the turn before
        # (see ``clocks``); a game with two new turns in one batch: a statement each.
        timed = [w for w in added if w.clock is not None]
        per_game = [w.game_id for w in timed]
        one_each = len(set(per_game)) == len(per_game)
        clocked = timed if one_each else []
        full = [w.clock is not None and "seconds" in w.clock for w in clocked]
        rows = conn.exec_driver_sql(_BATCH, {
            "ag": [w.game_id for w in added], "an": [w.n for w in added],
            "ad": [texts[id(w)] for w in added], "tg": list(over), "to": list(over.values()),
            "now": time.time(), "channel": CHANNEL, "notes": notes,
            "cg": per_game if one_each else [], "cn": [w.n for w in clocked], "cf": full,
            **{f"c{key}": [(w.clock or {}).get(column) if f else None
                           for w, f in zip(clocked, full)]
               for key, column in (("s", "seconds"), ("o", "overtime"), ("st", "started"),
                                   ("du", "due"))},
            **{f"c{key}": [_json_text((w.clock or {}).get(column)) if f else None
                           for w, f in zip(clocked, full)]
               for key, column in (("rem", "remaining"), ("run", "running"))},
            "cr": [_json_text((w.clock or {}).get("result")) for w in clocked]}).all()
        moved = set(rows[0][0] or []) if rows else set()
        for w in clocked:
            if w.game_id not in moved:
                raise StaleGame(w.game_id)
        for w in ([] if one_each else timed):
            done = conn.execute(update(clocks).where(
                clocks.c.game_id == w.game_id, clocks.c.turn == w.n,
                clocks.c.result.is_(None)).values(turn=w.n + 1, **(w.clock or {})))
            if done.rowcount != 1:
                raise StaleGame(w.game_id)
        replaced = [w for w in writes if not w.new]
        if replaced:  # Joker calls (on turns perhaps added just above): their own statement
            conn.execute(update(turns).where(turns.c.game_id == bindparam("b_game"),
                                             turns.c.n == bindparam("b_n"))
                         .values(data=bindparam("b_data")),
                         [{"b_game": w.game_id, "b_n": w.n, "b_data": w.data} for w in replaced])

    def load(self, game_id: str) -> StoredGame | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(games).where(games.c.id == game_id)).first()
            if row is None:
                return None
            seat_rows = conn.execute(select(seats).where(seats.c.game_id == game_id)
                                     .order_by(seats.c.seat)).all()
            turn_rows = conn.execute(select(turns.c.data).where(turns.c.game_id == game_id)
                                     .order_by(turns.c.n)).all()
            clock_row = conn.execute(select(clocks).where(clocks.c.game_id == game_id)).first()
        return StoredGame(
            id=row.id, rules=_json(row.rules), seed=row.secret or row.seed, invite_hash=row.invite_hash,
            over=row.over,
            seats=[StoredSeat(r.seat, r.name, r.kind, r.level, r.token_hash) for r in seat_rows],
            turns=[_json(r.data) for r in turn_rows], game=stored_game(row.game or DEFAULT_GAME),
            hints=bool(row.hints), closed=row.closed, rated=bool(row.rated),
            clock=None if clock_row is None else {
                "turn": clock_row.turn, "seconds": clock_row.seconds,
                "overtime": clock_row.overtime, "remaining": _json(clock_row.remaining),
                "running": _json(clock_row.running), "started": clock_row.started,
                "due": clock_row.due, "result": _json(clock_row.result),
                "per_move": bool(clock_row.per_move)})

    def finish(self, game_id: str, turn: int, clock: dict[str, Any]) -> None:
        """End a game the engine did not end (a resignation, a time-out): ``clock`` holds
        the result. StaleGame when a turn or another ending was stored first."""
        with self.engine.begin() as conn:
            done = conn.execute(update(clocks).where(
                clocks.c.game_id == game_id, clocks.c.turn == turn,
                clocks.c.result.is_(None)).values(**clock))
            if done.rowcount != 1:
                exists = conn.execute(select(clocks.c.game_id)
                                      .where(clocks.c.game_id == game_id)).first()
                if exists is not None:
                    raise StaleGame(game_id)
                # A game stored before clocks existed gains its row now.
                conn.execute(insert(clocks).values(game_id=game_id, turn=turn, **clock))
            conn.execute(update(games).where(games.c.id == game_id)
                         .values(over=True, updated=time.time()))
            self._notify(conn, [game_id])

    def due_clocks(self, now: float, limit: int = 100) -> list[str]:
        """The games whose running clock has run out by ``now`` (one indexed query)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(clocks.c.game_id).where(
                clocks.c.due <= now, clocks.c.result.is_(None))
                .order_by(clocks.c.due).limit(limit)).all()
        return [r.game_id for r in rows]

    def close_idle(self, before: float) -> list[str]:
        """Close every unfinished game untouched since ``before`` (a time.time()); their
        turns stay, so the record so far can still be downloaded. A game whose clock runs
        is left to its clock (a correspondence move may take as long as the idle time).
        Returns their ids."""
        now = time.time()
        with self.engine.begin() as conn:
            running = select(clocks.c.game_id).where(clocks.c.due.is_not(None))
            ids = [r.id for r in conn.execute(
                select(games.c.id).where(games.c.over.is_(False), games.c.updated < before,
                                         games.c.id.not_in(running)))]
            if ids:
                conn.execute(update(games).where(games.c.id.in_(ids))
                             .values(over=True, closed=now))
                conn.execute(update(clocks).where(clocks.c.game_id.in_(ids)).values(due=None))
                self._notify(conn, ids)
        return ids

    def set_rematch(self, game_id: str, rematch_id: str, invite: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(rematches).values(game_id=game_id, rematch_id=rematch_id,
                                                  invite=invite))

    def rematch(self, game_id: str) -> tuple[str, str] | None:
        """The rematch of a game and its invite code (None: no rematch yet)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(rematches).where(rematches.c.game_id == game_id)).first()
        return (row.rematch_id, row.invite) if row else None

    def delete_game(self, game_id: str) -> None:
        """Remove a game and everything kept about it (a cancelled game)."""
        with self.engine.begin() as conn:
            conn.execute(delete(analyses).where(analyses.c.game_id == game_id))
            conn.execute(delete(computer_games).where(computer_games.c.game_id == game_id))
            conn.execute(delete(seat_accounts).where(seat_accounts.c.game_id == game_id))
            conn.execute(delete(rematches).where((rematches.c.game_id == game_id)
                                                 | (rematches.c.rematch_id == game_id)))
            conn.execute(delete(turns).where(turns.c.game_id == game_id))
            conn.execute(delete(clocks).where(clocks.c.game_id == game_id))
            conn.execute(delete(seats).where(seats.c.game_id == game_id))
            conn.execute(delete(games).where(games.c.id == game_id))

    def unfinished(self, limit: int = 10_000) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(games.c.id).where(games.c.over.is_(False))
                                .order_by(games.c.updated.desc()).limit(limit)).all()
        return [r.id for r in rows]


# One batch of turns on PostgreSQL (psycopg's parameter style): data-modifying parts of a
# WITH run once each, whether or not the final SELECT reads them. ``clocked``: the games
# whose clocks row moved on (a row not moved: a resignation or time-out came first).
_BATCH = (
    "WITH added AS (INSERT INTO turns (game_id, n, data)"
    " SELECT g, n, CAST(d AS json) FROM unnest(CAST(%(ag)s AS text[]), CAST(%(an)s AS int[]),"
    " CAST(%(ad)s AS text[])) AS x(g, n, d)),"
    " touched AS (UPDATE games SET updated = %(now)s, over = coalesce(x.o, games.over)"
    " FROM unnest(CAST(%(tg)s AS text[]), CAST(%(to)s AS boolean[])) AS x(g, o)"
    " WHERE games.id = x.g),"
    " clocked AS (UPDATE clocks SET turn = x.n + 1, result = CAST(x.r AS json),"
    " seconds = CASE WHEN x.f THEN x.s ELSE clocks.seconds END,"
    " overtime = CASE WHEN x.f THEN x.o ELSE clocks.overtime END,"
    " remaining = CASE WHEN x.f THEN CAST(x.rem AS json) ELSE clocks.remaining END,"
    " running = CASE WHEN x.f THEN CAST(x.run AS json) ELSE clocks.running END,"
    " started = CASE WHEN x.f THEN x.st ELSE clocks.started END,"
    " due = CASE WHEN x.f THEN x.du ELSE clocks.due END"
    " FROM unnest(CAST(%(cg)s AS text[]), CAST(%(cn)s AS int[]), CAST(%(cf)s AS boolean[]),"
    " CAST(%(cs)s AS int[]), CAST(%(co)s AS int[]), CAST(%(crem)s AS text[]),"
    " CAST(%(crun)s AS text[]), CAST(%(cst)s AS float8[]), CAST(%(cdu)s AS float8[]),"
    " CAST(%(cr)s AS text[])) AS x(g, n, f, s, o, rem, run, st, du, r)"
    " WHERE clocks.game_id = x.g AND clocks.turn = x.n AND clocks.result IS NULL"
    " RETURNING clocks.game_id)"
    " SELECT ARRAY(SELECT game_id FROM clocked), pg_notify(%(channel)s, note)"
    " FROM unnest(CAST(%(notes)s AS text[])) AS note")


def _carried(turn: str, clock: dict[str, Any] | None) -> str:
    """A note's turn part: the turn as JSON, then (after a newline, which JSON text
    never holds unescaped) the game's new ``clocks`` row when it has one."""
    if clock is None or clock == {"result": None}:  # no clock, no ending: nothing to say
        return turn
    return turn + "\n" + json.dumps(clock, separators=(",", ":"))


# A game of computers only with no turn stored for this long no longer counts as being
# played (its computers stopped with a server restart: it resumes when next opened).
PLAYING = 600.0


def _json_text(value: Any) -> str | None:
    return None if value is None else json.dumps(value, separators=(",", ":"))


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()

