"""Load over several server processes on one PostgreSQL, the two seats of each game
connected to different processes.

    python benchmarks/web_scaleout.py --games 2000 --think 10 --processes 2
    python benchmarks/web_scaleout.py --games 500 --think 10 --soak 1800   # memory soak

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
"""

from __future__ import annotations

import argparse
import asyncio
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
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from web_load import computer_game, cpu_seconds, rss_kb  # noqa: E402
from web_support import Server, postgres_cluster  # noqa: E402

LIFTED = []
for _limit in ("address_rate", "address_burst", "rate_per_second", "rate_burst",
               "games_per_hour", "sockets_per_address"):
    LIFTED += ["--limit", f"{_limit}=10000000"]


IDLE_WINDOW = 5.0  # seconds with every game set up and no move, to measure idle CPU


class Stats:
    def __init__(self) -> None:
        self.reply: list[float] = []
        self.seen: list[float] = []
        self.errors: list[str] = []


async def play(urls: list[str], index: int, seed: int, actions: list[dict], think: float,
               stats: Stats, gate: asyncio.Event, ready: list[int], until: list[float],
               setting_up: asyncio.Semaphore, soaking: bool) -> None:
    a, b = urls[index % len(urls)], urls[(index + 1) % len(urls)]
    first = True
    while True:
        async with setting_up:  # games are set up a few at a time, not 2,000 at once
            sockets, turn = await set_up(a, b, seed)
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
                mover, other = sockets[turn], sockets[1 - turn]
                sent = time.perf_counter()
                await mover.send(json.dumps({"type": "action", "ref": n, **action}))
                while True:
                    message = json.loads(await mover.recv())
                    if message.get("ref") == n:
                        break
                if message["type"] != "ok":
                    stats.errors.append(f"move {n}: {message}")
                    return
                stats.reply.append(time.perf_counter() - sent)
                version = message["version"]
                while True:  # the other process pushes the move to the other seat
                    message = json.loads(await other.recv())
                    body = message.get("update") or message.get("state") or {}
                    if body.get("version", -1) >= version:
                        break
                stats.seen.append(time.perf_counter() - sent)
                turn = 1 - turn
        finally:
            for ws in sockets.values():
                await ws.close()
        if time.monotonic() >= until[0]:
            return


HTTP: dict[str, httpx.AsyncClient] = {}  # one client (its kept-alive connections) a server


def http_for(url: str) -> httpx.AsyncClient:
    if url not in HTTP:
        HTTP[url] = httpx.AsyncClient(base_url=url, timeout=60,
                                      limits=httpx.Limits(max_connections=32))
    return HTTP[url]


async def set_up(a: str, b: str, seed: int) -> tuple[dict, int]:
    """A game created through ``a``, joined through ``b``, a socket per seat on each."""
    created = (await http_for(a).post("/api/games", json={
        "seats": [{"kind": "human"}, {"kind": "human"}], "seed": seed})).json()
    gid = created["game_id"]
    joined = (await http_for(b).post(f"/api/games/{gid}/join",
                                     json={"invite": created["invite"]})).json()
    tokens = {created["seat"]: (a, created["token"]), joined["seat"]: (b, joined["token"])}
    sockets = {}
    for seat, (url, token) in tokens.items():
        ws = await connect(url.replace("http", "ws") + f"/api/games/{gid}/ws",
                           max_size=2**22, compression=None)
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sockets[seat] = ws
    return sockets, created["state"]["turn"]


def memory(pids: list[int]) -> int:
    return sum(rss_kb(pid)[0] for pid in pids)


async def drive(urls: list[str], games: list, think: float, pids: list[int],
                soak: float, db_pids: Callable[[], list[int]]
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
    idle_cpu = sum(cpu_seconds(p) for p in pids)
    await asyncio.sleep(IDLE_WINDOW)
    idle_cpu = (sum(cpu_seconds(p) for p in pids) - idle_cpu) / IDLE_WINDOW
    # CPU is counted from here: setting games up (creating, joining, connecting) is not a move.
    cpu = (sum(cpu_seconds(p) for p in pids), sum(cpu_seconds(p) for p in db_pids()))
    client_cpu = time.process_time()
    started = time.perf_counter()
    until[0] = time.monotonic() + soak
    gate.set()
    peak, samples, last = 0, [], time.monotonic()
    running = asyncio.gather(*tasks)
    while not running.done():
        await asyncio.sleep(0.5)
        rss = memory(pids)
        peak = max(peak, rss)
        if soak and time.monotonic() - last >= 60:
            last = time.monotonic()
            samples.append((time.perf_counter() - started, rss))
            print(f"  {samples[-1][0] / 60:5.1f} min: {rss / 1024:.0f} MB, "
                  f"{len(stats.reply)} moves", flush=True)
    await running
    elapsed = time.perf_counter() - started
    cpu = (sum(cpu_seconds(p) for p in pids) - cpu[0],
           sum(cpu_seconds(p) for p in db_pids()) - cpu[1], idle_cpu,
           time.process_time() - client_cpu)
    return stats, elapsed, peak, samples, cpu


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
    args = parser.parse_args()
    print(f"Playing {args.distinct} greedy games to replay ...", flush=True)
    with ProcessPoolExecutor(1) as pool:
        played = list(pool.map(computer_game, [(1000 + i, "greedy", "kings")
                                              for i in range(args.distinct)]))
    if args.moves:
        played = [(seed, actions[:args.moves]) for seed, actions in played]
    games = [played[i % len(played)] for i in range(args.games)]
    with postgres_cluster(max_connections=200) as url:
        servers = [Server(url, data_dir=Path("/tmp"), extra_args=LIFTED).start()
                   for _ in range(args.processes)]
        try:
            pids = [s.process.pid for s in servers]
            idle = memory(pids)
            port = int(url.rsplit(":", 1)[1].split("/")[0])
            stats, elapsed, peak, samples, (cpu, db_cpu, idle_cpu, client_cpu) = asyncio.run(
                drive([s.url for s in servers], games, args.think, pids, args.soak,
                      lambda: postgres_pids(port)))
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
    for e in stats.errors[:5]:
        print("error:", e)


if __name__ == "__main__":
    main()
