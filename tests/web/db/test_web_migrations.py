"""The web server's schema migrations (kingscrib.web.db.schema, kingscrib/web/db/migrations).

A database made before migrations existed (the tables as the server's ``create_all``
made them, written out below as that DDL) holds games stored by the server; the new
code stamps it at the baseline and upgrades it in place, and every game loads exactly
as it was and plays on, on SQLite and on PostgreSQL. Several processes starting at once
on an empty PostgreSQL database all come up (the migrations run under an advisory lock).
"""

from __future__ import annotations

import copy
import multiprocessing
import random
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from alembic import command
from click.testing import CliRunner
from sqlalchemy import Column, MetaData, Table, create_engine, insert, inspect, select, text
from web_support import Server, auth, body_of, in_process_client, postgres_server

from kingscrib.classic.game import ClassicGame
from kingscrib.classic.rules import RuleSet as ClassicRules
from kingscrib.kings.game import Game
from kingscrib.kings.rules import RuleSet
from kingscrib.web.accounts.names import login_key, look_key
from kingscrib.web.app.tables import metadata
from kingscrib.web.db import schema
from kingscrib.web.db.storage import Store, postgres_driver

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

# The schema as the server made it on start before migrations (SQLAlchemy's create_all
# of kingscrib.web.db.storage's tables, as compiled for each database), then ALTER TABLE
# for the columns added later. {serial} and {over} are where the two databases differ.
BEFORE_MIGRATIONS = """
CREATE TABLE address_games (id {serial} NOT NULL, address VARCHAR(64) NOT NULL,
    at FLOAT NOT NULL, PRIMARY KEY (id));
CREATE INDEX ix_address_games_address ON address_games (address);
CREATE TABLE address_sockets (instance VARCHAR(32) NOT NULL, address VARCHAR(64) NOT NULL,
    n INTEGER NOT NULL, PRIMARY KEY (instance, address));
CREATE TABLE alive (name VARCHAR(16) NOT NULL, at FLOAT NOT NULL, PRIMARY KEY (name));
CREATE TABLE games (id VARCHAR(32) NOT NULL, created FLOAT NOT NULL, updated FLOAT NOT NULL,
    rules JSON NOT NULL, seed INTEGER NOT NULL, invite_hash VARCHAR(64) NOT NULL,
    {over} BOOLEAN NOT NULL, game VARCHAR(16) DEFAULT 'kings' NOT NULL,
    secret VARCHAR(128), hints BOOLEAN, closed FLOAT, PRIMARY KEY (id));
CREATE TABLE analyses (game_id VARCHAR(32) NOT NULL, data JSON NOT NULL,
    PRIMARY KEY (game_id), FOREIGN KEY(game_id) REFERENCES games (id));
CREATE TABLE clocks (game_id VARCHAR(32) NOT NULL, turn INTEGER NOT NULL, seconds INTEGER,
    overtime INTEGER NOT NULL, remaining JSON, running JSON, started FLOAT, due FLOAT,
    result JSON, PRIMARY KEY (game_id), FOREIGN KEY(game_id) REFERENCES games (id));
CREATE INDEX ix_clocks_due ON clocks (due);
CREATE TABLE rematches (game_id VARCHAR(32) NOT NULL, rematch_id VARCHAR(32) NOT NULL,
    invite VARCHAR(64) NOT NULL, PRIMARY KEY (game_id),
    FOREIGN KEY(game_id) REFERENCES games (id), FOREIGN KEY(rematch_id) REFERENCES games (id));
CREATE TABLE seats (game_id VARCHAR(32) NOT NULL, seat INTEGER NOT NULL,
    name VARCHAR(40) NOT NULL, kind VARCHAR(10) NOT NULL, level VARCHAR(20),
    token_hash VARCHAR(64), PRIMARY KEY (game_id, seat),
    FOREIGN KEY(game_id) REFERENCES games (id));
CREATE TABLE turns (game_id VARCHAR(32) NOT NULL, n INTEGER NOT NULL, data JSON NOT NULL,
    PRIMARY KEY (game_id, n), FOREIGN KEY(game_id) REFERENCES games (id));
"""
# Before classic Cribbage, secret seeds, hints, clocks and the shared limits: the
# first server's four tables.
FIRST_SERVER = """
CREATE TABLE games (id VARCHAR(32) NOT NULL, created FLOAT NOT NULL, updated FLOAT NOT NULL,
    rules JSON NOT NULL, seed INTEGER NOT NULL, invite_hash VARCHAR(64) NOT NULL,
    over BOOLEAN NOT NULL, PRIMARY KEY (id));
CREATE TABLE seats (game_id VARCHAR(32) NOT NULL, seat INTEGER NOT NULL,
    name VARCHAR(40) NOT NULL, kind VARCHAR(10) NOT NULL, level VARCHAR(20),
    token_hash VARCHAR(64), PRIMARY KEY (game_id, seat),
    FOREIGN KEY(game_id) REFERENCES games (id));
CREATE TABLE turns (game_id VARCHAR(32) NOT NULL, n INTEGER NOT NULL, data JSON NOT NULL,
    PRIMARY KEY (game_id, n), FOREIGN KEY(game_id) REFERENCES games (id));
CREATE TABLE rematches (game_id VARCHAR(32) NOT NULL, rematch_id VARCHAR(32) NOT NULL,
    invite VARCHAR(64) NOT NULL, PRIMARY KEY (game_id),
    FOREIGN KEY(game_id) REFERENCES games (id), FOREIGN KEY(rematch_id) REFERENCES games (id));
"""


