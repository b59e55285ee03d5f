"""Fairness benchmark of the web server: a person's computer opponent under another
address's load at the allowed maxima.

    python benchmarks/web_fairness.py
    python benchmarks/web_fairness.py --moves 300 --level expert   # a heavier load

A real ``kingscrib serve`` (SQLite in a temporary folder, computers moving at once) and
two client addresses on loopback:

- the person (127.0.0.1) plays Kings Cribbage against a ``greedy`` computer over a
  websocket; a reply is timed from sending the person's move to the update that gives
  the turn back (the move checked, stored, the computer's move worked out, stored and
  pushed). The person's moves are worked out beforehand (the same seeds and players as
  the server's computer seat), so the client's own thinking is left out.
- the load (127.0.0.2) keeps as many games of computers only going as the server allows
  an address (``computer_games``, ``--level`` computers, a new one as soon as one ends,
  moving at the server's pace for such games, ``computer_moves_per_second``; ``--pace``)
  and as many Cribbage analyses waiting or running as it allows (``reviews_waiting``),
  of Cribbage games it created and finished beforehand (through a first server on the
  same database, at full speed). Its client runs in a process of
  its own: reading the load's answers (whole games, whole analyses) on the person's
  event loop would delay the person's replies in the client, not in the server.

The person's replies are measured on a quiet server, then under the load. Prints the
median, p99 and max of each, and the ratios; ``games_per_hour`` is lifted (the person
starts a new game whenever one ends), every other limit is the server's default. On
Linux it also prints, per reply, the CPU time of the server's process and the time its
threads waited for a CPU (``/proc/<pid>/task/*/schedstat``): a tail that grows with the
wait and not with the CPU time is the machine's scheduling, not the server's work.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from web_support import Server  # noqa: E402

from kingscrib.web.server.limits import LimitSettings  # noqa: E402

PERSON, LOAD = "127.0.0.1", "127.0.0.2"


def person_moves(seed: int) -> list[dict]:
    """The person's moves (seat 0) in a game against the server's greedy seat 1, played
    here with the server's own code: the same seed, players and order."""
    from kingscrib.web.play.games.kings import KINGS

    session = KINGS.create(KINGS.check_rules({}, 2), seed, ["Person", "Computer"])
    players = [KINGS.make_player("greedy", seed), KINGS.make_player("greedy", seed + 1)]
    moves = []
    while not session.over:
        seat = session.waiting()[0]
        action = session.computer_action(seat, players[seat], session.computer_input(seat))
        session.apply(seat, action)
        if seat == 0:
            moves.append(action)
    return moves


async def person(url: str, seeds: list[int], count: int, think: float) -> list[float]:
    """Play games against a greedy computer until ``count`` replies are timed."""
    replies: list[float] = []
    transport = httpx.AsyncHTTPTransport(local_address=PERSON)
    async with httpx.AsyncClient(base_url=url, transport=transport, timeout=60) as http:
        for seed in seeds:
            moves = person_moves(seed)
            created = (await http.post("/api/games", json={
                "seats": [{"kind": "human"}, {"kind": "computer", "level": "greedy"}],
                "seed": seed})).json()
            ws = await connect(url.replace("http", "ws") + f"/api/games/{created['game_id']}/ws",
                               compression=None, max_size=2**22, local_addr=(PERSON, 0))
            try:
                await ws.send(json.dumps({"type": "hello", "token": created["token"]}))
                over, turns = await turn_back(ws, 0)  # the computer may move first
                for n, move in enumerate(moves):
                    await asyncio.sleep(think)
                    sent = time.perf_counter()
                    await ws.send(json.dumps({"type": "action", "ref": n, **move}))
                    over, turns = await turn_back(ws, turns + 2)  # the move, the reply
                    replies.append(time.perf_counter() - sent)
                    if len(replies) >= count:
                        return replies
                    if over:
                        break
            finally:
                await ws.close()
    raise RuntimeError("not enough seeds for the replies asked for")


async def turn_back(ws, turns: int) -> tuple[bool, int]:  # noqa: ANN001
    """Read until the game has ``turns`` turns and the turn is the person's (seat 0)
    again, or is over: (over, the turns played)."""
    while True:
        message = json.loads(await ws.recv())
        if message["type"] == "error":
            raise RuntimeError(message)
        body = message.get("update") or message.get("state")
        if body is None:
            continue
        played = body.get("history_from", 0) + len(body.get("history", []))
        if body.get("over"):
            return True, played
        if body.get("turn") == 0 and played >= turns:
            return False, played


