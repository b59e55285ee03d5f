"""Start-up time of the web server against the number of stored games.

    python benchmarks/web_startup.py --games 0 1000 100000

For each count, a fresh SQLite database is filled with that many unfinished games
(two seats, three turns each, written straight into the tables), then the app is
started (its lifespan: schema check, engine tables, hub) and stopped five times;
prints the median start-up and the ratio to the empty database. Games are rebuilt
when first touched, so start-up should not grow with the database.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path


def fill(url: str, count: int) -> None:
    from sqlalchemy import insert

    from kingscrib.kings.game import Game
    from kingscrib.kings.moves import Pass
    from kingscrib.kings.record import turn_to_json
    from kingscrib.shuffle import new_secret
    from kingscrib.web.storage import Store, games, seats, turns

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[0, 1000, 100_000])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    base = None
    print(f"{'games':>8} {'fill s':>7} {'start-up median ms':>19} {'ratio':>6}")
    for count in args.games:
        with tempfile.TemporaryDirectory() as folder:
            url = f"sqlite:///{Path(folder) / 'web.sqlite3'}"
            began = time.perf_counter()
            fill(url, count)
            filled = time.perf_counter() - began
            start_once(url)  # warm: imports, the engine's tables
            median = statistics.median(start_once(url) for _ in range(args.repeat))
        base = base or median
        print(f"{count:>8} {filled:>7.1f} {median * 1000:>19.1f} {median / base:>6.2f}")


if __name__ == "__main__":
    main()
