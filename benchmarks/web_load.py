"""Load benchmark of the web server on loopback: many concurrent games over websockets.

    python benchmarks/web_load.py --games 200
    python benchmarks/web_load.py --games 200 --game classic    # classic Cribbage
    python benchmarks/web_load.py --games 200 --clock 1800      # every game with a clock

Computer players (greedy by default) play a few distinct games beforehand, in a
process pool; then ``--games`` games run at once against a real ``kingscrib
serve`` (SQLite in a temporary folder), each seat a websocket client sending
its computer's moves, so the computer's thinking time is left out. A move's
latency is from sending it to the server's reply: checked by the engine,
stored in the database and pushed to both seats. ``--think`` adds a pause
before each move (the thinking time of a real opponent); games then start at
random moments within the first ``--think`` seconds, so their moves are not in
lockstep. Prints the median and 99th percentile latency, the server's memory
(resident set, peak) and the CPU time the server and this client used.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from web_support import Server  # noqa: E402

# The per-address limits a benchmark lifts: every client it runs shares one address.
ADDRESS_LIMITS = ("address_rate", "address_burst", "games_per_hour", "sockets_per_address")
SOCKET_RATE_LIMITS = ("rate_per_second", "rate_burst")  # each websocket's message rate


def lifted(*limits: str) -> list[str]:
    """``kingscrib serve`` arguments that lift the named limits out of a benchmark's way."""
    return [arg for name in limits for arg in ("--limit", f"{name}=10000000")]


def computer_game(args: tuple[int, str, str]) -> tuple[int, list[dict]]:
    """Play one game between two computer players; returns its seed and its actions
    (a classic action names its seat: discards are made by both seats)."""
    seed, level, kind = args
    if kind == "classic":
        return seed, classic_game(seed, level)
    from kingscrib.players.kings import make_player
    from kingscrib.players.kings.driver import play_game

    game = play_game([make_player(level, seed), make_player(level, seed + 1)], seed=seed)
    actions = []
    for turn in game.history:
        if turn.action == "play":
            from kingscrib.kings.board import square_name

            actions.append({"action": "play",
                            "tiles": {square_name(s): str(t) for s, t in turn.tiles.items()}})
        elif turn.action == "exchange":
            actions.append({"action": "exchange", "tiles": [str(t) for t in turn.returned]})
        else:
            actions.append({"action": "pass"})
    return seed, actions


