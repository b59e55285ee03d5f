"""Slow, idle and piled-up HTTP connections against a real ``kingscrib serve``, with raw
sockets: header and body deadlines, the idle keep-alive deadline, the cap on one
address's open connections, and the --trust-proxy checks."""

from __future__ import annotations

import contextlib
import socket
import time
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from web_support import running_server

from kingscrib.cli.main import cli
from kingscrib.web.server.proxies import UnsafeProxies, parse_proxies

OTHER_ADDRESS = "127.0.0.2"  # Linux answers for all of 127.0.0.0/8 on the loopback


def connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    s = socket.socket()
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    return s


def read_until_closed(s: socket.socket, limit: float) -> tuple[bytes, float]:
    """Everything the server sends until it closes the connection, and the seconds it
    took; AssertionError when the connection is still open after ``limit`` seconds."""
    start = time.monotonic()
    s.settimeout(limit)
    data = b""
    try:
        while chunk := s.recv(4096):
            data += chunk
    except TimeoutError:
        raise AssertionError(f"still open after {limit} s; received {data!r}") from None
    except ConnectionResetError:
        pass
    return data, time.monotonic() - start


def get_from(url: str, source: str) -> httpx.Response:
    with httpx.Client(transport=httpx.HTTPTransport(local_address=source), timeout=10) as c:
        return c.get(url)


