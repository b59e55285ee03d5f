"""Slow and idle HTTP connections: deadlines for a request's headers and for its body,
and a cap on the HTTP connections one client address holds open.

uvicorn closes a connection left idle between two requests (``timeout_keep_alive``),
but it waits for ever for the first request, for the rest of a header sent a line at a
time and for a body sent a byte at a time: a few hundred such connections from one
address hold a server's file descriptors, and then nobody else gets in. The protocol
below is uvicorn's own HTTP protocol (httptools) with:

- a header deadline, from the connection's start and from the first byte of each
  request until its headers are complete;
- a body deadline, from the headers until the whole body is in;
- a cap on the connections one address holds open at once (a connection past it is
  answered 429 and closed); a trusted reverse proxy (``--trust-proxy``) carries many
  clients' connections, so its own are not capped: the proxy's own limits apply there
  (docs/deploy.md).

A request that misses a deadline is answered ``408`` and its connection closed (a
connection that has not begun a request is closed without a reply). A websocket leaves
the count when it is upgraded: open websockets have their own per-address limit
(:mod:`kingscrib.web.server.limits`).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Container
from dataclasses import dataclass
from typing import Any


@dataclass
class ConnectionSettings:
    header_timeout: float = 10.0  # seconds for a request's headers, from its first byte
    body_timeout: float = 30.0  # seconds for a request's body, after its headers
    keep_alive_timeout: float = 5.0  # seconds a connection may wait idle for its next request
    per_address: int = 64  # HTTP connections open at once from one client address


class ConnectionCounts:
    """The HTTP connections each address holds open, shared by every connection of one
    server process. ``trusted``: the proxies whose connections are not counted."""

    def __init__(self, settings: ConnectionSettings,
                 trusted: Container[str] = frozenset()) -> None:
        self.settings = settings
        self.trusted = trusted
        self.open: Counter[str] = Counter()

    def admit(self, address: str) -> bool:
        """Count a new connection; False (nothing counted) when the address has its cap."""
        if self.open[address] >= self.settings.per_address:
            return False
        self.open[address] += 1
        return True

    def release(self, address: str) -> None:
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]


def error_reply(status: int, reason: str, message: str, retry: bool = False) -> bytes:
    """A whole HTTP response ``{"error": message}`` that closes the connection."""
    body = json.dumps({"error": message}).encode()
    head = [f"HTTP/1.1 {status} {reason}", "content-type: application/json",
            f"content-length: {len(body)}", "connection: close"]
    if retry:
        head.append("retry-after: 1")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


def guarded_protocol(counts: ConnectionCounts) -> type:
    """uvicorn's httptools HTTP protocol with the deadlines and the cap (module doc)."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    settings = counts.settings

    class GuardedHttp(HttpToolsProtocol):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._deadline: Any = None  # the timer of the deadline running now
            self._reading = False  # a request has begun and is not whole yet
            self._counted: str | None = None  # the address this connection is counted for

        # ----- the cap ----------------------------------------------------------------
        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            address = self.client[0] if self.client else None
            if address is not None and address not in counts.trusted:
                if not counts.admit(address):
                    transport.write(error_reply(
                        429, "Too Many Requests",
                        "too many open connections from your address", retry=True))
                    transport.close()
                    return
                self._counted = address
            self._arm(settings.header_timeout, "headers")

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            self._uncount()
            super().connection_lost(exc)

        def handle_websocket_upgrade(self) -> None:
            self._disarm()
            self._uncount()  # counted from now on as an open websocket
            super().handle_websocket_upgrade()

        def _uncount(self) -> None:
            if self._counted is not None:
                counts.release(self._counted)
                self._counted = None

        # ----- the deadlines ----------------------------------------------------------
        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._reading = True
            if self._deadline is None:
                self._arm(settings.header_timeout, "headers")

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()
            self._arm(settings.body_timeout, "body")

        def on_message_complete(self) -> None:
            self._reading = False
            self._disarm()
            super().on_message_complete()

        def _arm(self, seconds: float, what: str) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(seconds, self._too_slow, seconds, what)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self, seconds: float, what: str) -> None:
            self._deadline = None
            if self.transport.is_closing():
                return
            # A connection that has not begun a request is closed without a word: a
            # client may be sending one on it at that moment, and would take a reply
            # for the answer to it. Nor is a 408 sent once a response has begun.
            answering = self.cycle is not None and (
                self.cycle.response_started and not self.cycle.response_complete)
            if self._reading and not answering:
                self.transport.write(error_reply(
                    408, "Request Timeout",
                    f"the request's {what} did not arrive within {seconds:g} s"))
            self.transport.close()

    return GuardedHttp
