"""The fair scheduler of the server's CPU work (kingscrib.web.play.work): the order jobs start
in, checked deterministically (jobs block on events the test releases one at a time)."""

from __future__ import annotations

import asyncio
import os
import threading

import pytest

from kingscrib.web.errors import WebError
from kingscrib.web.play.games import game_kind
from kingscrib.web.play.work import Lane, Work


class Recorder:
    """Jobs that note when they start and wait for the test to let them finish."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.gates: dict[str, threading.Event] = {}
        self.lock = threading.Lock()

    def job(self, name: str) -> str:
        with self.lock:
            self.started.append(name)
            gate = self.gates.setdefault(name, threading.Event())
        assert gate.wait(10), f"{name} was never released"
        return name

    def release(self, name: str) -> None:
        with self.lock:
            self.gates.setdefault(name, threading.Event()).set()

    async def started_count(self, n: int) -> None:
        for _ in range(1000):
            if len(self.started) >= n:
                return
            await asyncio.sleep(0.005)
        raise AssertionError(f"only {self.started} started")


async def run_in_order(lane: Lane, rec: Recorder, order: list[str]) -> None:
    """Release the jobs one by one as they start; each must start in ``order``."""
    for i, name in enumerate(order):
        await rec.started_count(i + 1)
        assert rec.started[i] == name, (rec.started, order)
        rec.release(name)


def submit(lane: Lane, rec: Recorder, name: str, address: str, game: str = "g"
           ) -> asyncio.Task:
    return asyncio.ensure_future(lane.run(rec.job, name, address=address, game=game))


async def settle() -> None:
    for _ in range(3):
        await asyncio.sleep(0)


def test_a_flood_from_one_address_lets_another_address_go_next() -> None:
    async def scenario() -> list[str]:
        lane, rec = Lane("test", 1), Recorder()
        tasks = [submit(lane, rec, f"A{i}", "10.0.0.1", game=f"a{i % 3}") for i in range(1, 7)]
        await settle()
        tasks.append(submit(lane, rec, "B1", "10.0.0.2"))
        await settle()
        await run_in_order(lane, rec, ["A1", "B1", "A2", "A3", "A4", "A5", "A6"])
        assert [await t for t in tasks] == ["A1", "A2", "A3", "A4", "A5", "A6", "B1"]
        lane.shutdown()
        return rec.started

    asyncio.run(scenario())


def test_addresses_take_turns_and_a_later_address_waits_for_one_job() -> None:
    async def scenario() -> None:
        lane, rec = Lane("test", 1), Recorder()
        tasks = [submit(lane, rec, f"A{i}", "A") for i in range(1, 4)]
        tasks += [submit(lane, rec, f"B{i}", "B") for i in range(1, 4)]
        await settle()
        await rec.started_count(1)
        rec.release("A1")
        await rec.started_count(2)
        tasks.append(submit(lane, rec, "C1", "C"))  # arrives while B1 runs
        await settle()
        await run_in_order(lane, rec, ["A1", "B1", "C1", "A2", "B2", "A3", "B3"])
        await asyncio.gather(*tasks)
        lane.shutdown()

    asyncio.run(scenario())


def test_an_address_s_games_take_turns() -> None:
    async def scenario() -> None:
        lane, rec = Lane("test", 1), Recorder()
        tasks = [submit(lane, rec, f"x{i}", "A", game="x") for i in range(1, 5)]
        await settle()
        tasks.append(submit(lane, rec, "y1", "A", game="y"))
        await settle()
        await run_in_order(lane, rec, ["x1", "y1", "x2", "x3", "x4"])
        await asyncio.gather(*tasks)
        lane.shutdown()

    asyncio.run(scenario())


def test_a_person_s_opponent_never_waits_for_games_of_computers_or_analyses() -> None:
    """The games of computers only and the analyses have workers of their own: with
    both full and more queued, a person's game's computer starts at once."""
    async def scenario() -> None:
        work, rec = Work(reply_threads=1, processes=False), Recorder()
        bots = [asyncio.ensure_future(work.move(rec.job, f"bot{i}", address="10.0.0.1",
                                                game=f"b{i}", people=False)) for i in range(3)]
        review = asyncio.ensure_future(work.review(rec.job, "analysis", address="10.0.0.1"))
        await rec.started_count(2)
        await asyncio.sleep(0.05)
        assert sorted(rec.started) == ["analysis", "bot0"]
        person = asyncio.ensure_future(work.move(rec.job, "reply", address="10.9.9.9",
                                                 game="p", people=True))
        await rec.started_count(3)
        assert rec.started[2] == "reply"
        assert work.depths() == {"replies": {"waiting": 0, "running": 1},
                                 "computers": {"waiting": 2, "running": 1},
                                 "reviews": {"waiting": 0, "running": 1}}
        for name in ("reply", "analysis", "bot0", "bot1", "bot2"):
            rec.release(name)
        await asyncio.gather(person, review, *bots)
        assert work.depths()["computers"] == {"waiting": 0, "running": 0}
        work.shutdown()

    asyncio.run(scenario())


def report_progress(steps: int, progress) -> int:  # noqa: ANN001
    """A job for a worker process: ``steps`` steps, each reported."""
    for done in range(1, steps + 1):
        progress(done, steps)
    return os.getpid()


def test_worker_processes_run_jobs_report_progress_and_send_errors_back() -> None:
    async def scenario() -> None:
        lane = Lane("reviews", 1, processes=True)
        seen: list[tuple[int, int]] = []
        try:
            pid = await lane.run(report_progress, 3, address="A",
                                 progress=lambda done, total: seen.append((done, total)))
            assert pid != os.getpid()  # another process, whose lock is not the server's
            for _ in range(200):
                if seen[-1:] == [(3, 3)]:
                    break
                await asyncio.sleep(0.01)
            # The first step and the last; the one between, in the same quarter second,
            # is not sent (reports are at most every REPORT_EVERY seconds).
            assert seen == [(1, 3), (3, 3)]
            with pytest.raises(WebError) as raised:  # pickled back whole
                await lane.run(game_kind, "chess", address="A")
            assert raised.value.status == 400 and "unknown game 'chess'" in raised.value.message
        finally:
            lane.shutdown()

    asyncio.run(scenario())


def test_a_cancelled_job_that_waits_never_runs_and_budgets_refuse() -> None:
    async def scenario() -> None:
        lane, rec = Lane("analyses and replays", 1), Recorder()
        first = submit(lane, rec, "A1", "A")
        await rec.started_count(1)
        dropped = submit(lane, rec, "A2", "A")
        kept = submit(lane, rec, "B1", "B")
        await settle()
        assert lane.depths() == {"waiting": 2, "running": 1}
        dropped.cancel()
        await settle()
        with pytest.raises(WebError) as refused:  # B has 1 waiting: its budget of 1 is used
            await lane.run(rec.job, "B2", address="B", most_waiting=1)
        assert refused.value.status == 429 and "still being worked out" in refused.value.message
        rec.release("A1")
        await run_in_order(lane, rec, ["A1", "B1"])
        assert await first == "A1" and await kept == "B1"
        assert "A2" not in rec.started
        assert lane.depths() == {"waiting": 0, "running": 0}
        lane.shutdown()

    asyncio.run(scenario())


def _refuse_to_rebuild() -> None:
    raise TypeError("this object cannot be rebuilt")


class Unportable:
    """Pickles, but does not unpickle (as a game's secret generator once did)."""

    def __reduce__(self) -> tuple:
        return (_refuse_to_rebuild, ())


def give_back(value):  # noqa: ANN001, ANN201
    return value


def test_a_job_that_cannot_cross_to_a_worker_process_fails_alone() -> None:
    async def scenario() -> None:
        lane = Lane("games of computers only", 1, processes=True)
        try:
            with pytest.raises(Exception):  # noqa: B017 - the worker died unpickling it
                await lane.run(give_back, Unportable(), address="A")
            assert await lane.run(give_back, 7, address="A") == 7  # a new worker
            with pytest.raises(RuntimeError, match="cannot be sent back.*cannot be rebuilt"):
                await lane.run(Unportable, address="A")  # a result that cannot come back
            assert await lane.run(give_back, [1, 2], address="B") == [1, 2]
            assert lane.depths() == {"waiting": 0, "running": 0}
        finally:
            lane.shutdown()

    asyncio.run(scenario())


def test_an_analysis_running_here_is_polled_without_the_store() -> None:
    from types import SimpleNamespace

    from kingscrib.web.play import reviews

    asked: list[str] = []

    async def db_call(fn, game_id):  # noqa: ANN001, ANN202 - the hub's store thread
        asked.append(game_id)
        return fn(game_id)

    stored = {"g1": [{"turn": 0}]}
    hub = SimpleNamespace(analysis_jobs={"g1": reviews.Job(total=9, done=4)},
                          store=SimpleNamespace(analysis=stored.get), db_call=db_call)
    room = SimpleNamespace(id="g1")
    assert asyncio.run(reviews.status(hub, room)) == {"status": "running", "done": 4,
                                                      "total": 9}
    assert asked == []  # the moves of every game wait for the store's one thread
    hub.analysis_jobs["g1"].error = "the worker died"  # failed, or stored by another process
    assert asyncio.run(reviews.status(hub, room)) == {"status": "done", "turns": [{"turn": 0}]}
    del stored["g1"]
    assert asyncio.run(reviews.status(hub, room)) == {"status": "failed",
                                                      "error": "the worker died"}
    hub.analysis_jobs.clear()
    assert asyncio.run(reviews.status(hub, room)) == {"status": "none"}
    assert asked == ["g1"] * 3
