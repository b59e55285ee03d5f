"""Migrate the database in a short-lived child process before the server starts.

A server process runs for days; Alembic, once imported, stays in its memory (about
10 MB a process). So ``kingscrib serve`` opens the store once in a forked child, which
brings the schema to the newest revision (:mod:`kingscrib.web.db.schema`) and exits; the
server's own store then finds the database up to date with one query and never loads
Alembic. Whatever goes wrong in the child is left to the server's own start, which
migrates in its process as before and reports any error there.
"""

from __future__ import annotations

import logging
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

log = logging.getLogger("kingscrib.web")


def migrate_apart(url: str | None) -> bool:
    """Bring the database at ``url`` to the newest schema in a forked child process.
    True when the child did it; False where fork is not available or the child failed
    (the server's store then migrates, and reports, in its own process)."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return False
    try:
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as pool:
            pool.submit(_open_store, url).result()
    except Exception as e:
        log.info("migrating in a child process failed (%s): the server migrates itself",
                 type(e).__name__)
        return False
    return True


def _open_store(url: str | None) -> None:
    from kingscrib.web.db.storage import Store

    Store(url).close()
