"""A lobby browser that stops reading (docs/web.md, "The lobby"): the others still get
their news at once, and once its news piles up past the limit it leaves the lobby and,
should it read again, finds what was waiting (several messages to a frame) and the
socket closed with 1008 "too slow"."""

from __future__ import annotations

import base64
import json
import os
import secrets
import socket
import struct
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_web_lobby_pg import next_message
from web_support import Server
from websockets.sync.client import connect

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "web.sqlite3")
    try:
        yield s.start()
    finally:
        s.stop()


class Stalled:
    """A websocket spoken by hand over a socket with a tiny receive buffer, so that what
    the server writes to it piles up on the server's side while it does not read."""

    def __init__(self, port: int) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /api/lobby/live HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                           "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
                           ).encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)  # byte by byte: nothing past the head is taken
        assert head.startswith(b"HTTP/1.1 101"), head

    def frame(self, text: str) -> bytes:
        data, mask = text.encode(), os.urandom(4)
        assert len(data) < 126
        return (bytes([0x81, 0x80 | len(data)]) + mask
                + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def send(self, text: str, times: int = 1) -> None:
        self.sock.sendall(self.frame(text) * times)

    def read_to_close(self, limit: float = 20.0) -> tuple[int, str, list[Any]]:
        """Reads every frame until the server's close: its code and reason, and the
        messages before it, a frame each (one message, or a list of several)."""
        self.sock.settimeout(limit)
        buffer, frames = b"", []

        def take(n: int) -> bytes:
            nonlocal buffer
            while len(buffer) < n:
                chunk = self.sock.recv(65536)
                assert chunk, "the connection ended without a close frame"
                buffer += chunk
            out, buffer = buffer[:n], buffer[n:]
            return out

        while True:
            first, second = take(2)
            size = second & 0x7F
            if size == 126:
                size = struct.unpack("!H", take(2))[0]
            elif size == 127:
                size = struct.unpack("!Q", take(8))[0]
            payload = take(size)
            if first & 0x0F == 0x8:
                return struct.unpack("!H", payload[:2])[0], payload[2:].decode(), frames
            frames.append(json.loads(payload))


def online(server: Server) -> int:
    return httpx.get(f"{server.url}/api/lobby").json()["online"]


def test_a_browser_that_stops_reading_delays_nobody_and_is_dropped(server: Server) -> None:
    reader = connect(f"ws://127.0.0.1:{server.port}/api/lobby/live")
    reader.send(json.dumps({"type": "hello", "visitor": secrets.token_urlsafe(16)}))
    assert next_message(reader, 5)["type"] == "lobby"
    stalled = Stalled(server.port)
    stalled.send(json.dumps({"type": "hello", "visitor": secrets.token_urlsafe(16)}))
    deadline = time.monotonic() + 10
    while online(server) != 2:
        assert time.monotonic() < deadline, "the stalled browser never joined"
        time.sleep(0.05)

    # Each ping is answered: unread answers fill the socket's buffers, then its queue.
    sent = 0
    while online(server) == 2:
        assert sent < 400_000, "the stalled browser was never dropped"
        stalled.send('{"type":"ping"}', 2000)
        sent += 2000

    # The other browser still hears of a new seek at once.
    visitor = secrets.token_urlsafe(16)
    r = httpx.post(f"{server.url}/api/lobby/seeks", json={"name": "Ann"},
                   headers={"X-Lobby-Visitor": visitor})
    assert r.status_code == 201, r.text
    seek_id = r.json()["seek"]["id"]
    while True:
        message = next_message(reader, 5)
        if message["type"] == "seek" and message["seek"]["id"] == seek_id:
            break
    reader.close()

    # Reading at last, the stalled browser gets what was queued, then the close; what
    # piled up while a frame was being written came several to a frame, in order.
    code, reason, frames = stalled.read_to_close()
    assert code == 1008
    assert "too slow" in reason
    assert frames[0]["type"] == "lobby"
    assert any(isinstance(f, list) and len(f) > 1 for f in frames)
    assert {m["type"] for f in frames[1:] for m in (f if isinstance(f, list) else [f])} \
        <= {"pong", "online", "seek"}
