"""Analyses of finished games computed in the background: started by a request, run in the
computer players' worker threads, their progress readable meanwhile, stored once done."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any

from kingscrib.web import metrics
from kingscrib.web.rooms import Hub, Room

log = logging.getLogger("kingscrib.web")


@dataclass
class Job:
    total: int
    done: int = 0
    error: str | None = None
    task: asyncio.Task | None = field(default=None, repr=False)


def _jobs(hub: Hub) -> dict[str, Job]:
    if not hasattr(hub, "analysis_jobs"):
        hub.analysis_jobs = {}
    return hub.analysis_jobs


def _input(room: Room) -> tuple[int, Any]:
    """Steps and input of the analysis, for games that offer one (once the game is over,
    by its rules or by a resignation or a clock)."""
    session = room.game
    if "analysis" not in session.offers:
        raise session.refusal("analysis")
    seats = [{"kind": s.kind, **({"level": s.level} if s.level else {})} for s in room.seats]
    return session.analysis_input(seats, ended=room.result is not None)


async def status(hub: Hub, room: Room) -> dict[str, Any]:
    """``{"status": "done", "turns": [...]}``, ``{"status": "running", "done", "total"}``,
    ``{"status": "failed", "error"}`` or ``{"status": "none"}``."""
    stored = await hub._db_call(hub.store.analysis, room.id)
    if stored is not None:
        return {"status": "done", "turns": stored}
    job = _jobs(hub).get(room.id)
    if job is None:
        return {"status": "none"}
    if job.error:
        return {"status": "failed", "error": job.error}
    return {"status": "running", "done": job.done, "total": job.total}


async def start(hub: Hub, room: Room) -> dict[str, Any]:
    """Start the analysis of a finished game unless it is done or running."""
    total, inputs = _input(room)
    analyse = room.game.analyse
    current = await status(hub, room)
    if current["status"] in ("done", "running"):
        return current
    job = Job(total=total)
    _jobs(hub)[room.id] = job

    def progress(done: int, total: int) -> None:
        # read by status(); int assignments are atomic. The total may be known only once
        # the analysis runs (Cribbage: the decisions with a choice).
        job.done, job.total = done, total

    async def run() -> None:
        try:
            with metrics.queued("analysis"):
                rows = await hub._think(analyse, inputs, progress)
            await hub._db_call(hub.store.set_analysis, room.id, rows)
            _jobs(hub).pop(room.id, None)
        except Exception as e:  # kept for the page to show; the game itself is untouched
            if await hub._db_call(hub.store.analysis, room.id) is not None:
                _jobs(hub).pop(room.id, None)  # another server process stored it first
                return
            log.exception("analysis of %s failed", room.id)
            job.error = str(e) or type(e).__name__

    job.task = asyncio.get_running_loop().create_task(run())
    return {"status": "running", "done": 0, "total": job.total}
