"""The HTTP edge: what every request meets before a route sees it.

- Rate limits per connection and per client address (429, with Retry-After).
- The body is read whole, up to ``max_body`` bytes, whether announced by
  Content-Length or sent in chunks (413 past it), and a JSON body must be valid
  UTF-8 text without lone surrogates, nested at most 32 deep (422 otherwise).
- Security headers on every response: a Content-Security-Policy allowing
  scripts, styles and connections to this origin only and no framing, a
  Referrer-Policy that keeps invite links out of Referer headers, nosniff.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kingscrib.web import jsontext
from kingscrib.web.server import metrics
from kingscrib.web.server.limits import AddressLimits, Buckets

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


def client_address(scope: Scope) -> str:
    client = scope.get("client")
    address: str = client[0] if client else "?"
    return address


# A game record sent to be replayed (POST /api/games/replay) is bigger than any action:
# a long Cribbage game's record passes 20 kB. Its own, larger, limit.
RECORD_PATH = "/api/games/replay"
RECORD_BODY = 256 * 1024


class EdgeMiddleware:
    """Limits, body checks and security headers for HTTP (websockets pass through: their
    route applies the same limits to each message)."""

    def __init__(self, app: ASGIApp, max_body: int, rate: float, burst: float,
                 addresses: AddressLimits) -> None:
        self.app, self.max_body = app, max_body
        self.connections = Buckets(rate, burst)
        self.addresses = addresses

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in message.get("headers", [])}
                message = dict(message, headers=list(message.get("headers", [])) + [
                    h for h in SECURITY_HEADERS if h[0] not in names])
            await send(message)

        client = scope.get("client") or ("?", 0)
        if not self.addresses.allow_request(client[0]):
            return await reply(send_with_headers, 429,
                               "too many requests from your address: slow down", retry=True)
        if not self.connections.allow((client[0], client[1])):
            metrics.refused("rate_per_second")
            return await reply(send_with_headers, 429, "too many requests: slow down",
                               retry=True)
        headers = dict(scope.get("headers") or [])
        limit = max(self.max_body, RECORD_BODY) if scope.get("path") == RECORD_PATH \
            else self.max_body
        length = headers.get(b"content-length")
        if length is not None:
            try:
                too_big = int(length) > limit
            except ValueError:
                return await reply(send_with_headers, 400, "bad Content-Length")
            if too_big:
                metrics.refused("max_body")
                return await reply(send_with_headers, 413, f"request body over {limit} bytes")
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                metrics.refused("max_body")
                return await reply(send_with_headers, 413, f"request body over {limit} bytes")
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if body and b"json" in headers.get(b"content-type", b"application/json"):
            try:
                jsontext.loads(body)
            except (jsontext.BadText, jsontext.TooDeep) as e:
                return await reply(send_with_headers, 422, str(e))
            except ValueError:
                pass  # not JSON: the route's own validation says so
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send_with_headers)


async def reply(send: Any, status: int, message: str, retry: bool = False) -> None:
    """A JSON error reply ``{"error": message}``."""
    body = json.dumps({"error": message}).encode()
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode())]
    if retry:
        headers.append((b"retry-after", b"1"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
