"""Limits counted for all server processes on one PostgreSQL: open websockets and games
created per address, and the beat that forgets the processes gone silent."""

from __future__ import annotations

import hashlib

from sqlalchemy import delete, func, insert, select, text
from sqlalchemy.engine import Connection

from kingscrib.web.db.store_base import StoreBase
from kingscrib.web.db.tables import address_games, address_sockets, alive


def address_key(address: str) -> str:
    return hashlib.sha256(address.encode("utf-8", "replace")).hexdigest()


def lock_address(conn: Connection, key: str) -> None:
    """Serialise the limit checks of one address across processes until the commit."""
    conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:k))"), {"k": key})


class SharedCounts(StoreBase):
    """The store's calls on the shared counts (PostgreSQL)."""

    def heartbeat(self, now: float, dead_after: float) -> int:
        """Say this process is alive; forget the processes (and their open websockets)
        not heard from for ``dead_after`` seconds, and the game creations over an hour
        old. Returns how many processes are alive."""
        with self.engine.begin() as conn:
            conn.execute(text(
                "INSERT INTO alive (name, at) VALUES (:i, :now)"
                " ON CONFLICT (name) DO UPDATE SET at = :now"),
                {"i": self.instance, "now": now})
            dead = [r.name for r in conn.execute(
                select(alive.c.name).where(alive.c.name != "stopped",
                                           alive.c.at < now - dead_after))]
            if dead:
                conn.execute(delete(address_sockets)
                             .where(address_sockets.c.instance.in_(dead)))
                conn.execute(delete(alive).where(alive.c.name.in_(dead)))
            conn.execute(delete(address_games).where(address_games.c.at < now - 3600))
            return conn.execute(select(func.count()).select_from(alive)
                                .where(alive.c.name != "stopped")).scalar_one()

    def leave(self) -> None:
        """This process stops: its open websockets are no longer counted."""
        with self.engine.begin() as conn:
            conn.execute(delete(address_sockets)
                         .where(address_sockets.c.instance == self.instance))
            conn.execute(delete(alive).where(alive.c.name == self.instance))

    def open_socket(self, address: str, limit: int) -> bool:
        """Count a websocket of ``address`` opened here, unless the address has ``limit``
        open through all processes together (False then, nothing counted)."""
        key = address_key(address)
        with self.engine.begin() as conn:
            lock_address(conn, key)
            opened = conn.execute(text(
                "INSERT INTO address_sockets (instance, address, n)"
                " SELECT CAST(:i AS VARCHAR), CAST(:a AS VARCHAR), 1"
                " WHERE (SELECT coalesce(sum(n), 0) FROM address_sockets"
                " WHERE address = :a) < :limit"
                " ON CONFLICT (instance, address) DO UPDATE SET n = address_sockets.n + 1"
                " RETURNING n"), {"i": self.instance, "a": key, "limit": limit}).first()
        return opened is not None

    def close_socket(self, address: str) -> None:
        key = address_key(address)
        with self.engine.begin() as conn:
            conn.execute(text("UPDATE address_sockets SET n = n - 1"
                              " WHERE instance = :i AND address = :a"),
                         {"i": self.instance, "a": key})
            conn.execute(text("DELETE FROM address_sockets"
                              " WHERE instance = :i AND address = :a AND n <= 0"),
                         {"i": self.instance, "a": key})

    def allow_game(self, address: str, per_hour: int, now: float) -> bool:
        """Count a game created by ``address`` unless it created ``per_hour`` in the last
        hour through all processes together (False then, nothing counted)."""
        key = address_key(address)
        with self.engine.begin() as conn:
            lock_address(conn, key)
            made = conn.execute(select(func.count()).select_from(address_games).where(
                address_games.c.address == key, address_games.c.at > now - 3600)).scalar_one()
            if made >= per_hour:
                return False
            conn.execute(insert(address_games).values(address=key, at=now))
        return True

    def give_back_game(self, address: str) -> None:
        """Uncount the last game counted for ``address`` (its creation was refused)."""
        key = address_key(address)
        with self.engine.begin() as conn:
            lock_address(conn, key)
            last = select(func.max(address_games.c.id)).where(
                address_games.c.address == key).scalar_subquery()
            conn.execute(delete(address_games).where(address_games.c.id == last))
