"""Rate limits: a token bucket per connection, and per client address for everything
a client can open or send (requests and websocket messages, open websockets, games
created an hour), so that opening new connections does not reset a limit.

With several server processes on one PostgreSQL (:mod:`kingscrib.web.server.shared_limits`)
open websockets and games created an hour are counted in the database, for all the
processes together; the request rate stays per process, each allowing its share
(the address limit divided by the number of live processes).
"""

from __future__ import annotations

import time
from collections import Counter, OrderedDict
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, fields
from typing import Protocol

from kingscrib.web.errors import WebError
from kingscrib.web.server import metrics


class TokenBucket:
    """Allow ``rate`` events a second on average and bursts of up to ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def give_back(self) -> None:
        """Return the token of an event that did not happen after all."""
        self.tokens = min(self.burst, self.tokens + 1)


class Buckets:
    """A token bucket per key, the least recently used forgotten past ``size`` keys (a
    forgotten key starts again with a full bucket, so memory stays bounded)."""

    def __init__(self, rate: float, burst: float, size: int = 100_000) -> None:
        self.rate, self.burst, self.size = rate, burst, size
        self._buckets: OrderedDict[object, TokenBucket] = OrderedDict()

    def rescale(self, rate: float, burst: float) -> None:
        """New limits for every key (existing buckets keep their tokens, capped)."""
        self.rate, self.burst = rate, burst
        for bucket in self._buckets.values():
            bucket.rate, bucket.burst = rate, burst
            bucket.tokens = min(bucket.tokens, burst)

    def allow(self, key: object) -> bool:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(self.rate, self.burst)
            if len(self._buckets) > self.size:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        return bucket.allow()

    def give_back(self, key: object) -> None:
        bucket = self._buckets.get(key)
        if bucket is not None:
            bucket.give_back()


@dataclass
class LimitSettings:
    """Every limit a server applies; the defaults suit a public server."""

    rate_per_second: float = 20.0  # per connection (HTTP requests, websocket messages)
    rate_burst: float = 40.0
    address_rate: float = 40.0  # per client address, all its connections together
    address_burst: float = 200.0
    sockets_per_address: int = 32  # websockets open at once from one address
    games_per_hour: int = 60  # games one address may create an hour (bursts of all of them)
    hints_waiting: int = 4  # hints one address may have asked for and not yet received
    computer_games: int = 2  # games of computers only one address may have being played
    reviews_waiting: int = 2  # analyses and replays of one address waiting or worked out
    # Moves a second of each game of computers only (a watchable pace; the server's
    # process stores and pushes each move, so this bounds what such games take from
    # the people's games, whatever --computer-delay says).
    computer_moves_per_second: float = 2.5
    seeks_per_address: int = 12  # lobby seats waiting from one address, all its browsers
    tournaments_per_hour: int = 5  # tournaments one account may create an hour
    # A rated game between two accounts seen from one client address is played unrated
    # and set aside for the moderators (one browser always is): a club whose players all
    # come from one address turns this off.
    unrate_shared_addresses: bool = True


class SharedCounts(Protocol):
    """Counts kept for all server processes together (see kingscrib.web.server.shared_limits)."""

    async def open_socket(self, address: str) -> bool: ...
    async def close_socket(self, address: str) -> None: ...
    async def allow_game(self, address: str) -> bool: ...
    async def give_back_game(self, address: str) -> None: ...


class AddressLimits:
    """The limits of each client address, shared by the HTTP edge and the websockets.
    ``shared`` (several processes on PostgreSQL) counts websockets and games for all
    processes; :meth:`share_rate` gives this process its share of the request rate."""

    def __init__(self, settings: LimitSettings) -> None:
        self.settings = settings
        self.requests = Buckets(settings.address_rate, settings.address_burst)
        self.games = Buckets(settings.games_per_hour / 3600.0, float(settings.games_per_hour))
        self.sockets: Counter[str] = Counter()
        self.shared: SharedCounts | None = None
        self.processes = 1

    def share_rate(self, processes: int) -> None:
        """``processes`` server processes are serving: this one allows its share of an
        address's request rate and burst (a balancer spreads an address's requests)."""
        processes = max(1, processes)
        if processes != self.processes:
            self.processes = processes
            self.requests.rescale(self.settings.address_rate / processes,
                                  max(1.0, self.settings.address_burst / processes))

    def allow_request(self, address: str) -> bool:
        return _counted(self.requests.allow(address), "address_rate")

    async def allow_game(self, address: str) -> bool:
        if self.shared is not None:
            return _counted(await self.shared.allow_game(address), "games_per_hour")
        return _counted(self.games.allow(address), "games_per_hour")

    async def give_back_game(self, address: str) -> None:
        """Uncount a game counted by :meth:`allow_game` that was not created after all."""
        if self.shared is not None:
            return await self.shared.give_back_game(address)
        self.games.give_back(address)

    @asynccontextmanager
    async def creating_game(self, address: str) -> AsyncIterator[None]:
        """Count a game of ``address`` (429 past ``games_per_hour``) for the creation the
        block makes: refused there (any exception), the game is not counted."""
        if not await self.allow_game(address):
            raise WebError(429, "too many games created from your address: try again later")
        try:
            yield
        except BaseException:
            await self.give_back_game(address)
            raise

    async def open_socket(self, address: str) -> bool:
        """Count a websocket opening; False (nothing counted) when the address has its
        limit open already."""
        if self.shared is not None:
            return _counted(await self.shared.open_socket(address), "sockets_per_address")
        if self.sockets[address] >= self.settings.sockets_per_address:
            return _counted(False, "sockets_per_address")
        self.sockets[address] += 1
        return True

    async def close_socket(self, address: str) -> None:
        if self.shared is not None:
            return await self.shared.close_socket(address)
        self.sockets[address] -= 1
        if self.sockets[address] <= 0:
            del self.sockets[address]


def _counted(allowed: bool, limit: str) -> bool:
    """``allowed``, a refusal counted in the metrics under the limit's name."""
    if not allowed:
        metrics.refused(limit)
    return allowed


def parse_limits(items: Iterable[str]) -> LimitSettings:
    """``LimitSettings`` from ``NAME=VALUE`` texts; ValueError naming what is wrong."""
    settings = LimitSettings()
    names = {f.name: f.type for f in fields(LimitSettings)}
    for item in items:
        name, sep, value = item.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or name not in names:
            raise ValueError(f"{item!r}: write NAME=VALUE with NAME one of {', '.join(names)}")
        if names[name] in (bool, "bool"):
            if value.strip().lower() not in ("yes", "no", "true", "false", "on", "off"):
                raise ValueError(f"{item!r}: {value!r} is not yes or no")
            setattr(settings, name, value.strip().lower() in ("yes", "true", "on"))
            continue
        try:
            number = float(value) if names[name] in (float, "float") else int(value)
        except ValueError:
            raise ValueError(f"{item!r}: {value!r} is not a number") from None
        if number <= 0:
            raise ValueError(f"{item!r}: a limit is above 0")
        setattr(settings, name, number)
    return settings
