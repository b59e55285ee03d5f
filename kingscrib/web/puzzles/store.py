"""Stored puzzle ratings: an account's rating and streak per game, each puzzle's rating
once answers have moved it from its prior, and which puzzles each account has answered.

Guests keep their own rating in the browser and send it with an answer; nothing a guest
sends is stored, and only an account's first answer to a puzzle moves the puzzle's
rating (one account cannot push a puzzle around by answering it again and again).

The functions take the store's engine and run in its thread, as
:mod:`kingscrib.web.accounts.store` does.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    delete,
    insert,
    select,
)
from sqlalchemy.engine import Connection, Engine, Row
from sqlalchemy.exc import IntegrityError

from kingscrib.web.db.rows import save_row
from kingscrib.web.db.tables import metadata
from kingscrib.web.ratings.puzzle_ratings import Rating


def _rating_columns() -> list[Column[float]]:
    """A Glicko-2 rating's columns (new ones for each table: a column has one table)."""
    return [Column(name, Float, nullable=False) for name in ("rating", "rd", "vol")]


def _rating_of(row: Row[Any]) -> Rating:
    return Rating(row.rating, row.rd, row.vol)


def _rating_values(rating: Rating) -> dict[str, float]:
    return {"rating": rating.rating, "rd": rating.rd, "vol": rating.vol}


puzzle_players = Table(
    "puzzle_players", metadata,
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("game", String(16), primary_key=True),
    *_rating_columns(),
    Column("streak", Integer, nullable=False),
    Column("best_streak", Integer, nullable=False),
    Column("tried", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
)
puzzle_ratings = Table(
    "puzzle_ratings", metadata,
    Column("puzzle_id", String(64), primary_key=True),
    *_rating_columns(),
    Column("answers", Integer, nullable=False),
)
puzzle_answers = Table(
    "puzzle_answers", metadata,
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("puzzle_id", String(64), primary_key=True),
    Column("was_right", Boolean, nullable=False),
    Column("at", Float, nullable=False),
)


@dataclass(frozen=True)
class Standing:
    """A player's puzzle rating and record in one game."""

    rating: Rating = Rating()
    streak: int = 0
    best_streak: int = 0
    tried: int = 0
    solved: int = 0

    def after(self, rating: Rating, right: bool) -> Standing:
        streak = self.streak + 1 if right else 0
        return Standing(rating, streak, max(self.best_streak, streak), self.tried + 1,
                        self.solved + int(right))

    def to_json(self) -> dict[str, float | int]:
        return {**_rating_values(self.rating), "streak": self.streak,
                "best_streak": self.best_streak, "tried": self.tried, "solved": self.solved}


def _standing(conn: Connection, account_id: int, game: str) -> Standing | None:
    row = conn.execute(select(puzzle_players).where(
        puzzle_players.c.account_id == account_id, puzzle_players.c.game == game)).first()
    if row is None:
        return None
    return Standing(_rating_of(row), row.streak, row.best_streak, row.tried, row.solved)


def standing(engine: Engine, account_id: int, game: str) -> Standing:
    with engine.connect() as conn:
        return _standing(conn, account_id, game) or Standing()


def answered(engine: Engine, account_id: int) -> set[str]:
    """The puzzles the account has answered (they are not served to it again)."""
    with engine.connect() as conn:
        return set(conn.execute(select(puzzle_answers.c.puzzle_id)
                                .where(puzzle_answers.c.account_id == account_id)).scalars())


def moved_ratings(engine: Engine) -> dict[str, Rating]:
    """The puzzles whose rating answers have moved from its prior."""
    with engine.connect() as conn:
        return {r.puzzle_id: _rating_of(r) for r in conn.execute(select(puzzle_ratings))}


def puzzle_rating(engine: Engine, puzzle_id: str, prior: Rating) -> Rating:
    with engine.connect() as conn:
        return _puzzle_rating(conn, puzzle_id) or prior


def _puzzle_rating(conn: Connection, puzzle_id: str) -> Rating | None:
    row = conn.execute(select(puzzle_ratings)
                       .where(puzzle_ratings.c.puzzle_id == puzzle_id)).first()
    return None if row is None else _rating_of(row)


@dataclass(frozen=True)
class Recorded:
    """What an account's answer did: the standing before and after, the puzzle's rating
    before and after, and whether it was rated (only a first answer is)."""

    before: Standing
    after: Standing
    puzzle_before: Rating
    puzzle_after: Rating
    rated: bool


def record_answer(engine: Engine, account_id: int, game: str, puzzle_id: str, prior: Rating,
                  right: bool, rate: Callable[[Rating, Rating, bool], tuple[Rating, Rating]],
                  now: float | None = None) -> Recorded:
    """Record an account's answer in one transaction. The first answer to a puzzle moves
    both ratings (``rate``: player, puzzle, right -> both after); a later one changes
    nothing (the streak and the counts stay too)."""
    try:
        return _record(engine, account_id, game, puzzle_id, prior, right, rate, now)
    except IntegrityError:  # the same account's answer, sent twice at once: one counts
        with engine.connect() as conn:
            mine = _standing(conn, account_id, game) or Standing()
            theirs = _puzzle_rating(conn, puzzle_id) or prior
        return Recorded(mine, mine, theirs, theirs, False)


def _record(engine: Engine, account_id: int, game: str, puzzle_id: str, prior: Rating,
            right: bool, rate: Callable[[Rating, Rating, bool], tuple[Rating, Rating]],
            now: float | None) -> Recorded:
    with engine.begin() as conn:
        before = _standing(conn, account_id, game)
        mine = before or Standing()
        stored = _puzzle_rating(conn, puzzle_id)
        theirs = stored or prior
        seen = conn.execute(select(puzzle_answers.c.was_right).where(
            puzzle_answers.c.account_id == account_id,
            puzzle_answers.c.puzzle_id == puzzle_id)).first()
        if seen is not None:
            return Recorded(mine, mine, theirs, theirs, False)
        new_mine, new_theirs = rate(mine.rating, theirs, right)
        after = mine.after(new_mine, right)
        conn.execute(insert(puzzle_answers).values(account_id=account_id, puzzle_id=puzzle_id,
                                                   was_right=right, at=now or time.time()))
        save_row(conn, puzzle_players, {"account_id": account_id, "game": game},
                 after.to_json(), exists=before is not None)
        save_row(conn, puzzle_ratings, {"puzzle_id": puzzle_id}, _rating_values(new_theirs),
                 exists=stored is not None, count="answers")
    return Recorded(mine, after, theirs, new_theirs, True)


def forget(conn: Connection, account_id: int) -> None:
    """Delete an account's puzzle record (with the account, in its transaction)."""
    conn.execute(delete(puzzle_answers).where(puzzle_answers.c.account_id == account_id))
    conn.execute(delete(puzzle_players).where(puzzle_players.c.account_id == account_id))


__all__ = ["Recorded", "Standing", "answered", "forget", "moved_ratings", "puzzle_rating",
           "record_answer", "standing"]
