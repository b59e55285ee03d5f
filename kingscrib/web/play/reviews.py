"""Analyses of finished games computed in the background: started by a player of the game
(or the creator of a game of computers only), run in the lane of analyses and replays
(:mod:`kingscrib.web.play.work`), their progress readable by anyone meanwhile, stored once
done."""

from __future__ import annotations

import hmac
import logging
from typing import Any

from kingscrib.web.db.storage import hash_secret
from kingscrib.web.errors import WebError
from kingscrib.web.play.review_jobs import Job
from kingscrib.web.play.room import Room
from kingscrib.web.play.rooms import Hub
from kingscrib.web.server import metrics

log = logging.getLogger("kingscrib.web")


def _jobs(hub: Hub) -> dict[str, Job]:
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
    job = _jobs(hub).get(room.id)
    if job is not None and job.error is None:
        # Running here: answered without the store, whose one thread the moves of every
        # game wait for (a page polling its analysis must not delay them).
        return {"status": "running", "done": job.done, "total": job.total}
    stored = await hub.db_call(hub.store.analysis, room.id)
    if stored is not None:
        return {"status": "done", "turns": stored}
    if job is None:
        return {"status": "none"}
    if job.error:
        return {"status": "failed", "error": job.error}
    return {"status": "running", "done": job.done, "total": job.total}


def may_ask(room: Room, seat: int | None, invite: str | None) -> None:
    """An analysis costs seconds of the server's CPU: only a seat of the game may start
    one, or, in a game of computers only (no seat to hold), whoever has its invite code,
    which only its creator was given. 403 for anyone else."""
    if seat is not None:
        return
    if not room.people and invite and hmac.compare_digest(hash_secret(invite),
                                                          room.invite_hash):
        return
    raise WebError(403, "only a player of this game can ask for its analysis (in a game of"
                        " computers only, whoever created it, with its invite code)")


async def start(hub: Hub, room: Room, address: str, seat: int | None,
                invite: str | None = None) -> dict[str, Any]:
    """Start the analysis of a finished game unless it is done or running: asked by
    ``seat`` (or with the ``invite`` of a game of computers only, see :func:`may_ask`)
    from ``address``, whose work it is (429 past its analyses and replays waiting)."""
    total, inputs = _input(room)
    may_ask(room, seat, invite)
    analyse = room.game.analyse
    current = await status(hub, room)
    if current["status"] in ("done", "running"):
        return current
    if hub.work.reviews.busy(address, hub.work.reviews_waiting):
        raise hub.work.reviews.refusal(address)
    job = Job(total=total)
    _jobs(hub)[room.id] = job

    def progress(done: int, total: int) -> None:
        # read by status(); int assignments are atomic. The total may be known only once
        # the analysis runs (Cribbage: the decisions with a choice).
        job.done, job.total = done, total

    async def run() -> None:
        try:
            with metrics.queued("analysis"):
                rows = await hub.work.review(analyse, inputs, address=address, game=room.id,
                                             progress=progress)
            await hub.db_call(hub.store.set_analysis, room.id, rows)
            _jobs(hub).pop(room.id, None)
        except Exception as e:  # kept for the page to show; the game itself is untouched
            if await hub.db_call(hub.store.analysis, room.id) is not None:
                _jobs(hub).pop(room.id, None)  # another server process stored it first
                return
            log.exception("analysis of %s failed", room.id)
            job.error = str(e) or type(e).__name__

    hub.background.start(run())  # cancelled when the server stops
    return {"status": "running", "done": 0, "total": job.total}
