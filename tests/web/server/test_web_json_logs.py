"""``kingscrib serve --log-format json``: every line the server writes is one JSON
object, and no seat token or invite code is in any of them."""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

import httpx
import pytest
from web_support import Server, auth

from kingscrib.web.server.logs import JsonLines, RedactSecrets

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_every_line_is_json_and_holds_no_token_or_invite(tmp_path: Path) -> None:
    import websockets.sync.client as ws_client

    server = Server(tmp_path / "web.sqlite3",
                    extra_args=["--log-format", "json", "--log-level", "info"]).start()
    try:
        c = httpx.Client(base_url=server.url)
        created = c.post("/api/games", json={"seats": [{}, {}]}).json()
        gid, token, invite = created["game_id"], created["token"], created["invite"]
        joined = c.post(f"/api/games/{gid}/join", json={"invite": invite}).json()
        secrets = [token, invite, joined["token"]]
        # Secrets where a careless client puts them: page and API URLs, a websocket URL.
        assert c.get(f"/?invite={invite}").status_code == 200
        assert c.get(f"/api/games/{gid}?token={token}&x=1", headers=auth(token)).status_code == 200
        assert c.get(f"/nothing?seat_token={joined['token']}").status_code == 404
        with ws_client.connect(f"ws://127.0.0.1:{server.port}/api/games/{gid}/ws"
                               f"?token={token}&invite={invite}") as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
    finally:
        server.stop()
    output = server.process.stdout.read().decode("utf-8")
    lines = output.splitlines()
    records = [json.loads(line) for line in lines]  # every line parses
    assert all(isinstance(r, dict) and {"time", "level", "logger", "message"} <= r.keys()
               for r in records)
    for secret in secrets:
        assert secret not in output
    access = {r["path"]: r for r in records if r["logger"] == "uvicorn.access"}
    assert access["/?invite=…"]["status"] == 200 and access["/?invite=…"]["method"] == "GET"
    assert access[f"/api/games/{gid}?token=…&x=1"]["status"] == 200
    assert access["/nothing?seat_token=…"]["status"] == 404
    assert any(f"/api/games/{gid}/ws?token=…&invite=…" in r["message"] for r in records)
    assert any(r["message"] == "Application startup complete." for r in records)


def test_a_traceback_is_one_line_and_redacted_too() -> None:
    try:
        raise ValueError("could not open /api/games/abc?invite=SECRET-INVITE")
    except ValueError:
        record = logging.LogRecord("kingscrib.web", logging.ERROR, __file__, 1,
                                   "failed for %s", ("/x?token=SECRET-TOKEN",), sys.exc_info())
    RedactSecrets().filter(record)
    line = JsonLines().format(record)
    assert "\n" not in line and "SECRET" not in line
    data = json.loads(line)
    assert data["message"] == "failed for /x?token=…" and data["level"] == "ERROR"
    assert "ValueError: could not open /api/games/abc?invite=…" in data["exc_info"]
