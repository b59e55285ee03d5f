"""The parts the live game's Hub composes, each on its own: the batched turn writer, the
background tasks, the splicing of the clocks into a message, and entrant numbers."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from kingscrib.web.db.storage import TurnWrite
from kingscrib.web.play.background import Background
from kingscrib.web.play.db_thread import DbThread
from kingscrib.web.play.turn_writer import TurnWriter
from kingscrib.web.play.views import spliced
from kingscrib.web.tournaments.director import entrant_number


class SlowStore:
    """Records each batch; the first batch waits until released, so writes pile up."""

    def __init__(self) -> None:
        self.batches: list[list[str]] = []
        self.release = threading.Event()

    def write_batch(self, writes: list[TurnWrite]) -> list[Exception | None]:
        if not self.batches:
            self.release.wait(5)
        self.batches.append([w.game_id for w in writes])
        return [ValueError("refused") if w.game_id == "bad" else None for w in writes]


def _write(game_id: str) -> TurnWrite:
    return TurnWrite(game_id, 0, {"seat": 0}, new=True, over=False)


def test_turns_arriving_during_a_commit_go_together_in_the_next_one() -> None:
    async def main() -> list[Any]:
        store = SlowStore()
        db = DbThread()
        writer = TurnWriter(store, db)
        first = asyncio.create_task(writer.write(_write("a")))
        await asyncio.sleep(0.05)  # "a" is being committed
        rest = [asyncio.create_task(writer.write(_write(g))) for g in ("b", "bad", "c")]
        await asyncio.sleep(0.05)
        store.release.set()
        results = await asyncio.gather(first, *rest, return_exceptions=True)
        db.shutdown()
        assert store.batches == [["a"], ["b", "bad", "c"]]
        return results

    results = asyncio.run(main())
    assert results[0] is None and results[1] is None and results[3] is None
    assert isinstance(results[2], ValueError)


def test_background_work_runs_and_is_cancelled_when_the_server_stops() -> None:
    async def main() -> tuple[bool, bool]:
        background = Background()
        done, cancelled = asyncio.Event(), asyncio.Event()

        async def quick() -> None:
            done.set()

        async def forever() -> None:
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                cancelled.set()
                raise

        background.start(quick())
        background.start(forever())
        await asyncio.wait_for(done.wait(), 5)
        background.cancel_all()
        await asyncio.wait_for(cancelled.wait(), 5)
        return done.is_set(), cancelled.is_set()

    assert asyncio.run(main()) == (True, True)


def test_the_clocks_are_spliced_into_text_and_dict_messages_alike() -> None:
    extra = ',"clock":null,"result":null'
    assert spliced('{"type":"state","state":{"a":1}}', extra) == (
        '{"type":"state","state":{"a":1,"clock":null,"result":null}}')
    assert spliced({"type": "update", "update": {"a": 1}}, extra) == {
        "type": "update", "update": {"a": 1, "clock": None, "result": None}}
    assert spliced({"type": "error"}, extra) == {"type": "error"}


def test_an_entrant_is_paired_by_its_number() -> None:
    assert entrant_number(7) == 7
    with pytest.raises(TypeError):
        entrant_number("seven")