def run_ddl(url: str, ddl: str) -> None:
    postgres = url.startswith("postgresql")
    ddl = ddl.format(serial="SERIAL" if postgres else "INTEGER",
                     over='"over"' if postgres else "over")
    engine = create_engine(postgres_driver(url))
    with engine.begin() as conn:
        for statement in ddl.split(";"):
            if statement.strip():
                conn.exec_driver_sql(statement)
    engine.dispose()


@pytest.fixture(scope="module")
def postgres():
    with postgres_server() as cluster:
        yield cluster


def fresh_postgres(cluster: Any, name: str) -> str:
    """A new empty database on the module's cluster; its URL."""
    engine = create_engine(postgres_driver(cluster.url), isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.exec_driver_sql(f"CREATE DATABASE {name}")
    engine.dispose()
    return cluster.url.rsplit("/", 1)[0] + f"/{name}"


# ----- games stored by the server, to be carried over ------------------------------------
@dataclass
class Stored:
    """A game played through the server, and the engine that followed it."""

    game_id: str
    tokens: list[str]
    engine: Any = None
    states: list[dict[str, Any]] = field(default_factory=list)  # per token, then a spectator
    record: dict[str, Any] | None = None


def _kings_move(c: Any, g: Stored) -> httpx.Response:
    best = g.engine.legal_moves()[0].play
    r = c.post(f"/api/games/{g.game_id}/actions",
               json={"action": "play", "tiles": best.tiles_json()},
               headers=auth(g.tokens[g.engine.turn]))
    if r.status_code == 200:
        g.engine.play(best)
    return r


def _classic_move(c: Any, g: Stored, rng: random.Random) -> httpx.Response:
    seat = rng.choice(g.engine.waiting_for())
    action = rng.choice(g.engine.legal_for(seat))
    r = c.post(f"/api/games/{g.game_id}/actions", json=body_of(action),
               headers=auth(g.tokens[seat]))
    if r.status_code == 200:
        g.engine.apply(action, seat)
    return r


def _people(c: Any, body: dict[str, Any]) -> Stored:
    created = c.post("/api/games", json=body).json()
    tokens = [created["token"]]
    for seat in range(1, len(body["seats"])):
        joined = c.post(f"/api/games/{created['game_id']}/join",
                        json={"invite": created["invite"], "seat": seat,
                              "name": body["seats"][seat]["name"]}).json()
        tokens.append(joined["token"])
    return Stored(created["game_id"], tokens)


def play_games(url: str, classic: bool = True) -> list[Stored]:
    """Games as the server stores them: Kings between people (one with a clock), classic
    between people, a finished computer game; each left as its seats and a spectator
    see it."""
    played = []
    with in_process_client(url) as c:
        for clock in (None, 600):
            g = _people(c, {"seats": [{"name": "Ann"}, {"name": "Bob"}], "seed": 11,
                            **({"clock_seconds": clock} if clock else {})})
            g.engine = Game.new(["Ann", "Bob"], RuleSet(), 11)
            for _ in range(3):
                assert _kings_move(c, g).status_code == 200
            played.append(g)
        if classic:
            g = _people(c, {"game": "classic", "seed": 5,
                            "seats": [{"name": "Cy"}, {"name": "Di"}, {"name": "Ed"}]})
            g.engine = ClassicGame(ClassicRules(players=3), 5, explicit_go=True)
            rng = random.Random(5)
            for _ in range(8):
                assert _classic_move(c, g, rng).status_code == 200
            played.append(g)
        body = {"seats": [{"kind": "computer", "level": "greedy"}] * 2, "seed": 3}
        done = Stored(c.post("/api/games", json=body).json()["game_id"], [])
        for _ in range(1200):
            r = c.get(f"/api/games/{done.game_id}/record")
            if r.status_code == 200:
                done.record = r.json()
                break
            time.sleep(0.05)
        assert done.record is not None
        played.append(done)
        for g in played:
            g.states = [c.get(f"/api/games/{g.game_id}", headers=auth(t)).json()
                        for t in [*g.tokens, ""]]
    return played


def copy_rows(source: str, target: str) -> int:
    """Every row of every table from ``source`` into ``target`` (only the columns the
    target has: an older schema lacks some). Returns the rows copied."""
    src, dst = create_engine(postgres_driver(source)), create_engine(postgres_driver(target))
    have = {name: {c["name"] for c in inspect(dst).get_columns(name)}
            for name in inspect(dst).get_table_names()}
    copied = 0
    with src.connect() as read, dst.begin() as write:
        for table in metadata.sorted_tables:
            if table.name not in have:
                continue
            rows = [{k: v for k, v in row._mapping.items() if k in have[table.name]}
                    for row in read.execute(select(table))]
            if rows:
                columns = [Column(c.name, c.type) for c in table.columns
                           if c.name in have[table.name]]
                write.execute(insert(Table(table.name, MetaData(), *columns)), rows)
                copied += len(rows)
    src.dispose()
    dst.dispose()
    return copied


def check_games_carried_over(url: str, played: list[Stored]) -> None:
    """Every game reads as it did, the finished one's record is the same, and each
    unfinished game takes its next move."""
    with in_process_client(url) as c:
        for g in played:
            after = [c.get(f"/api/games/{g.game_id}", headers=auth(t)).json()
                     for t in [*g.tokens, ""]]
            for a, b in zip(after, g.states):
                a.pop("clock", None), b.pop("clock", None)  # counted down to now
                assert a == b
            if g.record is not None:
                assert c.get(f"/api/games/{g.game_id}/record").json() == g.record
            elif isinstance(g.engine, Game):
                r = _kings_move(c, g)
                assert r.status_code == 200, r.text
                assert len(r.json()["history"]) == 4
            else:
                r = _classic_move(c, g, random.Random(1))
                assert r.status_code == 200, r.text
    engine = create_engine(postgres_driver(url))
    try:
        assert schema.current(engine) == schema.head()
    finally:
        engine.dispose()


def schema_differences(url: str) -> list[Any]:
    """What separates the database's schema from the tables the queries use."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    engine = create_engine(postgres_driver(url))
    try:
        with engine.connect() as conn:
            return compare_metadata(MigrationContext.configure(conn), metadata)
    finally:
        engine.dispose()


# ----- the tests ----------------------------------------------------------------------
def test_a_sqlite_database_from_before_migrations_keeps_every_game(tmp_path: Path) -> None:
    played = play_games(f"sqlite:///{tmp_path / 'played.sqlite3'}")
    old = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    run_ddl(old, BEFORE_MIGRATIONS)
    assert copy_rows(f"sqlite:///{tmp_path / 'played.sqlite3'}", old) > 40
    check_games_carried_over(old, played)
    assert schema_differences(old) == []


def test_a_postgresql_database_from_before_migrations_keeps_every_game(
        tmp_path: Path, postgres: Any) -> None:
    played = play_games(f"sqlite:///{tmp_path / 'played.sqlite3'}")
    old = fresh_postgres(postgres, "before_migrations")
    run_ddl(old, BEFORE_MIGRATIONS)
    assert copy_rows(f"sqlite:///{tmp_path / 'played.sqlite3'}", old) > 40
    check_games_carried_over(old, played)
    assert schema_differences(old) == []


def test_the_first_servers_database_gains_the_later_columns_and_tables(tmp_path: Path
                                                                      ) -> None:
    played = play_games(f"sqlite:///{tmp_path / 'played.sqlite3'}", classic=False)
    old = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    run_ddl(old, FIRST_SERVER)
    copy_rows(f"sqlite:///{tmp_path / 'played.sqlite3'}", old)
    for g in played:  # no clocks table then: a game stored before clocks has no clock
        for state in g.states:
            state["clock"] = None
    check_games_carried_over(old, played)
    assert schema_differences(old) == []


def test_a_new_database_is_made_by_the_migrations_and_matches_the_tables(
        tmp_path: Path, postgres: Any) -> None:
    for url in (f"sqlite:///{tmp_path / 'new.sqlite3'}", fresh_postgres(postgres, "new")):
        Store(url).close()
        assert schema_differences(url) == []
        engine = create_engine(postgres_driver(url))
        try:
            assert schema.current(engine) == schema.head()
        finally:
            engine.dispose()


def test_the_head_known_without_alembic_is_alembics_head() -> None:
    # The server checks a database against schema.HEAD without loading Alembic; a new
    # migration that forgot to move it would leave databases unmigrated.
    assert schema.head() == schema.migrations_head()


def test_an_up_to_date_server_start_does_not_load_alembic(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    Store(url).close()  # made and migrated
    code = ("import sys; from kingscrib.web.db.storage import Store; "
            f"Store({url!r}).close(); print('alembic' in sys.modules)")
    started = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True)
    assert started.stdout.strip() == "False"


def test_a_server_migrates_a_new_database_in_a_child_and_never_loads_alembic(
        tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    code = ("import sys; from kingscrib.web.db.premigrate import migrate_apart; "
            "from kingscrib.web.db.storage import Store; "
            f"done = migrate_apart({url!r}); Store({url!r}).close(); "
            "print(done, 'alembic' in sys.modules)")
    started = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True)
    assert started.stdout.split() == ["True", "False"]
    engine = create_engine(url)
    try:
        assert schema.current(engine) == schema.head()
    finally:
        engine.dispose()


def test_a_database_from_a_newer_kingscrib_is_refused_and_left_alone(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    Store(url).close()
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = 'f00d'"))
    with pytest.raises(schema.SchemaTooNew, match="'f00d'.*newer kingscrib"):
        Store(url)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).all() == [("f00d",)]
    engine.dispose()


def test_kingscrib_db_upgrade_and_current(tmp_path: Path) -> None:
    from kingscrib.cli.main import cli

    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    run_ddl(url, FIRST_SERVER)
    runner = CliRunner()
    before = runner.invoke(cli, ["db", "current", "--database-url", url])
    assert before.exit_code == 1 and "schema revision none" in before.output
    done = runner.invoke(cli, ["db", "upgrade", "--database-url", url])
    assert done.exit_code == 0, done.output
    assert f"upgraded from no revision to schema revision {schema.head()}" in done.output
    again = runner.invoke(cli, ["db", "upgrade", "--database-url", url])
    assert f"already at schema revision {schema.head()}" in again.output
    now = runner.invoke(cli, ["db", "current", "--database-url", url])
    assert now.exit_code == 0 and f"schema revision {schema.head()}" in now.output
    assert schema_differences(url) == []


def _start_store(url: str, ready: Any, go: Any, results: Any) -> None:
    """One process: everything imported, then a Store (the migrations) the moment every
    process is ready."""
    try:
        ready.wait()
        go.wait()
        Store(url).close()
        results.put("ok")
    except Exception as e:  # reported to the test
        results.put(f"{type(e).__name__}: {e}")


def test_processes_starting_at_once_on_an_empty_postgresql_database_all_come_up(
        postgres: Any) -> None:
    context = multiprocessing.get_context("fork")
    for attempt in range(3):
        url = fresh_postgres(postgres, f"together{attempt}")
        ready, go = context.Barrier(4), context.Event()
        results = context.Queue()
        workers = [context.Process(target=_start_store, args=(url, ready, go, results))
                   for _ in range(4)]
        for w in workers:
            w.start()
        time.sleep(0.5)
        go.set()
        said = [results.get(timeout=60) for _ in workers]
        for w in workers:
            w.join(10)
        assert said == ["ok"] * 4
        assert schema_differences(url) == []


def test_two_servers_started_together_on_an_empty_postgresql_both_serve(
        postgres: Any, tmp_path: Path) -> None:
    url = fresh_postgres(postgres, "two_servers")
    servers = [Server(url, data_dir=tmp_path) for _ in range(2)]
    try:
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(Server.start, servers))
        ids = []
        for s in servers:
            r = httpx.post(f"{s.url}/api/games", json={"seats": [{}, {}], "seed": 1})
            assert r.status_code == 201, r.text
            ids.append(r.json()["game_id"])
        for s in servers:  # each serves the game created through the other
            for gid in ids:
                assert httpx.get(f"{s.url}/api/games/{gid}").status_code == 200
    finally:
        for s in servers:
            s.stop()


def test_a_migration_that_fails_leaves_the_database_as_it_was(
        tmp_path: Path, postgres: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    real = command.upgrade

    def fails_at_the_end(cfg: Any, revision: str) -> None:
        real(cfg, revision)  # every revision run and the stamp written, then a failure
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(command, "upgrade", fails_at_the_end)
    for url in (f"sqlite:///{tmp_path / 'web.sqlite3'}", fresh_postgres(postgres, "fails")):
        run_ddl(url, FIRST_SERVER)
        with pytest.raises(RuntimeError, match="the disk is full"):
            Store(url)
        engine = create_engine(postgres_driver(url))
        try:
            assert sorted(inspect(engine).get_table_names()) == \
                ["games", "rematches", "seats", "turns"]
            assert len(inspect(engine).get_columns("games")) == 7
        finally:
            engine.dispose()


def stamp_at(url: str, revision: str) -> None:
    """A new database made by the migrations up to ``revision`` only (as that version
    of kingscrib left it)."""
    engine = create_engine(postgres_driver(url))
    try:
        with engine.begin() as conn:
            command.upgrade(schema.config(conn), revision)
    finally:
        engine.dispose()


def test_a_database_at_the_baseline_gains_the_account_tables_and_keeps_every_game(
        tmp_path: Path, postgres: Any) -> None:
    played = play_games(f"sqlite:///{tmp_path / 'played.sqlite3'}")
    for url in (f"sqlite:///{tmp_path / 'web.sqlite3'}", fresh_postgres(postgres, "at_0001")):
        stamp_at(url, "0001")
        engine = create_engine(postgres_driver(url))
        try:
            assert "accounts" not in inspect(engine).get_table_names()
            assert schema.current(engine) == "0001"
        finally:
            engine.dispose()
        assert copy_rows(f"sqlite:///{tmp_path / 'played.sqlite3'}", url) > 40
        check_games_carried_over(url, copy.deepcopy(played))  # (it plays a move on)
        assert schema_differences(url) == []
        with in_process_client(url) as c:  # and the new tables work on it
            r = c.post("/api/account/signup", json={"name": "Upgraded", "password": "a long secret"})
            assert r.status_code == 201, r.text


# ----- 0010: Cribbage stored as "cribbage" ------------------------------------------------
# The columns that hold a game id, as the server before 0010 wrote them.
GAME_COLUMNS = ("games", "seeks", "ratings", "rating_history", "game_outcomes", "tournaments")


def _to_revision(url: str, revision: str) -> None:
    """Alembic up or down to ``revision``, as an operator's ``alembic`` would."""
    engine = create_engine(postgres_driver(url))
    try:
        with engine.connect() as conn:
            now = schema.current(engine)
            move = command.downgrade if now and now > revision else command.upgrade
            move(schema.config(conn), revision)
            conn.commit()
    finally:
        engine.dispose()


def _game_values(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of each game-id column: its table's whole row, sorted."""
    engine = create_engine(postgres_driver(url))
    try:
        with engine.connect() as conn:
            return {name: sorted(tuple(map(str, row)) for row in
                                 conn.execute(select(metadata.tables[name])))
                    for name in GAME_COLUMNS}
    finally:
        engine.dispose()


def _stored_ids(url: str) -> set[str]:
    return {game for rows in _game_values(url).values() for row in rows for game in row
            if game in ("kings", "classic", "cribbage")}


def _old_server_rows(url: str, game_id: str, game: str) -> None:
    """What a server before 0010 stored around a Cribbage game ``game_id``: two
    accounts, their ratings and history, the outcomes, a seek and a tournament, each
    naming the game ``game``."""
    from kingscrib.web.accounts.names import login_key, look_key

    t = metadata.tables
    engine = create_engine(postgres_driver(url))
    try:
        with engine.begin() as conn:
            for i, name in ((901, "Ann"), (902, "Bob")):
                conn.execute(insert(t["accounts"]).values(
                    id=i, name=name, login_key=login_key(name), look_key=look_key(name),
                    password_hash="x", created=1.0))
            conn.execute(insert(t["ratings"]), [
                {"account_id": 901, "game": game, "rating": 1662.0, "deviation": 290.0,
                 "volatility": 0.06, "games": 1, "updated": 5.0},
                {"account_id": 902, "game": game, "rating": 1338.0, "deviation": 290.0,
                 "volatility": 0.06, "games": 1, "updated": 5.0}])
            conn.execute(insert(t["rating_history"]), [
                {"game_id": game_id, "account_id": a, "game": game, "previous": 1500.0,
                 "rating": r, "deviation": 290.0, "at": 5.0}
                for a, r in ((901, 1662.0), (902, 1338.0))])
            conn.execute(insert(t["game_outcomes"]), [
                {"game_id": game_id, "seat": s, "account_id": a, "game": game, "place": s,
                 "outcome": o, "score": 121 - 40 * s, "rated": True, "at": 5.0}
                for s, a, o in ((0, 901, "won"), (1, 902, "lost"))])
            conn.execute(insert(t["seeks"]).values(
                id="seek1", created=5.0, game=game, players=2, rules={}, hints=False,
                rated=False, quick=False))
            conn.execute(insert(t["tournaments"]).values(
                id=7, name="Old Swiss", game=game, format="swiss", rated=True, starts=9.0,
                max_players=8, mirrored=False, partners=False, rounds=2, no_show=60,
                team_best=4, creator_id=901, state="finished", created=1.0, finished=9.0))
    finally:
        engine.dispose()


def _check_cribbage_reads(url: str, game_id: str) -> None:
    """The rows above read as Cribbage through the server: the profile, the leaderboard
    (under either name), the archive, the tournaments and the seek."""
    from kingscrib.web.lobby.seeks import _start_of
    from kingscrib.web.tournaments import store as tournaments

    with in_process_client(url) as c:
        ann = c.get("/api/players/Ann").json()
        assert ann["games"]["cribbage"]["rating"] == 1662
        assert ann["games"]["cribbage"]["won"] == 1
        assert [h["game_id"] for h in ann["games"]["cribbage"]["history"]] == [game_id]
        assert [g["game"] for g in ann["recent"]] == ["cribbage"]
        for name in ("cribbage", "classic"):
            board = c.get(f"/api/ratings/{name}").json()
            assert board["game"] == "cribbage"
            assert [p["name"] for p in board["players"]] == ["Ann", "Bob"]
            found = c.get(f"/api/players/Bob/games?game={name}").json()
            assert [g["game_id"] for g in found["games"]] == [game_id]
        listed = c.get("/api/tournaments").json()
        assert [(t["name"], t["game"]) for t in listed["finished"]] == [("Old Swiss", "cribbage")]
        assert c.get(f"/api/games/{game_id}").json()["game"] == "cribbage"
    engine = create_engine(postgres_driver(url))
    try:
        assert tournaments.get(engine, 7)["game"] == "cribbage"
        with engine.connect() as conn:
            assert _start_of(conn, "seek1")["game"] == "cribbage"
    finally:
        engine.dispose()


def _cribbage_stored_as_classic_upgrades(url: str, tmp_path: Path) -> None:
    played = f"sqlite:///{tmp_path / 'played.sqlite3'}"
    games = play_games(played)
    cribbage = games[2].game_id  # three people's Cribbage, under way
    run_ddl(url, BEFORE_MIGRATIONS)
    copy_rows(played, url)
    _to_revision(url, "0009")  # the previous revision: the games as it stored them
    engine = create_engine(postgres_driver(url))
    with engine.begin() as conn:  # the server before 0010 called Cribbage "classic"
        conn.execute(text("UPDATE games SET game = 'classic' WHERE id = :id")
                     .bindparams(id=cribbage))
    engine.dispose()
    _old_server_rows(url, cribbage, "classic")
    before = _game_values(url)
    assert _stored_ids(url) == {"kings", "classic"}

    _to_revision(url, "0010")
    after = _game_values(url)
    assert _stored_ids(url) == {"kings", "cribbage"}
    assert {k: len(v) for k, v in after.items()} == {k: len(v) for k, v in before.items()}
    assert after == {name: sorted(tuple("cribbage" if v == "classic" else v for v in row)
                                  for row in rows) for name, rows in before.items()}
    _check_cribbage_reads(url, cribbage)
    with in_process_client(url) as c:  # the Cribbage game between people plays on
        state = c.get(f"/api/games/{cribbage}").json()
        assert state["game"] == "cribbage" and not state["over"]
        assert _classic_move(c, games[2], random.Random(1)).status_code == 200

    # An older server still running writes "classic" after the upgrade: still read.
    engine = create_engine(postgres_driver(url))
    with engine.begin() as conn:
        for table in GAME_COLUMNS:
            conn.execute(text(f"UPDATE {table} SET game = 'classic' WHERE game = 'cribbage'"))
    engine.dispose()
    _check_cribbage_reads(url, cribbage)

    # The downgrade writes "classic" back, every row kept.
    _to_revision(url, "0010")  # (at 0010 already: nothing to do)
    engine = create_engine(postgres_driver(url))
    with engine.begin() as conn:
        conn.execute(text("UPDATE ratings SET game = 'cribbage' WHERE account_id = 901"))
        conn.execute(insert(metadata.tables["ratings"]).values(  # Ann, rated again by an
            account_id=901, game="classic", rating=1700.0, deviation=250.0,  # old server
            volatility=0.06, games=2, updated=6.0))
    engine.dispose()
    with in_process_client(url) as c:  # her row under the id is the one read
        assert c.get("/api/players/Ann").json()["games"]["cribbage"]["rating"] == 1662
    _to_revision(url, "0009")
    down = _game_values(url)
    assert {k: len(v) for k, v in down.items()} == {
        k: len(v) + (k == "ratings") for k, v in before.items()}
    assert _stored_ids(url) == {"kings", "classic", "cribbage"}  # Ann's two rows, both kept
    assert sorted(r[1] for r in down["ratings"]) == ["classic", "classic", "cribbage"]


def test_a_sqlite_database_that_stored_cribbage_as_classic_upgrades_and_keeps_every_row(
        tmp_path: Path) -> None:
    _cribbage_stored_as_classic_upgrades(f"sqlite:///{tmp_path / 'web.sqlite3'}", tmp_path)


def test_a_postgresql_database_that_stored_cribbage_as_classic_upgrades_and_keeps_every_row(
        tmp_path: Path, postgres: Any) -> None:
    _cribbage_stored_as_classic_upgrades(fresh_postgres(postgres, "cribbage_id"), tmp_path)


def test_bans_made_before_0014_keep_their_names_reserved(tmp_path: Path) -> None:
    from kingscrib.web.accounts import moderation

    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    _to_revision(url, "0013")
    engine = create_engine(url)
    with engine.begin() as conn:  # Bob banned, and a banned account deleted since
        conn.execute(text(
            "INSERT INTO accounts (id, name, login_key, look_key, password_hash, created)"
            " VALUES (5, 'Bob', :login, :look, 'x', 1.0)").bindparams(
                login=login_key("Bob"), look=look_key("Bob")))
        for account_id, name in ((5, "Bob"), (6, "Zed")):
            conn.execute(text("INSERT INTO bans (account_id, login_key, by, reason, at)"
                              " VALUES (:id, :key, NULL, '', 2.0)").bindparams(
                                  id=account_id, key=login_key(name)))
    engine.dispose()
    _to_revision(url, "0014")
    engine = create_engine(url)
    try:
        assert moderation.name_banned(engine, "bob")
        assert moderation.name_banned(engine, "B0b")  # Bob's skeleton was known
        assert moderation.name_banned(engine, "ZED")  # the deleted one's login key
        assert not moderation.name_banned(engine, "Ann")
    finally:
        engine.dispose()
    _to_revision(url, "0013")
    assert "banned_names" not in inspect(create_engine(url)).get_table_names()


def test_a_running_tournament_plays_on_after_0015_drops_its_plain_tokens(tmp_path: Path
                                                                          ) -> None:
    from test_web_tournaments import as_, client_on, create, direct, join, look, seat_token, sign_up

    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    with client_on(url) as c:
        people = {n: sign_up(c, n) for n in ("Ann", "Bob")}
        tid = create(c, people["Ann"], format="round_robin")
        for s in people.values():
            join(c, tid, s)
        direct(c)
        game = look(c, tid, people["Ann"])["you"]["playing"][0]["game_id"]
        kept = seat_token(c, people["Ann"], game)  # in Ann's browser before the upgrade
    _to_revision(url, "0014")  # as the server before stored them: tokens in plain
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE tournament_games SET token_a = 'plain-a', token_b = 'plain-b'"))
    engine.dispose()
    _to_revision(url, "0015")
    columns = {c["name"] for c in inspect(create_engine(url)).get_columns("tournament_games")}
    assert not columns & {"token_a", "token_b", "token_a2", "token_b2"}
    with client_on(url) as c:
        as_(c, people["Ann"])
        assert c.get(f"/api/games/{game}", headers=auth(kept)).json()["you"] is not None
        token = seat_token(c, people["Bob"], game)  # Bob takes his seat by his session
        r = c.post(f"/api/games/{game}/resign", headers={**auth(token),
                                                         **as_(c, people["Bob"])})
        assert r.status_code == 200, r.text
        direct(c)
        assert look(c, tid)["rounds"][0]["games"][0]["points_a"] is not None
    _to_revision(url, "0014")  # the downgrade brings the columns back, empty
    with create_engine(url).connect() as conn:
        assert conn.execute(text("SELECT token_a FROM tournament_games")).scalars().all() \
            == [None]

