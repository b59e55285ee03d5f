"""Where many independent jobs (games) run: local processes (the default) or a Ray cluster.

Every command that plays many games (``kingscrib tournament``, ``kingscrib classic
tournament``, ``kingscrib train-leaves``, ``kingscrib puzzles``) hands its jobs to
:func:`run_jobs`; the command-line options that choose the backend are in
:mod:`kingscrib.cli.backend_options`. Results
always come back in job order, so the same seeds give the same results on either
backend.

>>> run_jobs(abs, [-2, 3, -5], Backend(workers=1))
[2, 3, 5]

With ``Backend("ray")`` the jobs go to Ray in chunks: to the cluster at ``address``
(``"auto"`` for the one this machine belongs to, ``"ray://head:10001"`` for a remote
one), or to a Ray started on this machine when no address is given. Ray comes with the
``rl`` extra; docs/rl.md explains how to start a cluster.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from ray._private.worker import RemoteFunction1

T = TypeVar("T")
R = TypeVar("R")

LOCAL, RAY = "local", "ray"
BACKENDS = (LOCAL, RAY)
JOBS_PER_TASK = 16  # games per Ray task at most: enough to hide the cost of a task


@dataclass(frozen=True)
class Backend:
    """``name`` is ``local`` or ``ray``; ``workers`` caps the processes (local) or CPUs
    of a Ray started here; ``address`` is the Ray cluster to join."""

    name: str = LOCAL
    workers: int | None = None
    address: str | None = None

    def __post_init__(self) -> None:
        if self.name not in BACKENDS:
            raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, not {self.name!r}")
        if self.address is not None and self.name != RAY:
            raise ValueError("--address names a Ray cluster: use it with --backend ray")


class BackendError(click.ClickException):
    """The backend cannot run the jobs (Ray missing, no cluster at the address); the
    message says why. A click exception, since the jobs of a command run deep below it:
    any command line shows it as an error, without a traceback."""


_current: ContextVar[Backend | None] = ContextVar("kingscrib_backend", default=None)


@contextlib.contextmanager
def use_backend(backend: Backend) -> Iterator[Backend]:
    """Within the block, :func:`current_backend` is ``backend`` (for code that runs jobs
    deep below a command, such as a tournament or the leave training)."""
    token = _current.set(backend)
    try:
        yield backend
    finally:
        _current.reset(token)


def current_backend() -> Backend | None:
    """The backend chosen by the enclosing :func:`use_backend`, if any."""
    return _current.get()


def run_jobs(fn: Callable[[T], R], jobs: Sequence[T], backend: Backend | None = None,
             progress: Any = None, description: str = "games",
             on_result: Callable[[R], None] | None = None) -> list[R]:
    """``[fn(job) for job in jobs]`` on ``backend`` (the current one, else local
    processes), in job order. ``progress`` is a ``rich.progress.Progress`` or None;
    ``on_result`` sees each result, in job order."""
    backend = backend or current_backend() or Backend()
    if backend.name == RAY:
        return _run_ray(fn, jobs, backend, progress, description, on_result)
    return _run_local(fn, jobs, backend.workers, progress, description, on_result)


def run_parallel(fn: Callable[[T], R], jobs: Sequence[T], workers: int | None = None,
                 progress: Any = None, description: str = "games",
                 on_result: Callable[[R], None] | None = None) -> list[R]:
    """:func:`run_jobs` on the current backend with ``workers`` processes (all cores by
    default; 1 runs in this process) or Ray CPUs."""
    backend = current_backend() or Backend()
    if workers is not None:
        backend = replace(backend, workers=workers)
    return run_jobs(fn, jobs, backend, progress, description, on_result)


def _run_local(fn: Callable[[T], R], jobs: Sequence[T], workers: int | None, progress: Any,
               description: str, on_result: Callable[[R], None] | None) -> list[R]:
    workers = (os.cpu_count() or 1) if workers is None else max(1, workers)
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


def _run_chunk(fn: Callable[[T], R], chunk: Sequence[T]) -> list[R]:
    return [fn(job) for job in chunk]


def _run_ray(fn: Callable[[T], R], jobs: Sequence[T], backend: Backend, progress: Any,
             description: str, on_result: Callable[[R], None] | None) -> list[R]:
    try:
        import ray
    except ImportError:
        raise BackendError('the Ray backend needs Ray: pip install "kingscrib[rl]"') from None
    started = False
    if not ray.is_initialized():
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if backend.address is not None:
            options["address"] = backend.address
        elif backend.workers is not None:
            options["num_cpus"] = backend.workers
        try:
            ray.init(**options)
        except (ConnectionError, ValueError, RuntimeError) as e:
            where = f"the Ray cluster at {backend.address!r}" if backend.address else "Ray"
            raise BackendError(f"cannot start or join {where}: {e}") from None
        started = True
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        size = max(1, min(JOBS_PER_TASK, len(jobs) // (cpus * 4) or 1))
        chunks = [jobs[i:i + size] for i in range(0, len(jobs), size)]
        task = progress.add_task(description, total=len(jobs)) if progress is not None else None
        remote: RemoteFunction1[list[R], Callable[[T], R], Sequence[T]] = ray.remote(_run_chunk)
        fn_ref = ray.put(fn)
        pending = {remote.remote(fn_ref, chunk): k for k, chunk in enumerate(chunks)}
        finished: dict[int, list[R]] = {}
        results: list[R] = []
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                k = pending.pop(ref)
                finished[k] = ray.get(ref)
                if progress is not None:
                    progress.advance(task, len(chunks[k]))
            # hand results on in job order, as soon as the chunks before them are in
            while len(results) < len(jobs) and (len(results) // size) in finished:
                for result in finished.pop(len(results) // size):
                    results.append(result)
                    if on_result is not None:
                        on_result(result)
        return results
    finally:
        if started:
            ray.shutdown()


__all__ = ["BACKENDS", "Backend", "BackendError", "LOCAL", "RAY", "current_backend", "run_jobs",
           "run_parallel", "use_backend"]
