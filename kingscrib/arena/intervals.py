"""95% intervals of a win rate measured over games.

Two kinds: Wilson's score interval over games (:func:`wilson`), and the normal interval
over the means of mirrored pairs (:func:`pair_interval`): the two games of a pair share
their deal, so they are not independent, and the pairs are the honest unit.

>>> [round(x, 3) for x in wilson(60, 100)]
[0.502, 0.691]
>>> [round(x, 2) for x in pair_interval([1.0, 0.5, 0.5, 0.0])]
[0.1, 0.9]
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.96


def wilson(points: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``points`` won in ``n`` games (a draw half a point)."""
    if n == 0:
        return (0.0, 1.0)
    p = points / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def pair_interval(pair_means: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """The normal interval of the win rate over the mean points of each mirrored pair
    (0, 0.25, ..., 1); ``(0, 1)`` below two pairs."""
    m = len(pair_means)
    if m < 2:
        return (0.0, 1.0)
    mean = sum(pair_means) / m
    var = sum((x - mean) ** 2 for x in pair_means) / (m - 1)
    half = z * math.sqrt(var / m)
    return (max(0.0, mean - half), min(1.0, mean + half))


__all__ = ["Z95", "pair_interval", "wilson"]