async def finished_cribbage_games(http: httpx.AsyncClient, count: int, most: int
                                  ) -> list[tuple[str, str]]:
    """``count`` Cribbage games of computers made and played out by the load's address,
    ``most`` at a time (its limit): their ids and invite codes, to analyse."""
    done: list[tuple[str, str]] = []
    seed = 500
    while len(done) < count:
        batch = []
        for _ in range(min(most, count - len(done))):
            created = (await http.post("/api/games", json={
                "game": "classic", "seed": seed,
                "seats": [{"kind": "computer", "level": "easy"}] * 2})).json()
            seed += 1
            batch.append((created["game_id"], created["invite"]))
        for game, invite in batch:
            while not (await http.get(f"/api/games/{game}")).json()["over"]:
                await asyncio.sleep(0.2)
            done.append((game, invite))
    return done


async def load(url: str, level: str, games_at_once: int, analyses_at_once: int,
               to_analyse: list[tuple[str, str]], stop: asyncio.Event,
               counts: dict[str, int]) -> None:
    """Keep the load's games of computers and its analyses at the allowed maxima."""
    transport = httpx.AsyncHTTPTransport(local_address=LOAD)
    async with httpx.AsyncClient(base_url=url, transport=transport, timeout=60) as http:

        async def computers_game(slot: int) -> None:
            seed = 900 + slot * 1000
            while not stop.is_set():
                created = await http.post("/api/games", json={
                    "seats": [{"kind": "computer", "level": level}] * 2, "seed": seed})
                seed += 1
                if created.status_code != 201:  # the previous one is still counted
                    await asyncio.sleep(0.5)
                    continue
                counts["games"] += 1
                game = created.json()["game_id"]
                while not stop.is_set() and not (await http.get(f"/api/games/{game}")).json()["over"]:
                    await asyncio.sleep(0.5)

        async def analyses() -> None:
            while not stop.is_set() and to_analyse:
                game, invite = to_analyse.pop()
                started = await http.post(f"/api/games/{game}/analysis", json={"invite": invite})
                if started.status_code != 202:
                    counts["refused"] += 1
                    to_analyse.append((game, invite))
                    await asyncio.sleep(0.5)
                    continue
                counts["analyses"] += 1
                while not stop.is_set():
                    status = (await http.get(f"/api/games/{game}/analysis")).json()["status"]
                    if status != "running":
                        break
                    await asyncio.sleep(0.5)

        tasks = [asyncio.create_task(computers_game(i)) for i in range(games_at_once)]
        tasks += [asyncio.create_task(analyses()) for _ in range(analyses_at_once)]
        await stop.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def run_load(url: str, level: str, games_at_once: int, analyses_at_once: int,
             to_analyse: list[tuple[str, str]], stop, counts_out) -> None:  # noqa: ANN001
    """:func:`load` in a process of its own until ``stop`` (a multiprocessing Event) is
    set; its counts are put on ``counts_out``."""
    async def until_stopped() -> None:
        stopping, counts = asyncio.Event(), {"games": 0, "analyses": 0, "refused": 0}
        loading = asyncio.create_task(load(url, level, games_at_once, analyses_at_once,
                                           to_analyse, stopping, counts))
        while not stop.is_set():
            await asyncio.sleep(0.05)
        stopping.set()
        await loading
        counts_out.put(counts)

    asyncio.run(until_stopped())


def server_times(pid: int) -> tuple[float, float] | None:
    """The server process's threads: seconds on a CPU and seconds waiting for one, so
    far (None where the kernel does not say: not Linux, or no schedstats)."""
    on_cpu = waiting = 0
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                ran, waited, _slices = f.read().split()
            on_cpu, waiting = on_cpu + int(ran), waiting + int(waited)
    except (OSError, ValueError):
        return None
    return on_cpu / 1e9, waiting / 1e9


def per_reply(before: tuple[float, float] | None, after: tuple[float, float] | None,
              replies: int) -> tuple[float, float] | None:
    """ms per reply on a CPU and waiting for one, between two :func:`server_times`."""
    if before is None or after is None:
        return None
    return ((after[0] - before[0]) * 1000 / replies, (after[1] - before[1]) * 1000 / replies)


def summary(times: list[float]) -> tuple[float, float, float, float]:
    """Median, p90, p99 and max in ms."""
    times = sorted(times)

    def at(q: float) -> float:
        return times[min(len(times) - 1, int(q * len(times)))] * 1000

    return statistics.median(times) * 1000, at(0.9), at(0.99), times[-1] * 1000


