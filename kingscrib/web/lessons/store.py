"""An account's finished lessons (the tutorial's progress), one row a lesson.

A guest's progress stays in the browser (localStorage); once logged in, the page sends
it here and the two are merged: a lesson finished anywhere stays finished. The rows go
with the account when it is deleted (``ON DELETE CASCADE``).
"""

from __future__ import annotations

import time

from sqlalchemy import Column, Float, ForeignKey, Integer, String, Table, insert, select
from sqlalchemy.engine import Engine

from kingscrib.learn import GAMES
from kingscrib.learn import progress as learn_progress
from kingscrib.learn.progress import MAX_ID, Progress
from kingscrib.web.db.tables import metadata

learn_progress_rows = Table(
    "learn_progress", metadata,
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"),
           primary_key=True),
    Column("game", String(16), primary_key=True),
    Column("lesson", String(MAX_ID), primary_key=True),
    Column("finished", Float, nullable=False),
)


def progress_of(engine: Engine, account_id: int) -> Progress:
    """The account's finished lessons by game."""
    out = learn_progress.empty()
    with engine.connect() as conn:
        rows = conn.execute(select(learn_progress_rows.c.game, learn_progress_rows.c.lesson)
                            .where(learn_progress_rows.c.account_id == account_id)).all()
    for game, lesson in rows:
        if game in GAMES:
            out[game].append(lesson)
    return {game: sorted(done) for game, done in out.items()}


def add_progress(engine: Engine, account_id: int, progress: Progress,
                 now: float | None = None) -> Progress:
    """Keep the lessons of ``progress`` the account had not finished; returns them all."""
    now = time.time() if now is None else now
    with engine.begin() as conn:
        have = {(g, lesson) for g, lesson in conn.execute(
            select(learn_progress_rows.c.game, learn_progress_rows.c.lesson)
            .where(learn_progress_rows.c.account_id == account_id)).all()}
        new = [{"account_id": account_id, "game": game, "lesson": lesson, "finished": now}
               for game, done in progress.items() for lesson in done
               if (game, lesson) not in have]
        if new:
            conn.execute(insert(learn_progress_rows), new)
    return progress_of(engine, account_id)
