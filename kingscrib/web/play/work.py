"""Fair scheduling of the server's CPU work: computer seats' moves, analyses, replays.

Work waits in a :class:`Lane`, each with its own workers, so one kind of work never
waits for another:

- ``replies``: the computer seats of games with a person's seat (and games rebuilt from
  the store), in threads of the server's process: a person's opponent.
- ``computers``: the moves of games of computers only, in a worker process of their own.
- ``reviews``: analyses of finished games and replays, in another worker process. Each
  address may have a few waiting or running (``reviews_waiting``); past them, 429.

The worker processes run at a lower CPU priority (nice 10) and hold their own
interpreter lock: however much they compute, the server's event loop and the people's
replies do not wait for them (threads of one process take turns on one lock).

Within a lane, the next job is that of the address served longest ago (an address with
nothing running or waiting counts as never served), and within the address, that of
its game served longest ago. However many jobs one address queues, another address's
job waits for at most one of them (per worker) before it starts, and one game of an
address cannot hold up its other games.

:func:`queue_depths` gives each lane's waiting and running jobs (for metrics).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import multiprocessing
import os
import pickle
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from kingscrib.web.errors import WebError

Progress = Callable[[int, int], None]


@dataclass(eq=False)
class Job:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    address: str
    game: str
    future: asyncio.Future[Any] = field(repr=False)
    progress: Progress | None = field(default=None, repr=False)


class Lane:
    """Jobs run by ``workers`` threads (or, ``processes``, worker processes at a lower CPU
    priority: functions and arguments are then pickled), fairly between addresses and
    their games."""

    def __init__(self, name: str, workers: int, processes: bool = False) -> None:
        self.name, self.workers = name, max(1, workers)
        # Worker processes start with the lane's first job: a server that never needs
        # them holds none (nor their queues' semaphores).
        self._wants_processes = processes
        self._processes: _Processes | None = None
        self._pool: Executor | None = (None if processes else ThreadPoolExecutor(
            self.workers, thread_name_prefix=f"kingscrib-{name}"))
        # address -> game -> jobs, each dict in the order its keys arrived
        self._queued: dict[str, dict[str, deque[Job]]] = {}
        self._running = 0
        self._load: Counter[str] = Counter()  # jobs waiting or running, per address
        self._served: dict[str, int] = {}  # address -> when it last started a job
        self._game_served: dict[str, dict[str, int]] = {}  # address -> game -> when
        self._tick = itertools.count(1)

    # ----- asking --------------------------------------------------------------------
    async def run(self, fn: Callable[..., Any], *args: Any, address: str, game: str = "",
                  most_waiting: int | None = None, progress: Progress | None = None) -> Any:
        """``fn(*args)`` by one of the lane's workers, when its turn comes. ``most_waiting``:
        429 when ``address`` already has that many jobs waiting or running here.
        ``progress``: given to ``fn`` as its last argument (called from another thread).
        Cancelling the caller drops a job still waiting (one running finishes alone)."""
        if most_waiting is not None and self.busy(address, most_waiting):
            raise self.refusal(address)
        job = Job(fn, args, address, game, asyncio.get_running_loop().create_future(),
                  progress)
        self._queued.setdefault(address, {}).setdefault(game, deque()).append(job)
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
        waiting = sum(len(jobs) for by_game in self._queued.values()
                      for jobs in by_game.values())
        return {"waiting": waiting, "running": self._running}

    def shutdown(self) -> None:
        for by_game in self._queued.values():
            for jobs in by_game.values():
                for job in jobs:
                    job.future.cancel()
        self._queued.clear()
        if self._processes is not None:
            self._processes.shutdown()
        elif self._pool is not None and not self._wants_processes:
            self._pool.shutdown(wait=False, cancel_futures=True)

    # ----- choosing ------------------------------------------------------------------
    def _dispatch(self) -> None:
        while self._running < self.workers and self._queued:
            job = self._next()
            if job.future.done():  # its caller was cancelled while it waited
                self._unload(job)
                continue
            self._start(job)

    def _next(self) -> Job:
        """Take the next job: the address served longest ago, its game served longest
        ago, that game's oldest job."""
        address = min(self._queued, key=lambda a: self._served.get(a, 0))
        by_game = self._queued[address]
        games = self._game_served.get(address, {})
        game = min(by_game, key=lambda g: games.get(g, 0))
        jobs = by_game[game]
        job = jobs.popleft()
        if not jobs:
            del by_game[game]
            if not by_game:
                del self._queued[address]
        return job

    def _start(self, job: Job) -> None:
        if self._wants_processes and self._processes is None:
            self._processes = _Processes(self.name, self.workers)
            self._pool = self._processes.pool
        tick = next(self._tick)
        self._served[job.address] = tick
        self._game_served.setdefault(job.address, {})[job.game] = tick
        self._running += 1
        fn, args = job.fn, job.args
        if job.progress is not None:
            if self._processes is not None:
                fn, args = self._processes.reporting(job.fn, job.args, job.progress)
            else:
                args = (*args, job.progress)
        if self._processes is not None:
            fn, args = _portable_call, (fn, *args)
        pool = self._pool
        try:
            done = asyncio.get_running_loop().run_in_executor(pool, fn, *args)
        except RuntimeError as e:  # the pool was shut down (the server is stopping)
            self._running -= 1
            self._unload(job)
            job.future.set_exception(e)
            return
        done.add_done_callback(lambda finished: self._finished(job, finished, pool))

    def _finished(self, job: Job, finished: asyncio.Future[Any], pool: Executor | None
                  ) -> None:
        self._running -= 1
        if (self._processes is not None and pool is self._pool and not finished.cancelled()
                and isinstance(finished.exception(), BrokenProcessPool)):
            # A worker died (killed, out of memory): its job fails, the lane goes on.
            self._pool = self._processes.restart()
        self._unload(job)
        if not job.future.done():
            if finished.cancelled():
                job.future.cancel()
            elif (problem := finished.exception()) is not None:
                job.future.set_exception(problem)
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


