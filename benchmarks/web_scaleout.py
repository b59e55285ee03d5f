"""Load over several server processes on one PostgreSQL, the two seats of each game
connected to different processes.

    python benchmarks/web_scaleout.py --games 2000 --think 10 --processes 2
    python benchmarks/web_scaleout.py --games 500 --think 10 --soak 1800   # memory soak
    python benchmarks/web_scaleout.py --games 200 --think 5 --soak 720 --faults 150

Starts a throw-away PostgreSQL cluster and ``--processes`` ``kingscrib serve``
processes (limits lifted: every client here has one address). Each game is created
through one process and its second seat joins through the next; seat 0's websocket
is on one process, seat 1's on the other. Games replay greedy games (played
beforehand, in a process pool), each seat pausing ``--think`` seconds before its
move (not measured); games start at random moments within the first pause.

Two latencies: a move's reply (sent, checked, stored, pushed; the mover's process)
and its arrival at the other seat's socket, held by another process (through
LISTEN/NOTIFY). Prints medians and 99th percentiles, and the resident memory of all
server processes together, sampled through the run (``--soak``: games restart when
they end, for that many seconds, and memory is printed each minute).

``--faults N`` (with ``--soak``) injects a fault every N seconds, in turn: the
listening connections ended (``pg_terminate_backend``), PostgreSQL stopped at once
and started again, one server process SIGKILLed and started again, the ``turns``
table locked for 3 s, every PostgreSQL process stopped (SIGSTOP) for 2 s. Clients
then try a move refused with 503 again, reconnect a websocket that was closed and
learn from the game whether a move left unanswered was stored. At the end every
game's stored turns are compared with the moves the clients know were stored
(none lost, none doubled), and for each fault the longest a move acknowledged
after it took to reach the other seat (its stale period) is printed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import httpx
import websockets
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from web_load import (  # noqa: E402
    ADDRESS_LIMITS,
    SOCKET_RATE_LIMITS,
    computer_game,
    cpu_seconds,
    lifted,
    rss_kb,
)
from web_support import PostgresCluster, Server, postgres_server  # noqa: E402

LIFTED = lifted(*ADDRESS_LIMITS, *SOCKET_RATE_LIMITS)


IDLE_WINDOW = 5.0  # seconds with every game set up and no move, to measure idle CPU


class Stats:
    def __init__(self) -> None:
        self.reply: list[float] = []
        self.seen: list[float] = []
        self.errors: list[str] = []
        # (when acknowledged (monotonic), seconds from sending it to its answer, seconds
        # from its answer until the other seat saw it)
        self.acked: list[tuple[float, float, float]] = []
        self.stored: dict[str, list[dict]] = {}  # each game's moves known to be stored
        self.refused = 0  # 503s tried again
        self.reconnects = 0
        self.unanswered_stored = 0  # moves whose answer was lost, found stored
        self.unseen = 0  # moves the other seat did not see within STALE_LIMIT


STALE_LIMIT = 60.0  # seconds the other seat may lag before its socket is synced again
LOST = (OSError, TimeoutError, ConnectionError, websockets.exceptions.WebSocketException)


def turns_in(body: dict) -> int:
    return body.get("history_from", 0) + len(body.get("history", []))


class Link:
    """A seat's websocket, opened again (on the same process, once it is back) whenever
    it is closed under it."""

    def __init__(self, url: str, gid: str, token: str, stats: Stats) -> None:
        self.url, self.gid, self.token, self.stats = url, gid, token, stats
        self.ws = None

    async def open(self) -> dict:
        """Connect and say hello; returns the game's state."""
        deadline = time.monotonic() + 120
        while True:
            try:
                ws = await connect(self.url.replace("http", "ws") + f"/api/games/{self.gid}/ws",
                                   max_size=2**22, compression=None, open_timeout=30)
                await ws.send(json.dumps({"type": "hello", "token": self.token}))
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                    if message["type"] == "state":
                        self.ws = ws
                        return message["state"]
                    if message["type"] == "error":
                        raise ConnectionError(message)
            except LOST:
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.5)

    async def reopen(self) -> dict:
        self.stats.reconnects += 1
        if self.ws is not None:
            with contextlib.suppress(*LOST):
                await self.ws.close()
        return await self.open()

    async def act(self, n: int, action: dict) -> tuple[int | None, str]:
        """Send move ``n`` until it is answered: (version, "ok"), (version, "stored")
        when its answer was lost but the game has it, (None, error) when refused."""
        while True:
            try:
                await self.ws.send(json.dumps({"type": "action", "ref": n, **action}))
                while True:
                    message = json.loads(await asyncio.wait_for(self.ws.recv(), 60))
                    if message.get("ref") == n:
                        break
                if message["type"] == "ok":
                    return message["version"], "ok"
                if message.get("status") == 503:  # the database is away: try again
                    self.stats.refused += 1
                    await asyncio.sleep(0.5)
                    continue
                return None, f"move {n}: {message}"
            except LOST:
                state = await self.reopen()
                if turns_in(state) > n:
                    return state["version"], "stored"

    async def until_version(self, version: int) -> bool:
        """Read until the game shows ``version``; False when it did not in STALE_LIMIT."""
        deadline = time.monotonic() + STALE_LIMIT
        while True:
            try:
                message = json.loads(await asyncio.wait_for(
                    self.ws.recv(), max(0.01, deadline - time.monotonic())))
            except TimeoutError:
                state = await self.reopen()  # give up waiting: a fresh state
                return state.get("version", -1) >= version
            except LOST:
                message = {"state": await self.reopen()}
            body = message.get("update") or message.get("state") or {}
            if body.get("version", -1) >= version:
                return True

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(*LOST):
                await self.ws.close()


