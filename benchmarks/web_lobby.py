"""The lobby under load: many connected browsers and open seeks over two server
processes on one PostgreSQL.

    python benchmarks/web_lobby.py --clients 2000 --seeks 300 --processes 2

Starts a throw-away PostgreSQL cluster and ``--processes`` ``kingscrib serve`` processes
(limits lifted: every client here has one address). ``--clients`` websockets connect to
``/api/lobby/live``, alternately to each process, held by ``--client-processes``
benchmark processes (so that reading every client's news is not one process's work);
``--seeks`` of them post a seek each (those stay open). Then:

- *new seek to every client*: ``--probes`` more seeks are posted one after another,
  each through one process; the time from sending the POST to the seek's arrival at
  every client (half of them held by the other process: LISTEN/NOTIFY) is one sample.
  Each client process stamps an arrival with ``time.time()``, the clock all processes
  share;
- *Play now pairing*: ``--pairs`` pairs of clients press Play now with the same wishes
  (Cribbage, a 5-minute clock, unlike the open seeks), the second through the other
  process; a sample is the time from the second press until both know their game (the
  second's answer, the first's ``started`` message), ``--at-once`` pairs at a time;
- the resident memory of the server processes at the end, and the CPU time each
  server and client process spent in each of the two measurements.

Prints medians, 99th percentiles and the targets (200 ms, 500 ms, 800 MB).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import resource
import secrets
import statistics
import sys
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from web_load import ADDRESS_LIMITS, SOCKET_RATE_LIMITS, lifted, rss_kb  # noqa: E402
from web_support import Server, postgres_server  # noqa: E402

LIFTED = [*lifted(*ADDRESS_LIMITS, *SOCKET_RATE_LIMITS), "--connections-per-address", "100000"]
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


# ----- a client process: its share of the browsers, reading their news -----------------
class Browser:
    """A browser in the lobby: its visitor secret, and when (``time.time()``) each seek
    and each started game reached it."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.visitor = secrets.token_urlsafe(16)
        self.seen: dict[str, float] = {}
        self.started: dict[str, float] = {}
        self.ws = None

    async def open(self) -> None:
        self.ws = await connect(f"ws://127.0.0.1:{self.port}/api/lobby/live",
                                max_size=2**24, ping_interval=None)
        await self.ws.send(json.dumps({"type": "hello", "visitor": self.visitor}))
        first = json.loads(await self.ws.recv())
        first = first[0] if isinstance(first, list) else first  # several may come at once
        assert first["type"] == "lobby", first

    async def read(self) -> None:
        # Only the ids are read, by their place (the server writes "type" first, then the
        # seek's "id"; a frame holds one message or an array of several): parsing each
        # message whole would measure this process.
        for_seek, for_start = '{"type":"seek","seek":{"id":"', '{"type":"started","id":"'
        async for raw in self.ws:
            now = time.time()
            for prefix, into in ((for_seek, self.seen), (for_start, self.started)):
                at = raw.find(prefix)
                while at >= 0:
                    at += len(prefix)
                    into.setdefault(raw[at:raw.index('"', at)], now)
                    at = raw.find(prefix, at)


async def until(check, limit: float) -> bool:
    deadline = time.monotonic() + limit
    while not check():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.005)
    return True


