"""Fair scheduling of the server's CPU work: computer seats' moves, analyses, replays.

Work waits in a :class:`Lane`, which runs it in threads of its own:

- ``moves``: the computer seats' moves (and games rebuilt from the store). A computer
  answering a person goes before any move of a game of computers only, and games of
  computers only may use all the lane's threads but one: a person's opponent always
  finds a thread free, or waits for no more than a move of another person's game.
- ``reviews``: analyses of finished games and replays, one thread. Each address may
  have a few waiting (``reviews_waiting``); past them, 429.

Within a lane and a priority, the next job is that of the address served longest ago
(an address with nothing running or waiting counts as never served), and within the
address, that of its game served longest ago. So however many jobs one address queues,
another address's job waits for at most one of them (per thread) before it starts, and
one game of an address cannot hold up its other games.

:func:`queue_depths` gives each lane's waiting and running jobs (for metrics).
"""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from kingscrib.web.errors import WebError

PEOPLE, COMPUTERS = 0, 1  # priorities in the moves lane: a person's game goes first


@dataclass(eq=False)
class Job:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    address: str
    game: str
    priority: int
    future: asyncio.Future = field(repr=False)


class Lane:
    """Jobs run in ``threads`` threads, fairly between addresses and their games.
    ``most``: for a priority, the most of its jobs running at once (the rest of the
    threads stay for the other priorities)."""

    def __init__(self, name: str, threads: int, most: dict[int, int] | None = None) -> None:
        self.name, self.threads = name, max(1, threads)
        self.most = dict(most or {})
        self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix=f"kingscrib-{name}")
        # priority -> address -> game -> jobs, each dict in the order its keys arrived
        self._queued: dict[int, dict[str, dict[str, deque[Job]]]] = {}
        self._running: Counter[int] = Counter()
        self._load: Counter[str] = Counter()  # jobs waiting or running, per address
        self._served: dict[str, int] = {}  # address -> when it last started a job
        self._game_served: dict[str, dict[str, int]] = {}  # address -> game -> when
        self._tick = itertools.count(1)

    # ----- asking --------------------------------------------------------------------
    async def run(self, fn: Callable[..., Any], *args: Any, address: str, game: str = "",
                  priority: int = 0, most_waiting: int | None = None) -> Any:
        """``fn(*args)`` in one of the lane's threads, when its turn comes. ``most_waiting``:
        429 when ``address`` already has that many jobs waiting or running here.
        Cancelling the caller drops a job still waiting (one running finishes alone)."""
        if most_waiting is not None and self.busy(address, most_waiting):
            raise self.refusal(address)
        job = Job(fn, args, address, game, priority,
                  asyncio.get_running_loop().create_future())
        self._queued.setdefault(priority, {}).setdefault(address, {}) \
            .setdefault(game, deque()).append(job)
        self._load[address] += 1
        self._dispatch()
        return await job.future

    def busy(self, address: str, most_waiting: int) -> bool:
        """``address`` has ``most_waiting`` jobs (or more) waiting or running here."""
        return self._load[address] >= most_waiting

    def refusal(self, address: str) -> WebError:
        return WebError(429, f"{self._load[address]} {self.name} asked for from your address"
                             " are still being worked out: wait for them")

    def depths(self) -> dict[str, int]:
        """Jobs waiting and running now."""
        waiting = sum(len(jobs) for by_address in self._queued.values()
                      for by_game in by_address.values() for jobs in by_game.values())
        return {"waiting": waiting, "running": sum(self._running.values())}

    def shutdown(self) -> None:
        for by_address in self._queued.values():
            for by_game in by_address.values():
                for jobs in by_game.values():
                    for job in jobs:
                        job.future.cancel()
        self._queued.clear()
        self._pool.shutdown(wait=False, cancel_futures=True)

    # ----- choosing ------------------------------------------------------------------
    def _dispatch(self) -> None:
        while sum(self._running.values()) < self.threads:
            job = self._next()
            if job is None:
                return
            if job.future.done():  # its caller was cancelled while it waited
                self._unload(job)
                continue
            self._start(job)

    def _next(self) -> Job | None:
        """Take the next job: the first priority with jobs and room to run them, the
        address served longest ago, its game served longest ago, that game's oldest."""
        for priority in sorted(self._queued):
            if self._running[priority] >= self.most.get(priority, self.threads):
                continue
            by_address = self._queued[priority]
            address = min(by_address, key=lambda a: self._served.get(a, 0))
            by_game = by_address[address]
            games = self._game_served.get(address, {})
            game = min(by_game, key=lambda g: games.get(g, 0))
            jobs = by_game[game]
            job = jobs.popleft()
            if not jobs:
                del by_game[game]
                if not by_game:
                    del by_address[address]
                    if not by_address:
                        del self._queued[priority]
            return job
        return None

    def _start(self, job: Job) -> None:
        tick = next(self._tick)
        self._served[job.address] = tick
        self._game_served.setdefault(job.address, {})[job.game] = tick
        self._running[job.priority] += 1
        try:
            done = asyncio.get_running_loop().run_in_executor(self._pool, job.fn, *job.args)
        except RuntimeError as e:  # the pool was shut down (the server is stopping)
            self._running[job.priority] -= 1
            self._unload(job)
            job.future.set_exception(e)
            return
        done.add_done_callback(lambda finished: self._finished(job, finished))

    def _finished(self, job: Job, finished: asyncio.Future) -> None:
        self._running[job.priority] -= 1
        self._unload(job)
        if not job.future.done():
            if finished.cancelled():
                job.future.cancel()
            elif finished.exception() is not None:
                job.future.set_exception(finished.exception())
            else:
                job.future.set_result(finished.result())
        self._dispatch()

    def _unload(self, job: Job) -> None:
        """Forget what is no longer waiting or running (memory stays bounded by the work
        in hand); an address with nothing here again counts as never served."""
        self._load[job.address] -= 1
        if self._load[job.address] <= 0:
            del self._load[job.address]
            self._served.pop(job.address, None)
            self._game_served.pop(job.address, None)


class Work:
    """The server's lanes of CPU work (see the module's text)."""

    def __init__(self, move_threads: int = 2, review_threads: int = 1,
                 reviews_waiting: int = 2) -> None:
        self.moves = Lane("moves", move_threads,
                          most={COMPUTERS: max(1, move_threads - 1)})
        self.reviews = Lane("analyses and replays", review_threads)
        self.reviews_waiting = reviews_waiting

    async def move(self, fn: Callable[..., Any], *args: Any, address: str, game: str,
                   people: bool) -> Any:
        """A computer seat's move (or any work a game's players wait for): ``people``, the
        game has a person's seat and goes before the games of computers only."""
        return await self.moves.run(fn, *args, address=address, game=game,
                                    priority=PEOPLE if people else COMPUTERS)

    async def review(self, fn: Callable[..., Any], *args: Any, address: str,
                     game: str = "") -> Any:
        """An analysis or a replay; 429 past ``reviews_waiting`` of the address's."""
        return await self.reviews.run(fn, *args, address=address, game=game,
                                      most_waiting=self.reviews_waiting)

    def depths(self) -> dict[str, dict[str, int]]:
        return {"moves": self.moves.depths(), "reviews": self.reviews.depths()}

    def shutdown(self) -> None:
        self.moves.shutdown()
        self.reviews.shutdown()


def queue_depths(work: Work) -> dict[str, dict[str, int]]:
    """``{"moves": {"waiting": n, "running": m}, "reviews": {...}}`` for the server's
    work (``app.state.hub.work``)."""
    return work.depths()
