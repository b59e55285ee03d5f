"""Running many independent jobs (games) on all cores, in order, with a progress bar."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def default_workers() -> int:
    return os.cpu_count() or 1


def run_parallel(fn: Callable[[T], R], jobs: Sequence[T], workers: int | None = None,
                 progress: Any = None, description: str = "games",
                 on_result: Callable[[R], None] | None = None) -> list[R]:
    """``[fn(job) for job in jobs]`` computed by ``workers`` processes (all cores by
    default; 1 runs in this process). Results come back in job order, so anything built
    from them is reproducible. ``progress`` is a ``rich.progress.Progress`` or None."""
    workers = default_workers() if workers is None else max(1, workers)
    task = progress.add_task(description, total=len(jobs)) if progress is not None else None
    results: list[R] = []

    def done(result: R) -> None:
        results.append(result)
        if on_result is not None:
            on_result(result)
        if progress is not None:
            progress.advance(task)

    if workers == 1 or len(jobs) <= 1:
        for job in jobs:
            done(fn(job))
        return results
    import multiprocessing

    ctx = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
    with ctx.Pool(workers) as pool:
        for result in pool.imap(fn, jobs, chunksize=1):
            done(result)
    return results