async def client_process(ports: list[int]) -> None:
    """Holds one browser per port given (in that order), answers the coordinator's
    questions (a JSON line each on stdin, the answer a line on stdout, same ``n``)."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    browsers = [Browser(port) for port in ports]
    for start in range(0, len(browsers), 100):
        await asyncio.gather(*(b.open() for b in browsers[start:start + 100]))
    tasks = [asyncio.create_task(b.read()) for b in browsers]

    def say(answer: dict) -> None:
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()

    say({"n": 0, "visitors": [b.visitor for b in browsers]})

    async def answer(ask: dict) -> None:
        if ask["do"] == "seen":  # every browser here saw the seek: when
            await until(lambda: all(ask["id"] in b.seen for b in browsers), ask["limit"])
            say({"n": ask["n"], "at": [b.seen[ask["id"]] for b in browsers
                                       if ask["id"] in b.seen],
                 "missing": sum(ask["id"] not in b.seen for b in browsers)})
        elif ask["do"] == "started":  # one browser heard its game start: when
            b = browsers[ask["browser"]]
            await until(lambda: ask["id"] in b.started, ask["limit"])
            say({"n": ask["n"], "at": b.started.get(ask["id"])})

    asking = set()
    while line := await reader.readline():
        ask = json.loads(line)
        if ask["do"] == "quit":
            break
        task = asyncio.create_task(answer(ask))
        asking.add(task)
        task.add_done_callback(asking.discard)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*(b.ws.close() for b in browsers), return_exceptions=True)


# ----- the coordinator -------------------------------------------------------------------
class ClientProcess:
    """One client process as the coordinator sees it."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        self.numbers = itertools.count(1)
        self.waiting: dict[int, asyncio.Future] = {}

    async def start(self) -> list[str]:
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--serve-clients", ",".join(map(str, self.ports)),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            limit=2**24)
        first = json.loads(await self.process.stdout.readline())
        self.listening = asyncio.create_task(self._listen())
        return first["visitors"]

    async def _listen(self) -> None:
        while line := await self.process.stdout.readline():
            answer = json.loads(line)
            self.waiting.pop(answer["n"]).set_result(answer)

    async def ask(self, **question) -> dict:
        n = next(self.numbers)
        self.waiting[n] = asyncio.get_running_loop().create_future()
        self.process.stdin.write((json.dumps({"n": n, **question}) + "\n").encode())
        await self.process.stdin.drain()
        return await self.waiting[n]

    async def stop(self) -> None:
        self.process.stdin.write(b'{"do": "quit"}\n')
        await self.process.stdin.drain()
        await self.process.wait()
        self.listening.cancel()


class Seat:
    """A browser as the coordinator uses it: its server, visitor, and where it lives."""

    def __init__(self, server: Server, visitor: str, home: ClientProcess, place: int):
        self.server, self.visitor, self.home, self.place = server, visitor, home, place

    async def call(self, http: httpx.AsyncClient, path: str, body: dict) -> dict:
        r = await http.post(f"{self.server.url}/api/lobby{path}", json=body,
                            headers={"X-Lobby-Visitor": self.visitor})
        assert r.status_code in (200, 201), r.text
        return r.json()


def quantile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(name: str, samples: list[float], target: float) -> None:
    p50, p99 = statistics.median(samples) * 1000, quantile(samples, 0.99) * 1000
    print(f"{name}: {len(samples)} samples, median {p50:.1f} ms, p99 {p99:.1f} ms"
          f" (target p99 < {target:.0f} ms: {'met' if p99 < target else 'NOT met'})")


class CpuMeter:
    """CPU seconds of the server and client processes over one measurement."""

    def __init__(self, servers: list[Server], homes: list[ClientProcess]) -> None:
        self.pids = {f"server {i}": s.process.pid for i, s in enumerate(servers)}
        self.pids |= {f"clients {i}": h.process.pid for i, h in enumerate(homes)}

    def __enter__(self) -> CpuMeter:
        self.began = time.monotonic()
        self.before = {name: cpu_seconds(pid) for name, pid in self.pids.items()}
        return self

    def __exit__(self, *_: object) -> None:
        wall = time.monotonic() - self.began
        used = {name: cpu_seconds(pid) - self.before[name] for name, pid in self.pids.items()}
        print(f"  CPU over {wall:.1f} s (load average {os.getloadavg()[0]:.1f}): " + ", ".join(
            f"{name} {spent:.1f} s ({100 * spent / wall:.0f}%)" for name, spent in used.items()))