# ----- worker processes ---------------------------------------------------------------
_reports: Any = None  # in a worker process: where progress goes back to the server


def _worker_start(reports: Any) -> None:
    """A worker process begins: at a lower CPU priority than the server's own process."""
    global _reports
    _reports = reports
    with contextlib.suppress(OSError):
        os.nice(10)


def _portable_call(fn: Callable[..., Any], *args: Any) -> Any:
    """In a worker process: ``fn(*args)``, its result or error made sure to unpickle in
    the server (one that would not would stop the pool's result thread)."""
    try:
        result = fn(*args)
    except Exception as e:
        try:
            pickle.loads(pickle.dumps(e))
        except Exception:
            raise RuntimeError(f"{type(e).__name__}: {e}") from None
        raise
    try:
        pickle.loads(pickle.dumps(result))
    except Exception as e:
        raise RuntimeError(f"a result that cannot be sent back ({type(e).__name__}: {e})"
                           ) from None
    return result


REPORT_EVERY = 0.25  # seconds between two progress reports of a job (its last one always)


def _call_reporting(key: int, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    """In a worker process: ``fn(*args, progress)``, the progress sent to the server at
    most every REPORT_EVERY seconds, and the last step always: each report wakes a thread
    of the server's process, which takes the interpreter's lock from the people's
    replies (an analysis reports every decision, dozens a second)."""
    sent = -REPORT_EVERY

    def report(done: int, total: int) -> None:
        nonlocal sent
        now = time.monotonic()
        if done < total and now - sent < REPORT_EVERY:
            return
        sent = now
        _reports.put((key, done, total))

    return fn(*args, report)


class _Processes:
    """A lane's worker processes (started fresh, not forked from the threaded server)
    and the thread passing their progress reports on."""

    def __init__(self, name: str, workers: int) -> None:
        self.workers = workers
        self.context = multiprocessing.get_context("spawn")
        self.reports = self.context.Queue()
        self.pool = self._new_pool()
        self._progress: dict[int, Progress] = {}
        self._keys = itertools.count(1)
        self._reader = threading.Thread(target=self._read, name=f"kingscrib-{name}-progress",
                                        daemon=True)
        self._reader.start()

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(self.workers, mp_context=self.context,
                                   initializer=_worker_start, initargs=(self.reports,))

    def restart(self) -> ProcessPoolExecutor:
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.pool = self._new_pool()
        return self.pool

    def reporting(self, fn: Callable[..., Any], args: tuple[Any, ...], progress: Progress
                  ) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        key = next(self._keys)
        self._progress[key] = progress
        # Reports come on their own queue and may arrive after the result: a job's
        # callback is kept until many newer jobs have come (memory stays bounded).
        while len(self._progress) > 256:
            self._progress.pop(next(iter(self._progress)))
        return _call_reporting, (key, fn, args)

    def _read(self) -> None:
        while True:
            try:
                report = self.reports.get()
            except (EOFError, OSError):
                return
            if report is None:
                return
            key, done, total = report
            progress = self._progress.get(key)
            if progress is not None:
                progress(done, total)  # int assignments: safe from this thread

    def shutdown(self) -> None:
        # A worker may be minutes into an analysis nobody will read: stop it.
        for process in list(getattr(self.pool, "_processes", {}).values()):
            with contextlib.suppress(Exception):
                process.terminate()
        # Waiting (for terminated workers: a moment) releases the pool's and the queue's
        # semaphores; left to the interpreter's exit, they are reported as leaked.
        self.pool.shutdown(wait=True, cancel_futures=True)
        with contextlib.suppress(Exception):
            self.reports.put(None)
        self._reader.join(timeout=2)
        self.reports.close()
        self.reports.join_thread()


class Work:
    """The server's lanes of CPU work (see the module's text)."""

    def __init__(self, reply_threads: int = 2, reviews_waiting: int = 2,
                 processes: bool = True) -> None:
        self.replies = Lane("replies", reply_threads)
        self.computers = Lane("games of computers only", 1, processes=processes)
        self.reviews = Lane("analyses and replays", 1, processes=processes)
        self.reviews_waiting = reviews_waiting

    async def move(self, fn: Callable[..., Any], *args: Any, address: str, game: str,
                   people: bool) -> Any:
        """A computer seat's move (or work a game's players wait for): ``people``, the
        game has a person's seat (the replies lane), else the computers' lane, whose
        worker is another process (``fn`` and ``args`` pickled)."""
        lane = self.replies if people else self.computers
        return await lane.run(fn, *args, address=address, game=game)

    async def review(self, fn: Callable[..., Any], *args: Any, address: str,
                     game: str = "", progress: Progress | None = None) -> Any:
        """An analysis or a replay in another process (``fn`` and ``args`` pickled;
        ``progress`` given to ``fn`` as its last argument); 429 past ``reviews_waiting``
        of the address's."""
        return await self.reviews.run(fn, *args, address=address, game=game,
                                      most_waiting=self.reviews_waiting, progress=progress)

    def depths(self) -> dict[str, dict[str, int]]:
        return {"replies": self.replies.depths(), "computers": self.computers.depths(),
                "reviews": self.reviews.depths()}

    def shutdown(self) -> None:
        for lane in (self.replies, self.computers, self.reviews):
            lane.shutdown()


def queue_depths(work: Work) -> dict[str, dict[str, int]]:
    """``{"replies": {"waiting": n, "running": m}, "computers": {...}, "reviews": {...}}``
    for the server's work (``app.state.hub.work``)."""
    return work.depths()