async def play(urls: list[str], index: int, seed: int, actions: list[dict], think: float,
               stats: Stats, gate: asyncio.Event, ready: list[int], until: list[float],
               setting_up: asyncio.Semaphore, soaking: bool) -> None:
    a, b = urls[index % len(urls)], urls[(index + 1) % len(urls)]
    first = True
    while True:
        async with setting_up:  # games are set up a few at a time, not 2,000 at once
            gid, links, turn = await set_up(a, b, seed, stats)
        stored = stats.stored.setdefault(gid, [])
        if first:
            ready[0] += 1
            await gate.wait()
            if think:
                await asyncio.sleep(random.Random(index).uniform(0, think))
            first = False
        try:
            for n, action in enumerate(actions):
                if think:
                    await asyncio.sleep(think)
                if soaking and time.monotonic() >= until[0]:
                    break  # the soak's time is up: stop mid-game
                mover, other = links[turn], links[1 - turn]
                sent = time.perf_counter()
                version, outcome = await mover.act(n, action)
                if version is None:
                    stats.errors.append(outcome)
                    return
                stored.append(action)
                acked = time.perf_counter()
                if outcome == "ok":
                    stats.reply.append(acked - sent)
                else:
                    stats.unanswered_stored += 1
                if not await other.until_version(version):
                    stats.unseen += 1
                stats.seen.append(time.perf_counter() - sent)
                stats.acked.append((time.monotonic(), acked - sent, time.perf_counter() - acked))
                turn = 1 - turn
        finally:
            for link in links.values():
                await link.close()
        if time.monotonic() >= until[0]:
            return


HTTP: dict[str, httpx.AsyncClient] = {}  # one client (its kept-alive connections) a server


def http_for(url: str) -> httpx.AsyncClient:
    if url not in HTTP:
        HTTP[url] = httpx.AsyncClient(base_url=url, timeout=60,
                                      limits=httpx.Limits(max_connections=32))
    return HTTP[url]


