"""Puzzle ratings (Glicko-2, as the players' ratings: :func:`~kingscrib.web.ratings.maths.
glicko2_period`): every answer is one game between the player and the puzzle, won by
whoever was right.

A puzzle starts from a prior taken from its margin (a small margin is a close call, so a
harder puzzle): the puzzles of a game are ranked by margin and spread evenly between
:data:`HARDEST` and :data:`EASIEST`. Answers move it from there.

>>> player, puzzle = answer(Rating(), Rating(1600.0, 250.0), right=True)
>>> player.rating > 1500 and puzzle.rating < 1600
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from kingscrib.puzzles.puzzle import Puzzle, shipped
from kingscrib.web.ratings import maths as rating_maths

START, START_RD, START_VOL = 1500.0, 350.0, 0.06  # an unrated player (Glicko-2's defaults)
PUZZLE_RD = 250.0  # a puzzle's prior is an estimate: surer than nothing, open to answers
HARDEST, EASIEST = 1800.0, 1200.0  # the priors' range
MIN_RD = 30.0  # a rating is never surer than this: it keeps moving a little
LOWEST, HIGHEST, MAX_VOL = 0.0, 4000.0, 0.2  # the bounds a rating is kept in (and checked)
NEAR = 20  # the next puzzle is drawn from the this many nearest the player's rating


@dataclass(frozen=True)
class Rating:
    rating: float = START
    rd: float = START_RD
    vol: float = START_VOL


def _glicko(r: Rating) -> rating_maths.Rating:
    return rating_maths.Rating(r.rating, r.rd, r.vol)


def _rating(r: rating_maths.Rating) -> Rating:
    return Rating(round(min(HIGHEST, max(LOWEST, r.rating)), 2),
                  round(min(START_RD, max(MIN_RD, r.deviation)), 2),
                  round(min(MAX_VOL, r.volatility), 6))


def answer(player: Rating, puzzle: Rating, right: bool) -> tuple[Rating, Rating]:
    """(the player's, the puzzle's) ratings after one answer, both updated from the
    ratings before it."""
    score = 1.0 if right else 0.0
    p = rating_maths.glicko2_period(_glicko(player), [(_glicko(puzzle), score)])
    q = rating_maths.glicko2_period(_glicko(puzzle), [(_glicko(player), 1.0 - score)])
    return _rating(p), _rating(q)


@cache
def priors(game: str) -> Mapping[str, Rating]:
    """Each shipped puzzle's starting rating: ranked by margin (ties share their mean
    rank), the smallest margin the hardest."""
    return prior_ratings(shipped(game))


def prior_ratings(puzzles: Sequence[Puzzle]) -> dict[str, Rating]:
    by_margin = sorted(puzzles, key=lambda p: p.margin)
    n = len(by_margin)
    ranks: dict[float, list[int]] = {}
    for i, p in enumerate(by_margin):
        ranks.setdefault(p.margin, []).append(i)
    out = {}
    for p in by_margin:
        share = sum(ranks[p.margin]) / len(ranks[p.margin]) / max(1, n - 1)
        out[p.id] = Rating(round(HARDEST - (HARDEST - EASIEST) * share, 2), PUZZLE_RD)
    return out


def choose_near(ratings: Mapping[str, Rating], target: float, exclude: Iterable[str],
                rng: random.Random | None = None) -> str | None:
    """A puzzle id drawn from the :data:`NEAR` nearest ``target`` not in ``exclude``
    (when every puzzle is excluded, from all of them); None when there are none."""
    rng = rng or random.Random()
    skipped = set(exclude)
    ids = [i for i in ratings if i not in skipped] or list(ratings)
    if not ids:
        return None
    ids.sort(key=lambda i: (abs(ratings[i].rating - target), i))
    return rng.choice(ids[:NEAR])


__all__ = ["Rating", "answer", "choose_near", "prior_ratings", "priors"]
