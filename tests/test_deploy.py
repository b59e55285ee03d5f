"""The deployment examples in deploy/ work as shipped: nginx (deploy/nginx/kingscrib.conf)
runs in front of a real ``kingscrib serve`` with a certificate made here, and the
systemd units pass ``systemd-analyze verify`` and start the server with options it has."""

from __future__ import annotations

import configparser
import contextlib
import json
import shlex
import shutil
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from web_support import free_port, running_server

from kingscrib.cli.web_commands import serve

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def self_signed(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-keyout", str(key), "-out", str(cert), "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                   check=True, capture_output=True)
    return cert, key


def replaced(text: str, changes: dict[str, str]) -> str:
    """``text`` with each key replaced, each found exactly once (so the test follows the
    shipped file and breaks when the file changes under it)."""
    for old, new in changes.items():
        assert text.count(old) == 1, f"{old!r} is in the shipped file {text.count(old)} times"
        text = text.replace(old, new)
    return text


@contextlib.contextmanager
def nginx_in_front(folder: Path, upstream: int) -> Iterator[tuple[int, int]]:
    """nginx running deploy/nginx/kingscrib.conf (ports and certificate changed) in front
    of a server on ``upstream``; yields its HTTP and HTTPS ports."""
    cert, key = self_signed(folder)
    http_port, https_port = free_port(), free_port()
    site = replaced((DEPLOY / "nginx" / "kingscrib.conf").read_text(), {
        "listen 80;": f"listen 127.0.0.1:{http_port};",
        "listen 443 ssl;": f"listen 127.0.0.1:{https_port} ssl;",
        "server 127.0.0.1:8000;": f"server 127.0.0.1:{upstream};",
        "/etc/letsencrypt/live/play.example.org/fullchain.pem": str(cert),
        "/etc/letsencrypt/live/play.example.org/privkey.pem": str(key),
    })
    (folder / "kingscrib.conf").write_text(site)
    # nginx's own frame, as a distribution's nginx.conf has it, in folders of the test.
    (folder / "nginx.conf").write_text(f"""
daemon off;
master_process off;
pid {folder}/nginx.pid;
error_log {folder}/error.log;
events {{ worker_connections 256; }}
http {{
    access_log {folder}/access.log;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/kingscrib.conf;
}}
""")
    process = subprocess.Popen([NGINX, "-c", str(folder / "nginx.conf"), "-p", str(folder)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 10
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"nginx stopped: {process.stdout.read().decode()}"
                                   f"{(folder / 'error.log').read_text()}")
            with contextlib.suppress(httpx.HTTPError):
                httpx.get(f"http://127.0.0.1:{http_port}/", timeout=1)
                break
            assert time.monotonic() < deadline, "nginx did not start"
            time.sleep(0.1)
        yield http_port, https_port
    finally:
        process.terminate()
        process.wait(10)


@pytest.fixture(scope="module")
def proxied(tmp_path_factory):
    """A server trusting only nginx on this machine, with a small per-address burst."""
    folder = tmp_path_factory.mktemp("deploy")
    with running_server(folder / "web.sqlite3", extra_args=[
            "--trust-proxy", "127.0.0.1", "--limit", "address_rate=0.5",
            "--limit", "address_burst=15"]) as server:
        with nginx_in_front(folder, server.port) as (http_port, https_port):
            yield server, http_port, https_port, folder / "cert.pem"


def https_client(cert: Path, source: str) -> httpx.Client:
    """A client of nginx's HTTPS port connecting from the loopback address ``source``."""
    context = ssl.create_default_context(cafile=str(cert))
    return httpx.Client(timeout=10, transport=httpx.HTTPTransport(local_address=source,
                                                                   verify=context))


def test_https_with_hsts_and_plain_http_sent_to_https(proxied) -> None:
    _, http_port, https_port, cert = proxied
    with https_client(cert, "127.0.0.4") as c:
        r = c.get(f"https://127.0.0.1:{https_port}/api/health")
    assert r.status_code == 200 and r.json()["status"] == "ok"
    assert r.headers["strict-transport-security"].startswith("max-age=31536000")
    assert "default-src 'self'" in r.headers["content-security-policy"]  # the server's own
    plain = httpx.get(f"http://127.0.0.1:{http_port}/api/health")
    assert plain.status_code == 301
    assert plain.headers["location"] == "https://127.0.0.1/api/health"


def test_a_forged_x_forwarded_for_does_not_change_the_clients_address(proxied) -> None:
    _, _, https_port, cert = proxied
    url = f"https://127.0.0.1:{https_port}/api/levels"
    with https_client(cert, "127.0.0.2") as forger:
        # A new made-up address on every request: were any believed, each would have a
        # whole burst of its own and none would be refused.
        codes = [forger.get(url, headers={"X-Forwarded-For": f"198.51.100.{i}"}).status_code
                 for i in range(40)]
    assert codes.count(429) >= 20, codes
    refused = codes.index(429)
    assert codes[:refused] == [200] * refused
    # The limit is the forger's, not the proxy's: another client still gets in.
    with https_client(cert, "127.0.0.3") as other:
        assert other.get(url).status_code == 200


def test_websockets_work_through_the_proxy(proxied) -> None:
    from websockets.sync.client import connect

    _, _, https_port, cert = proxied
    context = ssl.create_default_context(cafile=str(cert))
    with https_client(cert, "127.0.0.5") as c:
        r = c.post(f"https://127.0.0.1:{https_port}/api/games", json={
            "seats": [{"kind": "human"}, {"kind": "human"}]})
        assert r.status_code == 201, r.text
        created = r.json()
    with connect(f"wss://127.0.0.1:{https_port}/api/games/{created['game_id']}/ws",
                 ssl=context, proxy=None, open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": created["token"]}))
        assert json.loads(ws.recv(10)) == {"type": "welcome", "seat": created["seat"]}
        state = json.loads(ws.recv(10))
        assert state["type"] == "state" and state["state"]["id"] == created["game_id"]
        ws.send(json.dumps({"type": "ping", "ref": 1}))
        while (reply := json.loads(ws.recv(10)))["type"] != "pong":
            pass
        assert reply == {"type": "pong", "ref": 1}


# ----- systemd ---------------------------------------------------------------------------

UNITS = ["kingscrib.service", "kingscrib@.service"]


def unit_for_this_machine(name: str, folder: Path) -> Path:
    """The unit with ExecStart's program this test's ``kingscrib`` (systemd checks that it
    exists); a template gets an instance (a port)."""
    kingscrib = shutil.which("kingscrib", path=str(Path(sys.executable).parent)) or \
        shutil.which("kingscrib")
    assert kingscrib, "the kingscrib command is not installed"
    text = replaced((DEPLOY / "systemd" / name).read_text(),
                    {"ExecStart=/opt/kingscrib/bin/kingscrib": f"ExecStart={kingscrib}"})
    path = folder / name.replace("@.", "@8001.")
    path.write_text(text)
    return path


@pytest.mark.parametrize("name", UNITS)
def test_the_systemd_units_are_valid_and_start_the_server_with_its_own_options(
        name: str, tmp_path: Path) -> None:
    unit = unit_for_this_machine(name, tmp_path)
    if shutil.which("systemd-analyze"):
        done = subprocess.run(["systemd-analyze", "verify", str(unit)],
                              capture_output=True, text=True)
        assert done.returncode == 0 and not done.stderr.strip(), done.stderr
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str
    parser.read_string((DEPLOY / "systemd" / name).read_text())
    assert {"Unit", "Service", "Install"} <= set(parser.sections())
    words = shlex.split(parser["Service"]["ExecStart"].replace("%i", "8001"))
    assert words[:2] == ["/opt/kingscrib/bin/kingscrib", "serve"]
    context = serve.make_context("serve", words[2:])  # click refuses an unknown option
    assert context.params["host"] == "127.0.0.1"
    assert context.params["trust_proxy"] == "127.0.0.1"
