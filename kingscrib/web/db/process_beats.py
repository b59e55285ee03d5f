"""Which server processes are alive: each notes the moment now and then, and a clean stop;
after a restart the running clocks are moved on by the time no process was alive."""

from __future__ import annotations

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection

from kingscrib.web.db.store_base import StoreBase
from kingscrib.web.db.tables import alive, clocks


class ProcessBeats(StoreBase):
    """The store's calls on the ``alive`` table."""

    def note_alive(self, now: float) -> None:
        """This process is alive at ``now`` (see :meth:`restart_clocks`)."""
        with self.engine.begin() as conn:
            self._note_alive(conn, self.instance, now)

    def _note_alive(self, conn: Connection, name: str, now: float) -> None:
        done = conn.execute(update(alive).where(alive.c.name == name).values(at=now))
        if done.rowcount != 1:
            conn.execute(insert(alive).values(name=name, at=now))

    def stopping(self, now: float) -> None:
        """This process stops (cleanly) at ``now``."""
        with self.engine.begin() as conn:
            conn.execute(delete(alive).where(alive.c.name == self.instance))
            self._note_alive(conn, "stopped", now)

    def restart_clocks(self, now: float, stale: float) -> float:
        """At start-up: when no other process said it was alive in the last ``stale``
        seconds, no server ran since the last word of one (its heartbeat, or its clean
        stop); every running clock is moved on by that time, so nobody is charged for the
        outage. Returns the seconds given back."""
        with self.engine.begin() as conn:
            rows = conn.execute(select(alive)).all()
            others = [r.at for r in rows if r.name != "stopped" and r.at > now - stale]
            last = max((r.at for r in rows), default=now)
            gap = 0.0 if others else max(0.0, now - last)
            if gap:
                conn.execute(update(clocks).where(clocks.c.due.is_not(None))
                             .values(started=clocks.c.started + gap, due=clocks.c.due + gap))
            conn.execute(delete(alive).where(alive.c.name != "stopped",
                                             alive.c.at <= now - stale))
            self._note_alive(conn, self.instance, now)
        return gap
