"""The fair scheduler of the server's CPU work (kingscrib.web.work): the order jobs start
in, checked deterministically (jobs block on events the test releases one at a time)."""

from __future__ import annotations

import asyncio
import threading

import pytest

from kingscrib.web.errors import WebError
from kingscrib.web.work import COMPUTERS, PEOPLE, Lane, Work


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


def submit(lane: Lane, rec: Recorder, name: str, address: str, game: str = "g",
           priority: int = 0) -> asyncio.Task:
    return asyncio.ensure_future(lane.run(rec.job, name, address=address, game=game,
                                          priority=priority))


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


def test_people_s_games_go_first_and_always_find_a_thread() -> None:
    """Two threads: the games of computers only get one of them, however many wait, so a
    person's game starts at once; and it goes before the computers' waiting jobs."""
    async def scenario() -> None:
        lane, rec = Lane("moves", 2, most={COMPUTERS: 1}), Recorder()
        bots = [submit(lane, rec, f"bot{i}", f"10.0.0.{i}", priority=COMPUTERS)
                for i in range(1, 4)]
        await settle()
        await rec.started_count(1)
        await asyncio.sleep(0.05)
        assert rec.started == ["bot1"]  # the second thread stays free for people
        person = submit(lane, rec, "person", "10.9.9.9", priority=PEOPLE)
        await rec.started_count(2)
        assert rec.started == ["bot1", "person"]  # at once, beside the running bot
        second = submit(lane, rec, "person2", "10.9.9.8", priority=PEOPLE)
        await settle()
        rec.release("bot1")  # the freed thread goes to the waiting person, not a bot
        await rec.started_count(3)
        assert rec.started[2] == "person2"
        for name in ("person", "person2"):
            rec.release(name)
        await run_in_order(lane, rec, ["bot1", "person", "person2", "bot2", "bot3"])
        await asyncio.gather(person, second, *bots)
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


def test_the_queue_depths_of_each_lane() -> None:
    async def scenario() -> None:
        work, rec = Work(move_threads=2, review_threads=1), Recorder()
        assert work.depths() == {"moves": {"waiting": 0, "running": 0},
                                 "reviews": {"waiting": 0, "running": 0}}
        moves = [asyncio.ensure_future(work.move(rec.job, f"m{i}", address="A", game=f"g{i}",
                                                 people=False)) for i in range(3)]
        review = asyncio.ensure_future(work.review(rec.job, "r", address="B"))
        await rec.started_count(2)
        await settle()
        assert work.depths() == {"moves": {"waiting": 2, "running": 1},
                                 "reviews": {"waiting": 0, "running": 1}}
        for name in ("m0", "m1", "m2", "r"):
            rec.release(name)
        await asyncio.gather(*moves, review)
        assert work.depths()["moves"] == {"waiting": 0, "running": 0}
        work.shutdown()

    asyncio.run(scenario())