TIMEOUTS = ["--header-timeout", "1", "--body-timeout", "1", "--keep-alive-timeout", "1"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running_server(tmp_path_factory.mktemp("conn") / "web.sqlite3",
                        extra_args=TIMEOUTS) as server:
        yield server


def test_a_connection_that_never_sends_is_closed_at_the_header_deadline(server) -> None:
    with connect(server.port) as s:
        data, took = read_until_closed(s, 6)
    assert data == b""  # no request begun: nothing a client could take for its answer
    assert 0.8 < took < 4


def test_half_a_header_is_closed_at_the_header_deadline(server) -> None:
    with connect(server.port) as s:
        s.sendall(b"GET /api/levels HTTP/1.1\r\nHost: x\r\n")
        for _ in range(3):  # a header line now and then does not keep it open
            time.sleep(0.25)
            s.sendall(b"X-Slow: 1\r\n")
        data, took = read_until_closed(s, 6)
    assert data.startswith(b"HTTP/1.1 408 ") and b"headers did not arrive within 1 s" in data
    assert took < 3


def test_half_a_second_request_is_closed_at_the_header_deadline(server) -> None:
    with connect(server.port) as s:
        s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\nGET /api/health HTTP/1.1\r\n")
        data, took = read_until_closed(s, 6)
    assert data.startswith(b"HTTP/1.1 200 ") and data.count(b"HTTP/1.1 408 ") == 1
    assert 0.8 < took < 4


def test_a_slow_body_is_closed_at_the_body_deadline(server) -> None:
    with connect(server.port) as s:
        s.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 100\r\n\r\n{")
        start = time.monotonic()
        with contextlib.suppress(OSError):  # a byte now and then does not keep it open
            for _ in range(8):
                time.sleep(0.25)
                s.sendall(b" ")
        data, _ = read_until_closed(s, 6)
        took = time.monotonic() - start
    assert data.startswith(b"HTTP/1.1 408 ") and b"body did not arrive within 1 s" in data
    assert 0.8 < took < 4


def test_an_idle_connection_is_closed_after_its_keep_alive(server) -> None:
    with connect(server.port) as s:
        s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        data, took = read_until_closed(s, 6)
    assert data.startswith(b"HTTP/1.1 200 ") and data.count(b"HTTP/1.1") == 1
    assert took < 3


def test_a_whole_request_is_answered_as_before(server) -> None:
    with connect(server.port) as s:
        s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        data, _ = read_until_closed(s, 6)
    assert data.startswith(b"HTTP/1.1 200 ")


def test_many_half_open_connections_from_one_address_do_not_lock_out_another(
        tmp_path: Path) -> None:
    # A server allowed 256 open files: without a cap one address's 300 half-open
    # connections would take them all, and nobody else's connection would be accepted.
    with running_server(tmp_path / "web.sqlite3", open_files=256,
                        extra_args=["--header-timeout", "4", "--connections-per-address",
                                    "64"]) as server:
        held = [connect(server.port) for _ in range(300)]
        try:
            for s in held:
                s.sendall(b"GET /api/levels HTTP/1.1\r\nHost: x\r\n")
            time.sleep(0.5)
            r = get_from(f"{server.url}/api/health", OTHER_ADDRESS)
            assert r.status_code == 200
            # The connections past the cap were answered 429 and closed at once.
            for s in held[64:]:
                data, _ = read_until_closed(s, 2)
                assert data.startswith(b"HTTP/1.1 429 ") or data == b"", data
            # The 64 held open go at the header deadline; then the address gets in again.
            for s in held[:64]:
                data, _ = read_until_closed(s, 8)
                assert data.startswith(b"HTTP/1.1 408 ")
            assert get_from(f"{server.url}/api/health", "127.0.0.1").status_code == 200
        finally:
            for s in held:
                s.close()


def test_a_connection_past_the_cap_is_told_why(tmp_path: Path) -> None:
    with running_server(tmp_path / "web.sqlite3",
                        extra_args=["--connections-per-address", "2"]) as server:
        held = [connect(server.port, OTHER_ADDRESS) for _ in range(2)]
        try:
            with connect(server.port, OTHER_ADDRESS) as third:
                data, _ = read_until_closed(third, 5)
            assert data.startswith(b"HTTP/1.1 429 ")
            assert b"too many open connections from your address" in data
            assert get_from(f"{server.url}/api/health", "127.0.0.3").status_code == 200
        finally:
            for s in held:
                s.close()


def test_a_trusted_proxys_connections_are_not_capped(tmp_path: Path) -> None:
    with running_server(tmp_path / "web.sqlite3",
                        extra_args=["--connections-per-address", "2",
                                    "--trust-proxy", "127.0.0.1"]) as server:
        held = [connect(server.port) for _ in range(6)]  # the proxy, carrying 6 clients
        try:
            r = httpx.get(f"{server.url}/api/health", headers={"X-Forwarded-For": "203.0.113.9"})
            assert r.status_code == 200
            for s in held:
                s.settimeout(0.2)
                with pytest.raises(TimeoutError):
                    s.recv(10)  # still open, nothing refused
        finally:
            for s in held:
                s.close()


# ----- --trust-proxy -------------------------------------------------------------------

@pytest.mark.parametrize("setting", ["*", "0.0.0.0/0", "::/0", "127.0.0.1,0.0.0.0/0"])
def test_trusting_every_address_is_refused(setting: str) -> None:
    result = CliRunner().invoke(cli, ["serve", "--trust-proxy", setting])
    assert result.exit_code == 2
    assert "trusts every address" in result.output and "--trust-any-proxy" in result.output
    with pytest.raises(UnsafeProxies):
        parse_proxies(setting)
    assert "203.0.113.9" in parse_proxies(setting, any_allowed=True)


def test_a_proxy_that_is_not_an_address_is_refused() -> None:
    result = CliRunner().invoke(cli, ["serve", "--trust-proxy", "proxy.example.org"])
    assert result.exit_code == 2 and "'proxy.example.org' is not an IP address" in result.output


def test_risky_trust_is_warned_about_when_listening_beyond_this_machine() -> None:
    wide = parse_proxies("10.0.0.0/8")
    assert "203.0.113.9" not in wide and "10.1.2.3" in wide
    assert any("any machine there" in w for w in wide.warnings("0.0.0.0"))
    assert wide.warnings("127.0.0.1") == []
    local = parse_proxies("127.0.0.1, ::1")
    assert any("go round the proxy" in w for w in local.warnings("0.0.0.0"))
    assert local.uvicorn_setting() == "127.0.0.1,::1"
    assert parse_proxies("10.0.0.5").warnings("0.0.0.0") == []


def test_serve_warns_about_risky_trust_and_passes_its_settings_on(monkeypatch) -> None:
    import kingscrib.web.app.factory as app

    started = []
    monkeypatch.setattr(app, "run", lambda host, port, settings, **_: started.append(
        (host, settings)))
    result = CliRunner().invoke(cli, [
        "serve", "--host", "0.0.0.0", "--database-url", "sqlite:///:memory:",
        "--trust-proxy", "10.0.0.0/8", "--header-timeout", "3",
        "--body-timeout", "7", "--keep-alive-timeout", "2", "--connections-per-address", "9"])
    assert result.exit_code == 0, result.output
    assert "Warning: --trust-proxy 10.0.0.0/8: any machine there" in result.stderr
    (host, settings), = started
    assert host == "0.0.0.0" and settings.trusted_proxies == "10.0.0.0/8"
    connections = settings.connections
    assert (connections.header_timeout, connections.body_timeout,
            connections.keep_alive_timeout, connections.per_address) == (3, 7, 2, 9)
    result = CliRunner().invoke(cli, ["serve", "--trust-any-proxy"])
    assert result.exit_code == 2 and "goes with --trust-proxy" in result.output