async def prepare(url: str, count: int) -> list[tuple[str, str]]:
    """The finished Cribbage games the load will analyse, made through ``url``."""
    transport = httpx.AsyncHTTPTransport(local_address=LOAD)
    async with httpx.AsyncClient(base_url=url, transport=transport, timeout=60) as http:
        print(f"Playing {count} Cribbage games out for the load to analyse ...", flush=True)
        return await finished_cribbage_games(http, count, LimitSettings().computer_games)


async def measure(url: str, pid: int, to_analyse: list[tuple[str, str]],
                  args: argparse.Namespace) -> dict[str, list[float]]:
    limits = LimitSettings()
    seeds = list(range(1, 400))
    print(f"Quiet: {args.moves} replies ...", flush=True)
    before = server_times(pid)
    quiet = await person(url, seeds[:200], args.moves, args.think)
    server = {"quiet": per_reply(before, server_times(pid), len(quiet))}
    context = multiprocessing.get_context("spawn")
    stop, counts_out = context.Event(), context.Queue()
    loading = context.Process(target=run_load, args=(
        url, args.level, limits.computer_games, limits.reviews_waiting, to_analyse, stop,
        counts_out), name="load")
    loading.start()
    await asyncio.sleep(args.warmup)
    print(f"Loaded: {args.moves} replies while {LOAD} runs {limits.computer_games}"
          f" {args.level} games of computers and {limits.reviews_waiting} Cribbage"
          " analyses ...", flush=True)
    started, before = time.perf_counter(), server_times(pid)
    loaded = await person(url, seeds[200:], args.moves, args.think)
    elapsed = time.perf_counter() - started
    server["loaded"] = per_reply(before, server_times(pid), len(loaded))
    stop.set()
    counts = await asyncio.to_thread(counts_out.get, timeout=60)
    await asyncio.to_thread(loading.join, 30)
    print(f"the load during the run: {counts['games']} games of computers started,"
          f" {counts['analyses']} analyses started ({counts['refused']} refused for being"
          f" over the limit), {elapsed:.0f} s")
    return {"quiet": quiet, "loaded": loaded, "server": server}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200, help="replies timed in each phase")
    parser.add_argument("--level", default="expert",
                        help="level of the load's games of computers (default expert)")
    parser.add_argument("--analyses", type=int, default=40,
                        help="Cribbage games played out beforehand for the load to analyse")
    parser.add_argument("--think", type=float, default=0.1,
                        help="seconds the person waits before each move (not measured)")
    parser.add_argument("--warmup", type=float, default=5.0,
                        help="seconds of load before the person's replies are timed")
    parser.add_argument("--pace", type=float, default=None,
                        help="moves a second of each game of computers only (default: the"
                             " server's, computer_moves_per_second)")
    args = parser.parse_args()
    # The load's games of computers only move at the server's default pace (the
    # person's computer, alone with a person, answers at once: --computer-delay 0).
    pace = args.pace if args.pace is not None else LimitSettings().computer_moves_per_second
    start_load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        # The games to analyse are played out at full speed by a first server; the
        # measured one, on the same database, has the default pace.
        database = Path(tmp) / "fair.sqlite3"
        server = Server(database, data_dir=Path(tmp),
                        extra_args=["--limit", "games_per_hour=100000"]).start()
        try:
            to_analyse = asyncio.run(prepare(server.url, args.analyses))
        finally:
            server.stop()
        server = Server(database, data_dir=Path(tmp),
                        extra_args=["--limit", "games_per_hour=100000", "--limit",
                                    f"computer_moves_per_second={pace}"]).start()
        try:
            times = asyncio.run(measure(server.url, server.process.pid, to_analyse, args))
        finally:
            server.stop()
    quiet, loaded = summary(times["quiet"]), summary(times["loaded"])
    for name, (median, p90, p99, top) in (("quiet", quiet), ("loaded", loaded)):
        print(f"{name:>6}: reply median {median:.1f} ms, p90 {p90:.1f} ms, p99 {p99:.1f} ms,"
              f" max {top:.1f} ms ({len(times[name])} replies)")
        if times["server"][name] is not None:
            on_cpu, waiting = times["server"][name]
            print(f"{'':>8}the server's process per reply: {on_cpu:.1f} ms on a CPU, its"
                  f" threads {waiting:.1f} ms waiting for one")
    print(f"ratio loaded/quiet: median {loaded[0] / quiet[0]:.2f}, p90 {loaded[1] / quiet[1]:.2f},"
          f" p99 {loaded[2] / quiet[2]:.2f}")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average"
          f" {start_load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