def classic_game(seed: int, level: str) -> list[dict]:
    from kingscrib.web.play.games.cribbage import CRIBBAGE

    session = CRIBBAGE.create({"players": 2, "skunk": False, "muggins": False}, seed,
                             ["A", "B"])
    players = [CRIBBAGE.make_player(level, seed + i) for i in range(2)]
    actions = []
    while not session.over:
        seat = session.waiting()[0]
        action = session.computer_action(seat, players[seat], session.computer_input(seat))
        session.apply(seat, action)
        actions.append({**action, "seat": seat})
    return actions


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (seconds)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kb(pid: int) -> tuple[int, int]:
    """(current, peak) resident memory of a process in kB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


async def run_game(url: str, seed: int, actions: list[dict], think: float,
                   latencies: list[float], start_gate: asyncio.Event,
                   ready: list[int], kind: str = "kings", clock: int | None = None) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        created = (await http.post("/api/games", json={
            "game": kind, "seats": [{"kind": "human"}, {"kind": "human"}],
            "seed": seed, **({"clock_seconds": clock} if clock else {})})).json()
        gid = created["game_id"]
        joined = (await http.post(f"/api/games/{gid}/join",
                                  json={"invite": created["invite"]})).json()
    tokens = {created["seat"]: created["token"], joined["seat"]: joined["token"]}
    ws_url = url.replace("http", "ws") + f"/api/games/{gid}/ws"
    sockets = {}
    for seat, token in tokens.items():
        ws = await connect(ws_url, max_size=2**22, compression=None)
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sockets[seat] = ws
    turn = created["state"]["turn"]
    ready[0] += 1
    order = ready[0]
    await start_gate.wait()
    if think:  # games start out of step, as real ones do: not all first moves at once
        await asyncio.sleep(random.Random(order).uniform(0, think))
    try:
        for n, action in enumerate(actions):
            if think:
                await asyncio.sleep(think)
            seat = action.get("seat", turn)
            body = {k: v for k, v in action.items() if k != "seat"}
            ws = sockets[seat]
            sent = time.perf_counter()
            await ws.send(json.dumps({"type": "action", "ref": n, **body}))
            while True:
                text = await ws.recv()
                if text.startswith(('{"type":"update"', '{"type":"state"')):
                    continue  # the other seat's pushes: not parsed, to keep the client cheap
                message = json.loads(text)
                if message.get("ref") == n:
                    break
            if message["type"] != "ok":
                raise RuntimeError(f"game {gid} move {n}: {message}")
            latencies.append(time.perf_counter() - sent)
            if turn is not None:
                turn = (turn + 1) % 2
    finally:
        for ws in sockets.values():
            await ws.close()


async def drive(url: str, games: list[tuple[int, list[dict]]], think: float,
                pid: int, kind: str = "kings", clock: int | None = None
                ) -> tuple[list[float], float, int]:
    latencies: list[float] = []
    gate = asyncio.Event()
    ready = [0]

    async def one(seed: int, actions: list[dict]) -> None:
        await run_game(url, seed, actions, think, latencies, gate, ready, kind, clock)

    tasks = [asyncio.create_task(one(seed, actions)) for seed, actions in games]
    while ready[0] < len(tasks):  # every game created and both seats connected
        await asyncio.sleep(0.1)
        for t in tasks:
            if t.done() and t.exception():
                raise t.exception()
    peak = 0
    started = time.perf_counter()
    cpu = cpu_seconds(pid), time.process_time()
    gate.set()
    running = asyncio.gather(*tasks)
    while not running.done():
        await asyncio.sleep(0.25)
        peak = max(peak, rss_kb(pid)[0])
    await running
    cpu_used = cpu_seconds(pid) - cpu[0], time.process_time() - cpu[1]
    return latencies, time.perf_counter() - started, peak, cpu_used


def run(coroutine):  # noqa: ANN001, ANN201
    """Run the client on uvloop when installed (uvicorn's standard extra brings it)."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coroutine)
    return uvloop.run(coroutine)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games")
    parser.add_argument("--distinct", type=int, default=16,
                        help="distinct computer games played beforehand (reused by seed)")
    parser.add_argument("--game", choices=["kings", "classic"], default="kings")
    parser.add_argument("--level", default=None,
                        help="computer level of the players (greedy; classic: medium)")
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds each seat pauses before its move (not measured)")
    parser.add_argument("--clock", type=int, default=None,
                        help="give every game a clock of this many seconds per player")
    args = parser.parse_args()
    args.level = args.level or ("medium" if args.game == "classic" else "greedy")

    print(f"Playing {args.distinct} {args.level} {args.game} games to replay ...", flush=True)
    with ProcessPoolExecutor() as pool:
        played = list(pool.map(computer_game, [(1000 + i, args.level, args.game)
                                              for i in range(args.distinct)]))
    games = [played[i % len(played)] for i in range(args.games)]
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "load.sqlite3", data_dir=Path(tmp),
                        extra_args=lifted(*ADDRESS_LIMITS)).start()
        try:
            pid = server.process.pid
            idle = rss_kb(pid)[0]
            latencies, elapsed, peak, (server_cpu, client_cpu) = run(
                drive(server.url, games, args.think, pid, args.game, args.clock))
            current, hwm = rss_kb(pid)
        finally:
            server.stop()
    latencies.sort()
    median = statistics.median(latencies) * 1000
    p99 = latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))] * 1000
    print(f"{args.game} games: {args.games} concurrent ({args.distinct} distinct), {len(latencies)} moves"
          f" in {elapsed:.1f} s ({len(latencies) / elapsed:.0f} moves/s), think {args.think} s,"
          f" clock {args.clock or 'none'}")
    print(f"move latency: median {median:.1f} ms, p99 {p99:.1f} ms,"
          f" max {latencies[-1] * 1000:.1f} ms")
    print(f"server memory (RSS): idle {idle / 1024:.0f} MB, during the run up to"
          f" {max(peak, current) / 1024:.0f} MB, peak {hwm / 1024:.0f} MB")
    moves = max(1, len(latencies))
    print(f"CPU during the run: server {server_cpu:.1f} s ({server_cpu / moves * 1000:.2f} ms a"
          f" move), client {client_cpu:.1f} s ({client_cpu / moves * 1000:.2f} ms a move)")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs,"
          f" load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
