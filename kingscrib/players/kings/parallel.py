"""``run_parallel``, documented here: it lives with the other ways of running many games
in :mod:`kingscrib.common.backends`."""

from kingscrib.common.backends import run_parallel

__all__ = ["run_parallel"]