async def set_up(a: str, b: str, seed: int, stats: Stats) -> tuple[str, dict, int]:
    """A game created through ``a``, joined through ``b``, a socket per seat on each
    (a step refused while a fault lasts is tried again)."""
    deadline = time.monotonic() + 120
    while True:
        try:
            created = (await http_for(a).post("/api/games", json={
                "seats": [{"kind": "human"}, {"kind": "human"}], "seed": seed}))
            created.raise_for_status()
            created = created.json()
            gid = created["game_id"]
            joined = await http_for(b).post(f"/api/games/{gid}/join",
                                            json={"invite": created["invite"]})
            joined.raise_for_status()
            joined = joined.json()
            break
        except (httpx.HTTPError, *LOST):
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.5)
    tokens = {created["seat"]: (a, created["token"]), joined["seat"]: (b, joined["token"])}
    links = {}
    for seat, (url, token) in tokens.items():
        links[seat] = Link(url, gid, token, stats)
        await links[seat].open()
    return gid, links, created["state"]["turn"]


def memory(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        # a process killed by --faults (gone, or a zombie without memory)
        with contextlib.suppress(OSError, KeyError, ValueError, IndexError):
            total += rss_kb(pid)[0]
    return total


def cpu_of(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError, ValueError, IndexError):
            total += cpu_seconds(pid)
    return total


async def drive(urls: list[str], games: list, think: float, pids: Callable[[], list[int]],
                soak: float, db_pids: Callable[[], list[int]],
                faults: Faults | None = None
                ) -> tuple[Stats, float, int, list[tuple[float, int]],
                           tuple[float, float, float, float]]:
    stats, gate, ready = Stats(), asyncio.Event(), [0]
    until = [float("inf")]  # set when play starts
    setting_up = asyncio.Semaphore(64)
    tasks = [asyncio.create_task(play(urls, i, seed, actions, think, stats, gate, ready,
                                      until, setting_up, soak > 0))
             for i, (seed, actions) in enumerate(games)]
    setup_start, shown = time.perf_counter(), time.perf_counter()
    while ready[0] < len(tasks):
        await asyncio.sleep(0.2)
        for t in tasks:
            if t.done() and t.exception():
                raise t.exception()
        if time.perf_counter() - shown >= 30:
            shown = time.perf_counter()
            print(f"  {ready[0]} of {len(tasks)} games set up", flush=True)
    print(f"{len(tasks)} games set up (created, joined, two sockets each) in"
          f" {time.perf_counter() - setup_start:.0f} s; playing ...", flush=True)
    # What the servers spend with every socket open and nobody moving (pings, timers).
    idle_cpu = cpu_of(pids())
    await asyncio.sleep(IDLE_WINDOW)
    idle_cpu = (cpu_of(pids()) - idle_cpu) / IDLE_WINDOW
    # CPU is counted from here: setting games up (creating, joining, connecting) is not a move.
    cpu = (cpu_of(pids()), cpu_of(db_pids()))
    client_cpu = time.process_time()
    started = time.perf_counter()
    until[0] = time.monotonic() + soak
    gate.set()
    peak, samples, last = 0, [], time.monotonic()
    running = asyncio.gather(*tasks)
    injecting = asyncio.create_task(faults.inject(until[0])) if faults else None
    while not running.done():
        await asyncio.sleep(0.5)
        rss = memory(pids())
        peak = max(peak, rss)
        if soak and time.monotonic() - last >= 60:
            last = time.monotonic()
            samples.append((time.perf_counter() - started, rss))
            print(f"  {samples[-1][0] / 60:5.1f} min: {rss / 1024:.0f} MB, "
                  f"{len(stats.reply)} moves", flush=True)
    await running
    if injecting is not None:
        await injecting
    elapsed = time.perf_counter() - started
    cpu = (cpu_of(pids()) - cpu[0], cpu_of(db_pids()) - cpu[1], idle_cpu,
           time.process_time() - client_cpu)
    return stats, elapsed, peak, samples, cpu


class Faults:
    """Every ``every`` seconds the next fault, in turn (see the module's docstring); each
    is done in a thread, the clients playing on meanwhile."""

    KINDS = ("listener", "restart", "kill", "lock", "stop")

    def __init__(self, pg: PostgresCluster, servers: list[Server], every: float) -> None:
        self.pg, self.servers, self.every = pg, servers, every
        self.done: list[tuple[float, str]] = []  # (when it began (monotonic), which)
        self.killed = 0

    async def inject(self, until: float) -> None:
        n = 0
        while time.monotonic() + self.every < until - 30:  # the last one has time to heal
            await asyncio.sleep(self.every)
            kind = self.KINDS[n % len(self.KINDS)]
            n += 1
            self.done.append((time.monotonic(), kind))
            print(f"  fault: {kind}", flush=True)
            await asyncio.to_thread(getattr(self, kind))

    def listener(self) -> None:
        import psycopg

        from kingscrib.web.db.storage import LISTENER_NAME

        with psycopg.connect(self.pg.url, autocommit=True) as conn:
            conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                         " WHERE application_name = %s", [LISTENER_NAME])

    def restart(self) -> None:
        self.pg.crash()
        time.sleep(2)
        self.pg.boot()

    def kill(self) -> None:
        server = self.servers[self.killed % len(self.servers)]
        self.killed += 1
        server.process.kill()
        server.process.wait()
        time.sleep(1)
        server.start()

    def lock(self) -> None:
        import psycopg

        with psycopg.connect(self.pg.url) as conn:
            conn.execute("LOCK TABLE turns IN ACCESS EXCLUSIVE MODE")
            conn.execute("SELECT pg_sleep(3)")

    def stop(self) -> None:
        with self.pg.stalled():
            time.sleep(2)


