"""What the parts of :class:`kingscrib.web.db.storage.Store` share: the database engine,
whether several server processes share it (PostgreSQL), and this process's name."""

from __future__ import annotations

from sqlalchemy.engine import Engine


class StoreBase:
    """The attributes every part of the store reads (set by ``Store.__init__``)."""

    engine: Engine
    url: str
    shared: bool  # PostgreSQL: several server processes may share the database
    instance: str  # this process, in the notes it sends and the rows it counts
