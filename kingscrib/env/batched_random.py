"""The random streams of the batched engines: one per game of a batch, compiled with Numba.

Each slot of a batch keeps its own 64-bit state (xorshift64*, seeded by splitmix64 from
the batch's seed and the slot), so a slot's games do not depend on the batch size.
:mod:`kingscrib.env.batched_cribbage` and :mod:`kingscrib.env.batched_kings` share them.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def next_random(rng, b):
    """The next 64 random bits of slot ``b``'s stream (xorshift64*)."""
    x = rng[b]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[b] = x
    return x * np.uint64(0x2545F4914F6CDD1D)


@njit(cache=True)
def below(rng, b, n):
    """A uniform whole number below ``n`` (53 random bits, bias under 2**-46)."""
    return np.int64(np.float64(next_random(rng, b) >> np.uint64(11)) * (1.0 / 9007199254740992.0) * n)


@njit(cache=True)
def random_actions(mask, rng, out):
    """A uniformly random legal action of each game (its own random stream) into ``out``."""
    for b in range(mask.shape[0]):
        n = 0
        for a in range(mask.shape[1]):
            n += mask[b, a]
        pick = below(rng, b, n) if n else 0
        out[b] = 0
        for a in range(mask.shape[1]):
            if mask[b, a]:
                if pick == 0:
                    out[b] = a
                    break
                pick -= 1


def seed_streams(seed: int, size: int) -> np.ndarray:
    """One nonzero 64-bit state per slot, from ``seed`` and the slot (splitmix64)."""
    with np.errstate(over="ignore"):  # arithmetic modulo 2**64 on purpose
        z = (np.uint64(seed * 0x9E3779B97F4A7C15 & (2**64 - 1))
             + np.arange(1, size + 1, dtype=np.uint64) * np.uint64(0xBF58476D1CE4E5B9))
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z ^= z >> np.uint64(31)
    return np.where(z == 0, np.uint64(1), z)
