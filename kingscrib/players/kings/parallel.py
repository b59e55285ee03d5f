"""``run_parallel``, documented here: it lives with the other ways of running many games
in :mod:`kingscrib.arena.backends`."""

from kingscrib.arena.backends import run_parallel

__all__ = ["run_parallel"]
