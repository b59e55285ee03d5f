"""Prometheus metrics of one server process, served at ``/metrics``.

Each ``kingscrib serve`` process counts for itself and serves its own ``/metrics``
(scrape every process; Prometheus's ``instance`` label tells them apart, ``sum``
adds them up). Prometheus's multiprocess mode is for workers sharing one port, which
kingscrib's processes never do.

The code that does the counted thing calls the helpers below; nothing here reads the
rest of the server.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
)

disable_created_metrics()  # the *_created series say only when the process started

MOVES = Counter("kingscrib_moves", "Moves stored (people's and computers'), by game.",
                ["game"])
MOVE_SECONDS = Histogram(
    "kingscrib_move_seconds",
    "A person's move: from reaching the server to the update sent to every listener"
    " (the game's check, the store's commit, the pushes), by game.",
    ["game"], buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
                       2.5, 5.0))
WEBSOCKETS = Gauge("kingscrib_websockets_open", "Websockets open on this process.")
WORK = Gauge("kingscrib_work_queued",
             "Work handed to a pool and not finished (waiting or running), by queue:"
             " computer (computer seats' moves), analysis, hint, store (turns waiting for"
             " their commit).", ["queue"])
REFUSALS = Counter("kingscrib_refusals",
                   "Requests, messages and websockets refused by a limit, by the limit's"
                   " name (the --limit names, and max_body, max_message).", ["limit"])
LISTENER_RECONNECTS = Counter(
    "kingscrib_listener_reconnects",
    "Times the PostgreSQL LISTEN connection was made again after it was lost.")
LISTENER_CONNECTED = Gauge("kingscrib_listener_connected",
                           "1 while the PostgreSQL LISTEN connection is up (0 on SQLite).")

QUEUES = ("computer", "analysis", "hint", "store")
for _queue in QUEUES:  # every queue shows, at 0, before its first job
    WORK.labels(queue=_queue)


def moved(game: str) -> None:
    MOVES.labels(game=game).inc()


def refused(limit: str) -> None:
    """A limit refused something (``limit``: its name, as ``--limit`` spells it)."""
    REFUSALS.labels(limit=limit).inc()


def set_queue_depth(queue: str, depth: int) -> None:
    """For a work queue that knows its own depth: the jobs waiting or running now."""
    WORK.labels(queue=queue).set(depth)


@contextmanager
def queued(queue: str) -> Iterator[None]:
    """Counts a job in ``queue`` from handing it over to its end."""
    gauge = WORK.labels(queue=queue)
    gauge.inc()
    try:
        yield
    finally:
        gauge.dec()


def listener_up(again: bool) -> None:
    """The LISTEN connection is up (``again``: after having been lost)."""
    LISTENER_CONNECTED.set(1)
    if again:
        LISTENER_RECONNECTS.inc()


def listener_down() -> None:
    LISTENER_CONNECTED.set(0)


def exposition() -> tuple[bytes, str]:
    """The text Prometheus scrapes, and its content type."""
    return generate_latest(), CONTENT_TYPE_LATEST
