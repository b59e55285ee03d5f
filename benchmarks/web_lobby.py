"""The lobby under load: many connected browsers and open seeks over two server
processes on one PostgreSQL.

    python benchmarks/web_lobby.py --clients 2000 --seeks 300 --processes 2

Starts a throw-away PostgreSQL cluster and ``--processes`` ``kingscrib serve`` processes
(limits lifted: every client here has one address). ``--clients`` websockets connect to
``/api/lobby/live``, alternately to each process; ``--seeks`` of them post a seek each
(those stay open). Then:

- *new seek to every client*: ``--probes`` more seeks are posted one after another,
  each through one process; the time from sending the POST to the seek's arrival at
  every client (half of them held by the other process: LISTEN/NOTIFY) is one sample;
- *Play now pairing*: ``--pairs`` pairs of clients press Play now with the same wishes
  (Cribbage, a 5-minute clock, unlike the open seeks), the second through the other
  process; a sample is the time from the second press until both know their game (the
  second's answer, the first's ``started`` message), ``--at-once`` pairs at a time;
- the resident memory of the server processes (and of PostgreSQL's) at the end.

Prints medians, 99th percentiles and the targets (200 ms, 500 ms, 800 MB).
"""

from __future__ import annotations

import argparse
import asyncio
import json
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


class Client:
    """A browser in the lobby: its visitor secret, the server it talks to, and when each
    seek (and each started game) reached it."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.visitor = secrets.token_urlsafe(16)
        self.seen: dict[str, float] = {}
        self.started: dict[str, float] = {}
        self.ws = None

    async def open(self) -> None:
        self.ws = await connect(f"ws://127.0.0.1:{self.server.port}/api/lobby/live",
                                max_size=2**24, ping_interval=None)
        await self.ws.send(json.dumps({"type": "hello", "visitor": self.visitor}))
        first = json.loads(await self.ws.recv())
        assert first["type"] == "lobby", first

    async def read(self) -> None:
        # Only the id is read, by its place (the server writes "type" first, then the
        # seek's "id"): this one process reads every client's news, and parsing each
        # whole would measure this process rather than the servers.
        for_seek, for_start = '{"type":"seek","seek":{"id":"', '{"type":"started","id":"'
        async for raw in self.ws:
            now = time.perf_counter()
            for prefix, into in ((for_seek, self.seen), (for_start, self.started)):
                if raw.startswith(prefix):
                    into.setdefault(raw[len(prefix):raw.index('"', len(prefix))], now)

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


async def until(check, limit: float) -> bool:
    deadline = time.monotonic() + limit
    while not check():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.005)
    return True


async def run(servers: list[Server], args: argparse.Namespace) -> None:
    clients = [Client(servers[i % len(servers)]) for i in range(args.clients)]
    began = time.monotonic()
    for start in range(0, len(clients), 100):
        await asyncio.gather(*(c.open() for c in clients[start:start + 100]))
    readers = [asyncio.create_task(c.read()) for c in clients]
    print(f"{len(clients)} clients connected in {time.monotonic() - began:.1f} s")
    # A connection each request: a kept-alive one may be closed by a busy server just as
    # the next request goes out on it (a ReadError that says nothing of the lobby).
    limits = httpx.Limits(max_connections=50, max_keepalive_connections=0)
    async with httpx.AsyncClient(timeout=30, limits=limits) as http:
        for start in range(0, args.seeks, 50):
            await asyncio.gather(*(c.call(http, "/seeks", {"name": f"P{start + i}"})
                                   for i, c in enumerate(clients[start:start + 50])
                                   if start + i < args.seeks))
        await asyncio.sleep(1.0)
        print(f"{args.seeks} seeks open; online as the lobby says:",
              (await http.get(f"{servers[0].url}/api/lobby")).json()["online"])

        spread: list[float] = []
        for k in range(args.probes):
            poster = clients[args.seeks + k]
            sent = time.perf_counter()
            seek_id = (await poster.call(http, "/seeks", {"name": f"Probe{k}"}))["seek"]["id"]
            if not await until(lambda s=seek_id: all(s in c.seen for c in clients), 10):
                missing = sum(seek_id not in c.seen for c in clients)
                print(f"seek {k}: {missing} clients never heard of it")
            spread += [c.seen[seek_id] - sent for c in clients if seek_id in c.seen]
            await asyncio.sleep(0.05)
        report("new seek to every client", spread, 200)

        pairing: list[float] = []
        pool = clients[args.seeks + args.probes:]
        firsts = [c for c in pool if c.server is servers[0]]
        seconds = [c for c in pool if c.server is not servers[0]]  # the other process

        async def pair(first: Client, second: Client, slot: int) -> None:
            # Pairs played at once differ in their clock, so each pairs within itself.
            wish = {"game": "classic", "players": 2, "clock_seconds": 300 + slot}
            waiting = await first.call(http, "/play-now", {"name": "First", **wish})
            assert waiting["game_id"] is None, "paired with a seek already waiting"
            seek_id = waiting["seek"]["id"]
            sent = time.perf_counter()
            answer = await second.call(http, "/play-now", {"name": "Second", **wish})
            answered = time.perf_counter()
            assert answer["game_id"], answer
            await until(lambda s=seek_id: s in first.started, 10)
            pairing.append(max(answered, first.started.get(seek_id, float("inf"))) - sent)

        couples = list(zip(firsts, seconds))[:args.pairs]
        for start in range(0, len(couples), args.at_once):
            await asyncio.gather(*(pair(f, s, i) for i, (f, s)
                                   in enumerate(couples[start:start + args.at_once])))
        report("Play now pairing", pairing, 500)

    rss = [rss_kb(s.process.pid) for s in servers]
    total = sum(now for now, _ in rss) / 1024
    peak = sum(high for _, high in rss) / 1024
    print(f"memory of the {len(servers)} server processes: {total:.0f} MB now, peaks summed"
          f" {peak:.0f} MB (target < 800 MB: {'met' if peak < 800 else 'NOT met'})")
    for task in readers:
        task.cancel()
    await asyncio.gather(*(c.ws.close() for c in clients), return_exceptions=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=2000)
    parser.add_argument("--seeks", type=int, default=300)
    parser.add_argument("--probes", type=int, default=30)
    parser.add_argument("--pairs", type=int, default=100)
    parser.add_argument("--at-once", type=int, default=10)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--log", help="where the servers' output goes (kept)")
    args = parser.parse_args()
    assert args.clients >= args.seeks + args.probes + 2 * args.pairs, "too few clients"
    files = args.clients + 1000
    resource.setrlimit(resource.RLIMIT_NOFILE, (files, max(files, resource.getrlimit(
        resource.RLIMIT_NOFILE)[1])))
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
