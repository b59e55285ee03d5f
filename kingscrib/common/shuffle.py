"""Seeds and the generators that shuffle bags and decks, shared by both engines.

A game's seed is either

- an ``int`` (the CLI, tests, older records): shuffles use Python's Mersenne
  Twister exactly as before, so old records replay unchanged. Fine at a table of
  friends, but a player who sees their own tiles can search every seed offline;
- a *secret*: a string of 32 to 128 hex digits (128 to 512 bits, made by
  :func:`new_secret`, 256 bits). Every shuffle then draws its bits from SHAKE-256
  over the secret, a label naming the shuffle and a block counter, so without the
  secret the order of a bag or deck is no more predictable than the secret itself
  (a hash function's output cannot be run backwards to the secret, and one
  shuffle's output says nothing about another's).

>>> rng = rng_for(new_secret(), "deal")
>>> sorted(rng.sample(range(10), 10)) == list(range(10))
True
"""

from __future__ import annotations

import hashlib
import random
import re
import secrets
from typing import Any, TypeGuard

Seed = int | str

SECRET_BYTES = 32  # 256 bits from the operating system's generator
_SECRET = re.compile(r"[0-9a-f]{32,128}")
_BLOCK = 136  # bytes of SHAKE-256 output per block (its rate)


def new_secret() -> str:
    """A fresh secret seed: 64 hex digits (256 bits) from :mod:`secrets`."""
    return secrets.token_hex(SECRET_BYTES)


def is_secret(seed: object) -> TypeGuard[str]:
    """True when ``seed`` is a secret seed (32 to 128 lowercase hex digits)."""
    return isinstance(seed, str) and _SECRET.fullmatch(seed) is not None


def is_seed(seed: object) -> bool:
    """True for a usable seed: an int (not a bool) or a secret."""
    if isinstance(seed, bool):
        return False
    return isinstance(seed, int) or is_secret(seed)


def check_seed(seed: object) -> Seed:
    """``seed`` itself when it is a seed; ValueError saying what a seed is otherwise."""
    if not is_seed(seed):
        raise ValueError(f"a seed is a whole number or a secret of 32 to 128"
                         f" lowercase hex digits, not {seed!r}")
    return seed  # type: ignore[return-value]


class SecretRandom(random.Random):
    """A :class:`random.Random` whose bits are SHAKE-256(secret, label, counter).

    Every method of ``random.Random`` (shuffle, randrange, sample, random) works on
    top of :meth:`getrandbits`, so shuffles are exactly reproducible from the secret
    and the label and unpredictable without the secret.
    """

    def __init__(self, secret: str, label: str = "") -> None:
        self._key = b"kingscrib/shuffle/1\x00" + bytes.fromhex(secret) + b"\x00" \
            + label.encode("utf-8")
        self._counter = 0
        self._buffer = b""
        super().__init__(0)

    def seed(self, a: object = None, version: int = 2) -> None:
        """Ignored: the stream is fixed by the secret and label (``Random`` calls it)."""

    def _bytes(self, n: int) -> bytes:
        while len(self._buffer) < n:
            block = hashlib.shake_256(self._key + self._counter.to_bytes(8, "big"))
            self._buffer += block.digest(_BLOCK)
            self._counter += 1
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k == 0:
            return 0
        value = int.from_bytes(self._bytes((k + 7) // 8), "big")
        return value >> (-k % 8)

    def random(self) -> float:
        return self.getrandbits(53) * 2.0 ** -53

    # The state's types are random.Random's own (a tuple of anything): key, counter, buffer.
    def getstate(self) -> tuple[Any, ...]:
        return (self._key, self._counter, self._buffer)

    def setstate(self, state: tuple[Any, ...]) -> None:
        self._key, self._counter, self._buffer = state

    def __reduce__(self) -> tuple[type[SecretRandom], tuple[str], tuple[Any, ...]]:
        # Random's own would call SecretRandom() without a secret; a game pickled for a
        # worker process (kingscrib.web.play.work) carries its generators' streams as they stand.
        return (SecretRandom, ("",), self.getstate())


def rng_for(seed: Seed, label: str = "") -> random.Random:
    """The generator of one shuffle stream of a game.

    An int seed gives what the engines always used: ``random.Random(seed)`` for the
    main stream (no label) and ``random.Random(f"{seed}/{label}")`` for a labelled
    one. A secret gives a :class:`SecretRandom` over the secret and the label.
    """
    if is_secret(seed):
        return SecretRandom(seed, label)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"not a seed: {seed!r}")
    return random.Random(f"{seed}/{label}") if label else random.Random(seed)


def derived_int(seed: Seed, label: str, bits: int = 63) -> int:
    """A whole number derived from a seed for another purpose (a computer seat's own
    generator): nothing about the seed can be learnt from it."""
    if is_secret(seed):
        return SecretRandom(seed, "derive/" + label).getrandbits(bits)
    digest = hashlib.sha256(f"{seed}/{label}".encode()).digest()
    return int.from_bytes(digest, "big") >> (256 - bits)


__all__ = ["SECRET_BYTES", "SecretRandom", "Seed", "check_seed", "derived_int", "is_secret",
           "is_seed", "new_secret", "rng_for"]
