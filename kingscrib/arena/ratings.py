"""Bradley-Terry ratings of many agents from their games, with 95% intervals.

Under Bradley-Terry an agent ``i`` rated ``r_i`` scores against ``j`` with probability
``1 / (1 + exp(r_j - r_i))``; a drawn game counts half a point each way. The ratings
maximise the likelihood of every game played (:func:`fit`, Newton's method on the
log-likelihood, which is concave), shown on the Elo scale (``400 / ln 10`` per unit,
so 100 points are a 64% score) and anchored so that ``anchor`` (or their mean) is 0.
``prior`` adds that many drawn games to every match played, so that an agent that won
every game still gets a finite rating (0 fits the plain likelihood).

The intervals come from a bootstrap over mirrored pairs (:func:`bootstrap`): the pairs of
every match are drawn again with replacement and the ratings fitted again; the interval
is the 2.5th to 97.5th percentile of each rating. A pair, not a game, is the unit, since
its two games share their deal.

>>> r = fit(["a", "b"], [Match("a", "b", points=30.0, games=40)], prior=0.0)
>>> round(r["a"] - r["b"], 1)   # 400 / ln 10 x ln(30 / 10)
190.8
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

ELO = 400.0 / math.log(10.0)  # Elo points per unit of the logistic scale
DEFAULT_PRIOR = 1.0
NEWTON_STEPS = 100


@dataclass(frozen=True)
class Match:
    """``a``'s points (a win 1, a draw 1/2) over ``games`` games against ``b``; ``pairs``
    holds a's points in each mirrored pair (for the bootstrap), when known."""

    a: str
    b: str
    points: float
    games: int
    pairs: tuple[float, ...] = ()


def log_likelihood(names: Sequence[str], matches: Sequence[Match],
                   ratings: dict[str, float], prior: float = 0.0) -> float:
    """The log-likelihood of the games under ``ratings`` (Elo scale), ``prior`` draws added
    to every match."""
    total = 0.0
    for m in matches:
        d = (ratings[m.a] - ratings[m.b]) / ELO
        p = 1.0 / (1.0 + math.exp(-d))
        wins = m.points + prior / 2
        losses = m.games - m.points + prior / 2
        total += wins * math.log(p) + losses * math.log(1.0 - p)
    return total


def fit(names: Sequence[str], matches: Sequence[Match], prior: float = DEFAULT_PRIOR,
        anchor: str | None = None) -> dict[str, float]:
    """The maximum-likelihood ratings (Elo scale), ``anchor`` at 0 (their mean without
    one). Agents that meet no other keep rating 0."""
    index = {n: k for k, n in enumerate(names)}
    n = len(names)
    wins = np.zeros((n, n))  # wins[i, j]: i's points against j, prior included
    for m in matches:
        i, j = index[m.a], index[m.b]
        wins[i, j] += m.points + prior / 2
        wins[j, i] += m.games - m.points + prior / 2
    games = wins + wins.T
    r = np.zeros(n)
    for _ in range(NEWTON_STEPS):
        p = 1.0 / (1.0 + np.exp(r[None, :] - r[:, None]))  # p[i, j]: i scores against j
        gradient = (wins - games * p).sum(axis=1)
        w = games * p * (1.0 - p)
        hessian = np.diag(w.sum(axis=1)) - w
        # The likelihood is unchanged by adding a constant: fix the mean at 0 by solving
        # with a row of ones added (the system is then of full rank when connected).
        system = hessian + np.ones((n, n)) / n
        step = np.linalg.lstsq(system, gradient, rcond=None)[0]
        r = r + step
        r -= r.mean()
        if np.max(np.abs(step)) < 1e-10:
            break
    shift = r[index[anchor]] if anchor is not None else 0.0
    return {name: float((r[k] - shift) * ELO) for name, k in index.items()}


@dataclass(frozen=True)
class Rating:
    name: str
    rating: float
    low: float
    high: float
    points: float  # points won over every game played
    games: int


def bootstrap(names: Sequence[str], matches: Sequence[Match], samples: int = 200,
              seed: int = 1, prior: float = DEFAULT_PRIOR,
              anchor: str | None = None) -> list[Rating]:
    """The ratings with a 95% interval from ``samples`` fits on the mirrored pairs drawn
    again (each match's own pairs, with replacement); best first. Matches without
    ``pairs`` are resampled as games (each point a game won)."""
    rng = random.Random(seed)
    best = fit(names, matches, prior, anchor)
    draws: dict[str, list[float]] = {n: [] for n in names}
    for _ in range(samples):
        again = [_resample(m, rng) for m in matches]
        for name, value in fit(names, again, prior, anchor).items():
            draws[name].append(value)
    points = {n: 0.0 for n in names}
    games = {n: 0 for n in names}
    for m in matches:
        points[m.a] += m.points
        points[m.b] += m.games - m.points
        games[m.a] += m.games
        games[m.b] += m.games
    out = []
    for name in names:
        values = sorted(draws[name])
        low, high = (_percentile(values, 0.025), _percentile(values, 0.975)) if values \
            else (best[name], best[name])
        out.append(Rating(name, best[name], low, high, points[name], games[name]))
    return sorted(out, key=lambda r: -r.rating)


def _resample(m: Match, rng: random.Random) -> Match:
    if m.pairs:
        k = len(m.pairs)
        drawn = [m.pairs[rng.randrange(k)] for _ in range(k)]
        return Match(m.a, m.b, sum(drawn), m.games, tuple(drawn))
    won = sum(1 for _ in range(m.games) if rng.random() < m.points / m.games) if m.games else 0
    return Match(m.a, m.b, float(won), m.games)


def _percentile(values: Sequence[float], q: float) -> float:
    """Linear interpolation between the closest ranks (numpy's default)."""
    pos = q * (len(values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (pos - lo)


__all__ = ["DEFAULT_PRIOR", "ELO", "Match", "Rating", "bootstrap", "fit", "log_likelihood"]