def check_stored(url: str, stats: Stats) -> tuple[int, int, int]:
    """Every game's stored turns against the moves its clients know were stored:
    (moves lost, moves doubled, turns that differ)."""
    import psycopg

    lost = doubled = differ = 0
    with psycopg.connect(url, autocommit=True) as conn:
        for gid, known in stats.stored.items():
            rows = [r[0] for r in conn.execute(
                "SELECT data FROM turns WHERE game_id = %s ORDER BY n", [gid])]
            lost += max(0, len(known) - len(rows))
            doubled += max(0, len(rows) - len(known))
            for action, turn in zip(known, rows):
                if turn["action"] != action["action"] or (
                        action["action"] == "play" and turn["tiles"] != action["tiles"]) or (
                        action["action"] == "exchange"
                        and sorted(turn["returned"]) != sorted(action["tiles"])):
                    differ += 1
    return lost, doubled, differ


def stale_after_faults(stats: Stats, faults: Faults
                       ) -> list[tuple[str, int, float, float]]:
    """For each fault: which, the moves acknowledged until the next fault, the longest
    any of them waited for its answer and the longest one took from its answer to
    reach the other seat (the other seat's stale period)."""
    found = []
    times = [t for t, _ in faults.done] + [float("inf")]
    for (began, kind), end in zip(faults.done, times[1:]):
        window = [(answer, lag) for at, answer, lag in stats.acked if began <= at < end]
        found.append((kind, len(window), max((a for a, _ in window), default=0.0),
                      max((lag for _, lag in window), default=0.0)))
    return found


