"""Readiness: can this process serve games now? (Liveness is only that it answers.)

Ready when the database answers, its schema is at the revision this code expects, and
(PostgreSQL) the LISTEN connection that brings other processes' moves is up. Each check
says in words what is wrong; a balancer sends traffic only to ready processes.
"""

from __future__ import annotations

import asyncio

from kingscrib.web.db import schema
from kingscrib.web.errors import WebError
from kingscrib.web.play.rooms import Hub

OK = "ok"


async def readiness(hub: Hub, timeout: float = 2.0) -> dict[str, str]:
    """Each check's name and "ok", or what is wrong."""
    checks: dict[str, str] = {}
    try:
        revision = await asyncio.wait_for(hub.db_call(schema.current, hub.store.engine),
                                          timeout)
    except TimeoutError:
        checks["database"] = f"no answer within {timeout:g} s"
        checks["migrations"] = "unknown: the database did not answer"
    except WebError:  # (kingscrib.web.server.outage: the database cannot be reached)
        checks["database"] = "cannot be reached"
        checks["migrations"] = "unknown: the database cannot be reached"
    except Exception as e:
        checks["database"] = f"the check failed ({type(e).__name__})"
        checks["migrations"] = "unknown: the database check failed"
    else:
        checks["database"] = OK
        expected = schema.head()
        checks["migrations"] = OK if revision == expected else (
            f"the database is at revision {revision or 'none'}, this server expects"
            f" {expected}: run kingscrib db upgrade")
    if hub.store.shared:
        checks["listener"] = OK if hub.store.listening else (
            "the PostgreSQL LISTEN connection is down (reconnecting): moves made through"
            " other processes are not heard")
    return checks
