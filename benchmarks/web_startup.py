"""Start-up time of the web server against the number of stored games.

    python benchmarks/web_startup.py --games 0 1000 100000
    python benchmarks/web_startup.py --postgres postgresql://user@host/db --games 0 1000

First the start on a new, empty database (the schema made by the migrations), five
fresh databases; then for each count, a fresh database is filled with that many
unfinished games (two seats, three turns each, written straight into the tables) and
the app is started (its lifespan: the schema brought up to date, engine tables, hub;
on PostgreSQL also the listener and the first heartbeat) and stopped five times.
Prints the medians and the ratio to the empty database. Games are rebuilt when first
touched, so start-up should not grow with the database. ``--postgres``: a server where
the benchmark may create (and then drops) databases named kingscrib_startup_*.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path


def fill(url: str, count: int) -> None:
    from sqlalchemy import insert

    from kingscrib.common.shuffle import new_secret
    from kingscrib.kings.game import Game
    from kingscrib.kings.moves import Pass
    from kingscrib.kings.record import turn_to_json
    from kingscrib.web.db.storage import Store
    from kingscrib.web.db.tables import games, seats, turns

    store = Store(url)
    secret = new_secret()
    game = Game.new(["A", "B"], seed=secret)
    sample = [turn_to_json(game.play(Pass())) for _ in range(3)]
    now = time.time()
    with store.engine.begin() as conn:
        for start in range(0, count, 10_000):
            ids = [f"g{i:08d}" for i in range(start, min(count, start + 10_000))]
            conn.execute(insert(games), [
                {"id": i, "created": now, "updated": now, "rules": {}, "seed": 0,
                 "secret": secret, "invite_hash": "0" * 64, "over": False, "game": "kings"}
                for i in ids])
            conn.execute(insert(seats), [
                {"game_id": i, "seat": s, "name": "AB"[s], "kind": "human", "level": None,
                 "token_hash": None} for i in ids for s in (0, 1)])
            conn.execute(insert(turns), [
                {"game_id": i, "n": n, "data": t} for i in ids for n, t in enumerate(sample)])
    store.close()


def start_once(url: str) -> float:
    from fastapi.testclient import TestClient

    from kingscrib.web import Settings, create_app

    app = create_app(Settings(database_url=url))
    began = time.perf_counter()
    with TestClient(app) as client:
        elapsed = time.perf_counter() - began
        assert client.get("/api/health").status_code == 200
    return elapsed


@contextlib.contextmanager
def fresh_database(postgres: str | None, name: str) -> Iterator[str]:
    """The URL of a new, empty database (SQLite in a temporary folder, or a database
    created on the ``postgres`` server), removed afterwards."""
    if postgres is None:
        with tempfile.TemporaryDirectory() as folder:
            yield f"sqlite:///{Path(folder) / 'web.sqlite3'}"
        return
    from sqlalchemy import create_engine

    from kingscrib.web.db.storage import postgres_driver

    admin = create_engine(postgres_driver(postgres), isolation_level="AUTOCOMMIT")
    database = f"kingscrib_startup_{name}"
    with admin.connect() as conn:
        conn.exec_driver_sql(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
        conn.exec_driver_sql(f"CREATE DATABASE {database}")
    try:
        yield postgres.rsplit("/", 1)[0] + "/" + database
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
        admin.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[0, 1000, 100_000])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--postgres", default=None, metavar="URL",
                        help="measure on this PostgreSQL server instead of SQLite")
    args = parser.parse_args()
    with fresh_database(args.postgres, "warm") as url:
        start_once(url)  # warm: imports, the engine's tables
    firsts = []
    for i in range(args.repeat):
        with fresh_database(args.postgres, f"new{i}") as url:
            firsts.append(start_once(url))
    print(f"{'PostgreSQL' if args.postgres else 'SQLite'}: first start on a new database"
          f" (the migrations make the schema): median {statistics.median(firsts) * 1000:.1f} ms")
    base = None
    print(f"{'games':>8} {'fill s':>7} {'start-up median ms':>19} {'ratio':>6}")
    for count in args.games:
        with fresh_database(args.postgres, str(count)) as url:
            began = time.perf_counter()
            fill(url, count)
            filled = time.perf_counter() - began
            start_once(url)
            median = statistics.median(start_once(url) for _ in range(args.repeat))
        base = base or median
        print(f"{count:>8} {filled:>7.1f} {median * 1000:>19.1f} {median / base:>6.2f}")


if __name__ == "__main__":
    main()
