"""The ``--backend`` and ``--address`` options of the commands that play many games."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import click

from kingscrib.common.backends import BACKENDS, LOCAL, Backend

F = TypeVar("F", bound=Callable[..., object])


def backend_options(command: F) -> F:
    """Add ``--backend`` and ``--address`` to a click command; it receives ``backend``
    and ``address`` and builds its :class:`Backend` with :func:`backend_from_options`."""
    command = click.option(
        "--address", default=None, metavar="ADDRESS",
        help="The Ray cluster to join (auto, or ray://HEAD:10001); with --backend ray.")(command)
    return click.option(
        "--backend", type=click.Choice(BACKENDS), default=LOCAL, show_default=True,
        help="Where the games run: local processes, or Ray (a cluster with --address, "
             "else a Ray started on this machine).")(command)


def backend_from_options(backend: str, address: str | None, workers: int | None) -> Backend:
    """The :class:`Backend` of the command-line options (a precise error if they clash)."""
    try:
        return Backend(backend, workers, address)
    except ValueError as e:
        raise click.UsageError(str(e)) from None


__all__ = ["backend_from_options", "backend_options"]
