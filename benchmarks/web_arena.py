"""An arena tournament of many accounts over two server processes on one PostgreSQL:
how soon players are paired again after their game ends, and what a pairing costs.

    python benchmarks/web_arena.py --players 200 --seconds 60 --rate 5

Starts a throw-away PostgreSQL cluster and two ``kingscrib serve`` processes (their
tournament directors both running, every pass and on every game's end). Makes
``--players`` accounts (straight in the store: sign-ups hash passwords slowly on
purpose), one of them creates an arena, all join through the two processes in turn,
and the arena starts: every player is paired at once. Then for ``--seconds`` games end
at ``--rate`` a second (the first seat resigns, through either process in turn), and
for each of the two players the time from the resignation being sent to their next
game existing (its ``created`` time in the store) is the pairing latency. Prints its
median and 99th percentile, the pairings made, and the server processes' CPU time per
pairing (both processes' user + system time over the window, which includes serving the
resignations, recording the results and making the games, over the pairings made), and
their CPU time per second when no game ends (the directors' passes alone).
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from web_load import cpu_seconds  # noqa: E402
from web_support import Server, postgres_server  # noqa: E402

LIFTED = []
for _limit in ("address_rate", "address_burst", "rate_per_second", "rate_burst",
               "games_per_hour", "sockets_per_address"):
    LIFTED += ["--limit", f"{_limit}=10000000"]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def make_accounts(url: str, count: int) -> list[tuple[int, str]]:
    """(account id, session token) of ``count`` new accounts."""
    from kingscrib.web.accounts import sessions
    from kingscrib.web.accounts import store as accounts
    from kingscrib.web.db.storage import Store

    store = Store(url)
    hashed = accounts.hash_password("arena benchmark password")
    made = []
    for i in range(count):
        account = accounts.create(store.engine, f"Arena{i:03d}", hashed)
        made.append((account.id, sessions.start(store.engine, account.id)))
    store.close()
    return made


def headers(url: str, session: str) -> dict[str, str]:
    from kingscrib.web.accounts import sessions

    return {"Cookie": f"{sessions.COOKIE}={session}", "Origin": url,
            sessions.CSRF_HEADER: sessions.csrf_token(session)}


def run(players: int, seconds: float, rate: float, game: str) -> None:
    from sqlalchemy import create_engine, select, update

    from kingscrib.web.db.storage import postgres_driver
    from kingscrib.web.db.tables import games
    from kingscrib.web.tournaments.store import tournament_entrants, tournament_games, tournaments

    folder = Path("/tmp") / f"kingscrib-arena-{time.time_ns()}"
    folder.mkdir()
    with postgres_server(max_connections=100) as cluster:
        servers = [Server(cluster.url, data_dir=folder, extra_args=LIFTED,
                          log_file=folder / f"server{i}.log") for i in range(2)]
        try:
            for s in servers:
                s.start()
            urls = [s.url for s in servers]
            people = make_accounts(cluster.url, players)
            session_of = dict(people)
            r = httpx.post(f"{urls[0]}/api/tournaments", headers=headers(urls[0], people[0][1]),
                           json={"name": "Benchmark arena", "game": game, "format": "arena",
                                 "minutes": 600, "starts_in": 3600, "max_players": players,
                                 "no_show": 3600})
            r.raise_for_status()
            tid = r.json()["id"]
            with httpx.Client(timeout=60) as http:
                for i, (_, session) in enumerate(people):
                    url = urls[i % 2]
                    http.post(f"{url}/api/tournaments/{tid}/join",
                              headers=headers(url, session)).raise_for_status()
            engine = create_engine(postgres_driver(cluster.url))
            with engine.begin() as conn:  # start now
                conn.execute(update(tournaments).where(tournaments.c.id == tid)
                             .values(starts=time.time()))
                account_of = {r.number: r.account_id for r in conn.execute(
                    select(tournament_entrants).where(tournament_entrants.c.tournament_id == tid))}

            def rows() -> list:
                with engine.connect() as conn:
                    return conn.execute(select(tournament_games, games.c.created).outerjoin(
                        games, games.c.id == tournament_games.c.game_id).where(
                        tournament_games.c.tournament_id == tid)).all()

            deadline = time.monotonic() + 120
            while sum(r.game_id is not None for r in rows()) < players // 2:
                if time.monotonic() > deadline:
                    raise RuntimeError("the arena's first pairings were not made")
                time.sleep(0.2)
            print(f"{players} players paired at once: {players // 2} games")

            # Idle: no game ends; the directors' passes alone.
            pids = [s.process.pid for s in servers]
            before = sum(cpu_seconds(p) for p in pids)
            time.sleep(5.0)
            idle = (sum(cpu_seconds(p) for p in pids) - before) / 5.0

            ended: list[tuple[float, int, int, int]] = []  # (sent, pairing id, a, b)
            rng = random.Random(1)
            made_before = len(rows())
            before = sum(cpu_seconds(p) for p in pids)
            start = time.monotonic()
            n = 0
            with httpx.Client(timeout=60) as http:
                while time.monotonic() - start < seconds:
                    playing = [r for r in rows() if r.game_id is not None and r.points_a is None
                               and r.id not in {e[1] for e in ended}]
                    if playing:
                        row = rng.choice(playing)
                        url = urls[n % 2]
                        n += 1
                        session = session_of[account_of[row.a]]
                        sent = time.time()
                        resp = http.post(f"{url}/api/games/{row.game_id}/resign",
                                         headers={**headers(url, session),
                                                  "Authorization": f"Bearer {row.token_a}"})
                        if resp.status_code == 200:
                            ended.append((sent, row.id, row.a, row.b))
                    time.sleep(max(0.0, start + n / rate - time.monotonic()))
            time.sleep(3.0)  # the last ones are paired
            cpu = sum(cpu_seconds(p) for p in pids) - before
            final = rows()
            made = len(final) - made_before
            latencies = []
            for sent, pairing, a, b in ended:
                for who in (a, b):
                    later = [r.created for r in final if r.id > pairing
                             and who in (r.a, r.b) and r.created is not None]
                    if later:
                        latencies.append(min(later) - sent)
            missing = 2 * len(ended) - len(latencies)
            print(f"games ended: {len(ended)} in {seconds:.0f} s; new pairings: {made};"
                  f" players not paired again: {missing}")
            print(f"pairing latency after a game ends: median {statistics.median(latencies)*1000:.0f} ms,"
                  f" p99 {percentile(latencies, 99)*1000:.0f} ms, max {max(latencies)*1000:.0f} ms")
            print(f"server CPU per pairing (both processes, all their work): {cpu / max(made, 1) * 1000:.1f} ms;"
                  f" idle: {idle * 1000:.0f} ms of CPU a second")
        finally:
            for s in servers:
                s.stop()
            shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--rate", type=float, default=5.0, help="games ended a second")
    parser.add_argument("--game", default="classic")
    args = parser.parse_args()
    run(args.players, args.seconds, args.rate, args.game)


if __name__ == "__main__":
    main()