async def run(servers: list[Server], args: argparse.Namespace) -> None:
    began = time.monotonic()
    ports = [servers[i % len(servers)].port for i in range(args.clients)]
    homes = [ClientProcess(ports[k::args.client_processes])
             for k in range(args.client_processes)]
    visitors = await asyncio.gather(*(h.start() for h in homes))
    # The browsers in the order of ``ports``: the i-th is home i % n's (i // n)-th.
    seats = [Seat(servers[i % len(servers)], visitors[i % len(homes)][i // len(homes)],
                  homes[i % len(homes)], i // len(homes)) for i in range(args.clients)]
    print(f"{len(seats)} clients in {len(homes)} processes connected in"
          f" {time.monotonic() - began:.1f} s")
    # A connection each request: a kept-alive one may be closed by a busy server just as
    # the next request goes out on it (a ReadError that says nothing of the lobby).
    limits = httpx.Limits(max_connections=50, max_keepalive_connections=0)
    async with httpx.AsyncClient(timeout=30, limits=limits) as http:
        for start in range(0, args.seeks, 50):
            await asyncio.gather(*(c.call(http, "/seeks", {"name": f"P{start + i}"})
                                   for i, c in enumerate(seats[start:start + 50])
                                   if start + i < args.seeks))
        await asyncio.sleep(1.0)
        print(f"{args.seeks} seeks open; online as the lobby says:",
              (await http.get(f"{servers[0].url}/api/lobby")).json()["online"])

        spread: list[float] = []
        with CpuMeter(servers, homes):
            for k in range(args.probes):
                poster = seats[args.seeks + k]
                sent = time.time()
                seek_id = (await poster.call(http, "/seeks", {"name": f"Probe{k}"})
                           )["seek"]["id"]
                answers = await asyncio.gather(*(h.ask(do="seen", id=seek_id, limit=10)
                                                 for h in homes))
                if missing := sum(a["missing"] for a in answers):
                    print(f"seek {k}: {missing} clients never heard of it")
                spread += [at - sent for a in answers for at in a["at"]]
                await asyncio.sleep(0.05)
        report("new seek to every client", spread, 200)

        pairing: list[float] = []
        pool = seats[args.seeks + args.probes:]
        firsts = [c for c in pool if c.server is servers[0]]
        seconds = [c for c in pool if c.server is not servers[0]]  # the other process

        async def pair(first: Seat, second: Seat, slot: int) -> None:
            # Pairs played at once differ in their clock, so each pairs within itself.
            wish = {"game": "classic", "players": 2, "clock_seconds": 300 + slot}
            waiting = await first.call(http, "/play-now", {"name": "First", **wish})
            assert waiting["game_id"] is None, "paired with a seek already waiting"
            seek_id = waiting["seek"]["id"]
            sent = time.time()
            heard = asyncio.create_task(first.home.ask(do="started", browser=first.place,
                                                       id=seek_id, limit=10))
            answer = await second.call(http, "/play-now", {"name": "Second", **wish})
            answered = time.time()
            assert answer["game_id"], answer
            at = (await heard)["at"]
            pairing.append(max(answered, at if at is not None else float("inf")) - sent)

        couples = list(zip(firsts, seconds))[:args.pairs]
        with CpuMeter(servers, homes):
            for start in range(0, len(couples), args.at_once):
                await asyncio.gather(*(pair(f, s, i) for i, (f, s)
                                       in enumerate(couples[start:start + args.at_once])))
        report("Play now pairing", pairing, 500)

    rss = [rss_kb(s.process.pid) for s in servers]
    total = sum(now for now, _ in rss) / 1024
    peak = sum(high for _, high in rss) / 1024
    print(f"memory of the {len(servers)} server processes: {total:.0f} MB now, peaks summed"
          f" {peak:.0f} MB (target < 800 MB: {'met' if peak < 800 else 'NOT met'})")
    await asyncio.gather(*(h.stop() for h in homes))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=2000)
    parser.add_argument("--seeks", type=int, default=300)
    parser.add_argument("--probes", type=int, default=30)
    parser.add_argument("--pairs", type=int, default=100)
    parser.add_argument("--at-once", type=int, default=10)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--client-processes", type=int, default=4)
    parser.add_argument("--log", help="where the servers' output goes (kept)")
    parser.add_argument("--serve-clients", help=argparse.SUPPRESS)  # a client process
    args = parser.parse_args()
    files = args.clients + 1000
    resource.setrlimit(resource.RLIMIT_NOFILE, (files, max(files, resource.getrlimit(
        resource.RLIMIT_NOFILE)[1])))
    if args.serve_clients:
        asyncio.run(client_process([int(p) for p in args.serve_clients.split(",")]))
        return
    assert args.clients >= args.seeks + args.probes + 2 * args.pairs, "too few clients"
    with postgres_server(max_connections=200) as cluster:
        log = Path(args.log) if args.log else Path(cluster.folder) / "servers.log"
        servers = [Server(cluster.url, data_dir=Path(cluster.folder), extra_args=LIFTED,
                          open_files=files, log_file=log) for _ in range(args.processes)]
        try:
            for s in servers:
                s.start()
            asyncio.run(run(servers, args))
        finally:
            for s in servers:
                s.stop()


if __name__ == "__main__":
    main()