def postgres_pids(port: int) -> list[int]:
    """The PostgreSQL server listening on ``port`` and its backends."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().split(b"\0")
        except (OSError, ValueError, IndexError):
            continue
        if cmdline and cmdline[0].endswith(b"postgres") and f"-p {port}".encode() in b" ".join(cmdline):
            found.append(int(proc.name))
            found += [int(c.name) for c in Path("/proc").iterdir() if c.name.isdigit()
                      and _parent(c) == int(proc.name)]
    return found


def _parent(proc: Path) -> int:
    try:
        return int((proc / "stat").read_text().rpartition(")")[2].split()[1])
    except (OSError, ValueError, IndexError):
        return -1


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--think", type=float, default=10.0)
    parser.add_argument("--distinct", type=int, default=16)
    parser.add_argument("--moves", type=int, default=0,
                        help="moves a game at most (0: whole games)")
    parser.add_argument("--soak", type=float, default=0.0,
                        help="seconds to keep games going (restarting them when they end)")
    parser.add_argument("--faults", type=float, default=0.0,
                        help="with --soak: seconds between two injected faults (0: none)")
    args = parser.parse_args()
    print(f"Playing {args.distinct} greedy games to replay ...", flush=True)
    with ProcessPoolExecutor(1) as pool:
        played = list(pool.map(computer_game, [(1000 + i, "greedy", "kings")
                                              for i in range(args.distinct)]))
    if args.moves:
        played = [(seed, actions[:args.moves]) for seed, actions in played]
    games = [played[i % len(played)] for i in range(args.games)]
    if args.faults and not args.soak:
        parser.error("--faults needs --soak")
    with postgres_server(max_connections=200) as pg:
        servers = [Server(pg.url, data_dir=Path("/tmp"), extra_args=LIFTED,
                          log_file=pg.folder / f"serve-{i}.log").start()
                   for i in range(args.processes)]
        faults = Faults(pg, servers, args.faults) if args.faults else None
        try:
            def pids() -> list[int]:
                return [s.process.pid for s in servers]

            idle = memory(pids())
            stats, elapsed, peak, samples, (cpu, db_cpu, idle_cpu, client_cpu) = asyncio.run(
                drive([s.url for s in servers], games, args.think, pids, args.soak,
                      lambda: postgres_pids(pg.port), faults))
            lost, doubled, differ = check_stored(pg.url, stats)
        finally:
            for s in servers:
                s.stop()
    moves = max(1, len(stats.reply))
    print(f"{args.games} games over {args.processes} processes on PostgreSQL, think"
          f" {args.think} s: {len(stats.reply)} moves in {elapsed:.0f} s"
          f" ({len(stats.reply) / elapsed:.0f} moves/s), {len(stats.errors)} errors")
    print(f"reply (mover's process): median {statistics.median(stats.reply) * 1000:.1f} ms,"
          f" p99 {pct(stats.reply, 0.99):.1f} ms")
    print(f"seen by the other seat (other process): median"
          f" {statistics.median(stats.seen) * 1000:.1f} ms, p99 {pct(stats.seen, 0.99):.1f} ms")
    asked = args.games / args.think if args.think else float("nan")
    print(f"moves/s asked {asked:.0f}, done {len(stats.reply) / elapsed:.0f};"
          f" load average at the end {os.getloadavg()[0]:.2f}")
    print(f"server memory, all processes: idle {idle / 1024:.0f} MB, peak {peak / 1024:.0f} MB")
    print(f"CPU a move (while games play): server processes {cpu / moves * 1000:.2f} ms,"
          f" PostgreSQL {db_cpu / moves * 1000:.2f} ms ({cpu:.0f} s and {db_cpu:.0f} s);"
          f" servers idle with every socket open: {idle_cpu * 1000:.0f} ms a second, so"
          f" {(cpu - idle_cpu * elapsed) / moves * 1000:.2f} ms a move over idle;"
          f" the client (one process, both seats of every game) {client_cpu:.0f} s")
    if samples:
        first, last = samples[0][1], samples[-1][1]
        print(f"soak: {first / 1024:.0f} MB after the first minute, {last / 1024:.0f} MB at"
              f" the end ({(last - first) / 1024:+.0f} MB)")
    stored = sum(len(k) for k in stats.stored.values())
    print(f"moves stored {stored} in {len(stats.stored)} games: {lost} lost, {doubled}"
          f" doubled, {differ} differing from the move sent; {stats.unanswered_stored}"
          f" stored with their answer lost, {stats.refused} refused with 503 and tried"
          f" again, {stats.reconnects} websockets opened again, {stats.unseen} not seen"
          f" by the other seat within {STALE_LIMIT:.0f} s")
    if faults is not None:
        for kind, count, answer, stale in stale_after_faults(stats, faults):
            print(f"fault {kind:8}: {count} moves acknowledged until the next fault;"
                  f" the longest wait for an answer {answer:.2f} s, the longest stale"
                  f" period (answered, not yet seen by the other seat) {stale:.2f} s")
    for e in stats.errors[:5]:
        print("error:", e)


if __name__ == "__main__":
    main()
