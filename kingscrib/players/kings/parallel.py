"""Running many independent jobs (games) on all cores or a Ray cluster, in order, with a
progress bar."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from kingscrib.backends import Backend, current_backend, run_jobs

T = TypeVar("T")
R = TypeVar("R")


def default_workers() -> int:
    return os.cpu_count() or 1


def run_parallel(fn: Callable[[T], R], jobs: Sequence[T], workers: int | None = None,
                 progress: Any = None, description: str = "games",
                 on_result: Callable[[R], None] | None = None) -> list[R]:
    """``[fn(job) for job in jobs]`` computed by ``workers`` processes (all cores by
    default; 1 runs in this process), or on the backend the command chose
    (:mod:`kingscrib.backends`, e.g. a Ray cluster). Results come back in job order, so
    anything built from them is reproducible. ``progress`` is a ``rich.progress.Progress``
    or None."""
    backend = current_backend() or Backend()
    if workers is not None:
        backend = replace(backend, workers=workers)
    return run_jobs(fn, jobs, backend, progress, description, on_result)
