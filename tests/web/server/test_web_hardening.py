"""The server against a hostile client: limits per address, floods, bad text, deep
nesting, oversized and chunked bodies, stray fields, names, headers, logs, hints."""

from __future__ import annotations

import asyncio
import json
import time
import unicodedata
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect
from web_support import auth, in_process_client, running_server

from kingscrib.web.accounts.names import MAX_MARKS, MAX_NAME, clean_name, person_name
from kingscrib.web.errors import WebError
from kingscrib.web.server.edge import CSP

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TWO = {"seats": [{"kind": "human"}, {"kind": "human"}], "seed": 11}


@pytest.fixture
def web_db(tmp_path: Path) -> Path:
    return tmp_path / "web.sqlite3"


def client_for(db: Path, **limits) -> TestClient:
    return in_process_client(f"sqlite:///{db}", **limits)


def closed(ws) -> WebSocketDisconnect:
    """Read until the server closes the socket; the close frame's code and reason."""
    for _ in range(500):
        try:
            ws.receive_text()
        except WebSocketDisconnect as e:
            return e
    raise AssertionError("the socket stayed open")


def hello(client: TestClient, gid: str, token: str | None = None):
    ws = client.websocket_connect(f"/api/games/{gid}/ws")
    ws.__enter__()
    ws.send_json({"type": "hello", "token": token})
    assert ws.receive_json()["type"] == "welcome"
    ws.receive_json()  # the state
    return ws


# ----- limits per address -----------------------------------------------------------

def test_requests_are_limited_per_address_on_new_connections(tmp_path: Path) -> None:
    # A real server: every request below opens a new TCP connection (new client port).
    with running_server(tmp_path / "web.sqlite3",
                        # (a token every 20 s: a slow machine's 41 requests refill none)
                        extra_args=["--limit", "address_rate=0.05", "--limit",
                                    "address_burst=20"]) as server:
        codes = [httpx.get(f"{server.url}/api/levels").status_code for _ in range(40)]
        # (the start-up health checks took a few of the burst of 20 already)
        assert codes[:10] == [200] * 10 and codes.count(429) >= 15, codes
        r = httpx.get(f"{server.url}/api/levels")
        assert r.status_code == 429 and "your address" in r.json()["error"]
        assert r.headers["retry-after"] == "1"


def test_games_created_an_hour_are_limited_per_address(web_db: Path) -> None:
    with client_for(web_db, games_per_hour=3) as c:
        codes = [c.post("/api/games", json=TWO).status_code for _ in range(5)]
        assert codes == [201, 201, 201, 429, 429]
        r = c.post("/api/games", json=TWO)
        assert "too many games" in r.json()["error"]


def test_open_websockets_are_limited_per_address(web_db: Path) -> None:
    with client_for(web_db, sockets_per_address=2) as c:
        gid = c.post("/api/games", json=TWO).json()["game_id"]
        first, second = hello(c, gid), hello(c, gid)
        with c.websocket_connect(f"/api/games/{gid}/ws") as third:
            e = closed(third)
            assert e.code == 1008 and "too many open websockets" in e.reason
        second.__exit__(None, None, None)
        again = hello(c, gid)  # a closed socket frees its place
        again.__exit__(None, None, None)
        first.__exit__(None, None, None)


def test_a_flood_of_messages_is_closed_with_a_code_and_a_reason(web_db: Path) -> None:
    with client_for(web_db, rate_per_second=5, rate_burst=10) as c:
        gid = c.post("/api/games", json=TWO).json()["game_id"]
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            for i in range(100):
                ws.send_json({"type": "ping", "ref": i})
            seen = []
            try:
                for _ in range(200):
                    seen.append(ws.receive_json())
            except WebSocketDisconnect as e:
                assert e.code == 1008 and e.reason == "too many messages: slow down"
            else:
                raise AssertionError("the flood was not closed")
            assert any(m.get("status") == 429 for m in seen)


def test_the_per_address_rate_covers_websocket_messages_too(web_db: Path) -> None:
    with client_for(web_db, address_rate=1, address_burst=15) as c:
        gid = c.post("/api/games", json=TWO).json()["game_id"]
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            for i in range(20):
                ws.send_json({"type": "ping", "ref": i})
            statuses = [ws.receive_json().get("status", 200) for _ in range(20)]
            assert 429 in statuses


# ----- bad text, depth, size --------------------------------------------------------

def test_a_lone_surrogate_closes_the_websocket_with_1007(web_db: Path) -> None:
    with client_for(web_db) as c:
        gid = c.post("/api/games", json=TWO).json()["game_id"]
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.send_text('{"type":"hello","token":"\\ud800"}')
            e = closed(ws)
            assert e.code == 1007 and "surrogate" in e.reason
        # the server carries on
        assert c.get(f"/api/games/{gid}").status_code == 200


def test_deep_nesting_and_long_messages_close_the_websocket_with_1009(web_db: Path) -> None:
    with client_for(web_db) as c:
        gid = c.post("/api/games", json=TWO).json()["game_id"]
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.send_text("[" * 1500 + "]" * 1500)
            e = closed(ws)
            assert e.code == 1009 and "nested" in e.reason
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.send_text(json.dumps({"type": "ping", "pad": "x" * 5000}))
            e = closed(ws)
            assert e.code == 1009 and "4096" in e.reason
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.send_bytes(b'{"type": "ping"}')
            assert closed(ws).code == 1003


def test_bad_text_and_deep_nesting_over_http_get_422(web_db: Path) -> None:
    with client_for(web_db) as c:
        json_type = {"content-type": "application/json"}
        r = c.post("/api/games", content='{"seats": [{"name": "\\ud800"}, {}]}', headers=json_type)
        assert r.status_code == 422 and "surrogate" in r.json()["error"]
        r = c.post("/api/games", content=b'{"seats": [{"name": "\xff"}, {}]}', headers=json_type)
        assert r.status_code == 422 and "UTF-8" in r.json()["error"]
        r = c.post("/api/games", content="[" * 1500 + "]" * 1500, headers=json_type)
        assert r.status_code == 422 and "nested" in r.json()["error"]


def test_an_oversized_chunked_body_gets_413(tmp_path: Path) -> None:
    def chunks():
        for _ in range(20):
            yield b" " * 1024

    with running_server(tmp_path / "web.sqlite3") as server:
        r = httpx.post(f"{server.url}/api/games", content=chunks(),
                       headers={"content-type": "application/json"})
        assert "content-length" not in r.request.headers  # sent in chunks
        assert r.status_code == 413 and "16384" in r.json()["error"]
        small = httpx.post(f"{server.url}/api/games", content=iter([json.dumps(TWO).encode()]),
                           headers={"content-type": "application/json"})
        assert small.status_code == 201


# ----- actions take only their own fields ---------------------------------------------

def test_unknown_fields_of_an_action_are_refused(web_db: Path) -> None:
    with client_for(web_db) as c:
        created = c.post("/api/games", json=TWO).json()
        gid = created["game_id"]
        joined = c.post(f"/api/games/{gid}/join", json={"invite": created["invite"]}).json()
        mover = created["token"] if created["state"]["turn"] == 0 else joined["token"]
        before = c.get(f"/api/games/{gid}").json()
        r = c.post(f"/api/games/{gid}/actions", json={"action": "pass", "tiles": ["7L"]},
                   headers=auth(mover))
        assert r.status_code == 400 and "a pass does not take tiles" in r.json()["error"]
        r = c.post(f"/api/games/{gid}/actions", json={"action": "exchange", "tiles": ["7L"],
                                                      "claim": 3}, headers=auth(mover))
        assert r.status_code == 400 and "claim" in r.json()["error"]
        ws = hello(c, gid, mover)
        ws.send_json({"type": "action", "action": "pass", "evil": 1, "ref": 2})
        reply = ws.receive_json()
        while reply["type"] == "update":
            reply = ws.receive_json()
        assert reply["status"] == 400 and "evil" in reply["error"] and reply["ref"] == 2
        ws.__exit__(None, None, None)
        assert c.get(f"/api/games/{gid}").json() == before
        classic = c.post("/api/games", json={"game": "classic", "seed": 3, "seats": [
            {"kind": "human"}, {"kind": "computer", "level": "easy"}]}).json()
        r = c.post(f"/api/games/{classic['game_id']}/actions",
                   json={"action": "go", "card": "5H"}, headers=auth(classic["token"]))
        assert r.status_code == 400 and "a go does not take card" in r.json()["error"]


# ----- names --------------------------------------------------------------------------

def test_names_are_normalised() -> None:
    assert clean_name("Ann\u202eeve", "x") == "Anneve"  # right-to-left override
    assert clean_name("B\u200bo\u200db\ufeff", "x") == "Bob"  # zero-width characters
    assert clean_name("Cafe\u0301", "x") == "Café" and len(clean_name("Cafe\u0301", "x")) == 4
    assert clean_name("Z" + "\u0301" * 50, "x") == unicodedata.normalize("NFC", "Z\u0301\u0301")
    assert clean_name("\u0179" + "\u0301" * 50, "x") == clean_name("Z" + "\u0301" * 50, "x")
    assert clean_name("a\tb\n\x00c   d", "x") == "a b c d"
    assert clean_name("x" * 100, "d") == "x" * MAX_NAME
    assert clean_name("\u202e\u200b ", "Player 2") == "Player 2"
    assert clean_name("<script>", "x") == "script"


@pytest.mark.parametrize("name", ["Computer (expert)", "computer", "ＣＯＭＰＵＴＥＲ",
                                  "C o m p u t e r", "Cömputer", "the computer"])
def test_a_person_cannot_pose_as_a_computer(name: str) -> None:
    with pytest.raises(WebError) as e:
        person_name(name, "Player 1")
    assert e.value.status == 400 and "computer" in e.value.message


@given(st.text(max_size=80))
def test_every_clean_name_is_short_visible_and_stable(name: str) -> None:
    text = clean_name(name, "Player")
    assert text and text == text.strip()
    assert unicodedata.is_normalized("NFC", text)
    assert clean_name(text, "Player") == text
    letters = marks = 0
    for ch in text:
        category = unicodedata.category(ch)
        assert category not in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") and ch not in "<>"
        if category in ("Mn", "Me", "Mc"):
            marks += 1
            assert marks <= MAX_MARKS
        else:
            marks = 0
            letters += 1
    assert letters <= MAX_NAME


def test_names_posing_as_computers_are_refused_on_create_and_join(web_db: Path) -> None:
    with client_for(web_db) as c:
        r = c.post("/api/games", json={"seats": [{"kind": "human", "name": "Computer (sim)"},
                                                 {"kind": "human"}]})
        assert r.status_code == 400 and "computer" in r.json()["error"]
        created = c.post("/api/games", json=TWO).json()
        gid = created["game_id"]
        r = c.post(f"/api/games/{gid}/join", json={"invite": created["invite"],
                                                   "name": "Computer (expert)"})
        assert r.status_code == 400
        r = c.post(f"/api/games/{gid}/join", json={"invite": created["invite"],
                                                   "name": "Bo\u202eb\u200b"})
        assert r.status_code == 200
        assert c.get(f"/api/games/{gid}").json()["seats"][1]["name"] == "Bob"
        # a computer seat is named after its level (tests/web/accounts/test_web_names.py)
        r = c.post("/api/games", json={"seats": [{"kind": "human"}, {
            "kind": "computer", "level": "greedy"}]})
        assert r.json()["state"]["seats"][1]["name"] == "Computer (Greedy)"


# ----- headers and logs ---------------------------------------------------------------

def test_security_headers_on_every_reply(web_db: Path) -> None:
    with client_for(web_db, games_per_hour=1) as c:
        replies = [c.get("/"), c.get("/api/levels"), c.get("/static/js/pages/lobby.js"),
                   c.get("/api/games/nope")]
        c.post("/api/games", json=TWO)
        replies.append(c.post("/api/games", json=TWO))  # a 429 from the limits
        for r in replies:
            csp = r.headers["content-security-policy"]
            assert csp == CSP and "script-src 'self';" in csp
            assert "frame-ancestors 'none'" in csp
            assert r.headers["referrer-policy"] == "no-referrer"
            assert r.headers["x-content-type-options"] == "nosniff"
        assert replies[-1].status_code == 429


def test_no_secret_of_a_url_reaches_the_log(tmp_path: Path) -> None:
    server_args = ["--log-level", "info"]
    with running_server(tmp_path / "web.sqlite3", extra_args=server_args) as server:
        httpx.get(f"{server.url}/?game=abc&invite=INVITESECRET1")
        httpx.get(f"{server.url}/api/games/abc?token=TOKENSECRET2&x=1",
                  headers={"Authorization": "Bearer HEADERSECRET3"})
        httpx.get(f"{server.url}/api/levels?seat_token=TOKENSECRET4")
        time.sleep(0.3)
        server.stop()
        log = server.process.stdout.read().decode()
    assert "GET /?game=abc&invite=… HTTP/1.1" in log  # the request is logged, redacted
    for secret in ("INVITESECRET1", "TOKENSECRET2", "HEADERSECRET3", "TOKENSECRET4"):
        assert secret not in log


# ----- hints wait in a queue per client ------------------------------------------------

def test_hints_queue_per_client_and_never_hold_up_computer_seats(tmp_path: Path,
                                                                monkeypatch) -> None:
    from kingscrib.web.db.storage import Store
    from kingscrib.web.play.games import kings_analysis as analysis
    from kingscrib.web.play.rooms import Hub

    real = analysis.hint_from

    def slow_hint(inputs, *args):
        time.sleep(0.25)  # a hint that takes a while
        return real(inputs, *args)

    monkeypatch.setattr(analysis, "hint_from", slow_hint)
    finished: list[str] = []  # the clients, in the order their hints came back

    async def hint(hub: Hub, room, seat: int, client: str) -> dict:
        result = await hub.hint(room, seat, client)
        finished.append(client)
        return result

    async def scenario() -> None:
        hub = Hub(Store(f"sqlite:///{tmp_path / 'h.sqlite3'}"), 0.0, 1, True, hints_waiting=3)
        try:
            room, _, _, _ = await hub.create([{"kind": "human"}, {"kind": "human"}], {},
                                             seed=11, hints=True)
            mover = room.game.game.turn
            bots, _, _, _ = await hub.create([{"kind": "computer", "level": "greedy"},
                                              {"kind": "computer", "level": "greedy"}], {},
                                             seed=5)
            turns_before = bots.game.turn_count
            greedy = [asyncio.ensure_future(hint(hub, room, mover, "10.0.0.1"))
                      for _ in range(5)]
            await asyncio.sleep(0.05)
            other = asyncio.ensure_future(hint(hub, room, mover, "10.0.0.2"))
            results = await asyncio.gather(*greedy, return_exceptions=True)
            await other
            refused = [r for r in results if isinstance(r, WebError)]
            assert len(refused) == 2 and all(r.status == 429 for r in refused)
            # One client's hints take turns with everyone else's: the other client waited
            # only for the hint running when it asked, not for the three queued.
            assert finished == ["10.0.0.1", "10.0.0.2", "10.0.0.1", "10.0.0.1"]
            # Meanwhile (a second at least) the computer game moved on: hints have a
            # thread of their own.
            assert bots.game.turn_count - turns_before >= 10
        finally:
            await hub.close()

    asyncio.run(scenario())


def test_refused_creations_do_not_use_up_the_games_an_hour(web_db: Path) -> None:
    bad = [{"seats": [{"kind": "computer", "level": "grandmaster"}, {"kind": "human"}]},
           {"seats": [{"kind": "human"}] * 5},
           {"seats": [{"kind": "human"}, {"kind": "human"}], "rules": {"joker": "often"}},
           {**TWO, "clock_seconds": -5},
           {**TWO, "game": "chess"}]
    with client_for(web_db, games_per_hour=2) as c:
        codes = [c.post("/api/games", json=body).status_code for body in bad * 3]
        assert all(400 <= code < 429 for code in codes), codes
        codes = [c.post("/api/games", json=TWO).status_code for _ in range(3)]
        assert codes == [201, 201, 429]


@pytest.mark.parametrize("method, path", [
    ("POST", "/api/chat/{id}/report"), ("POST", "/api/moderation/messages/{id}/hide"),
    ("POST", "/api/moderation/reports/{id}/dismiss"), ("DELETE", "/api/moderation/bans/{id}"),
    ("GET", "/api/tournaments/{id}"), ("POST", "/api/tournaments/{id}/join"),
    ("POST", "/api/teams/{id}/join")])
@pytest.mark.parametrize("row_id", ["0", "-3", str(2**63), "1267205777306827358208"])
def test_a_row_id_out_of_range_is_a_clear_422_not_a_database_error(
        web_db: Path, method: str, path: str, row_id: str) -> None:
    with client_for(web_db) as client:
        r = client.request(method, path.replace("{id}", row_id))
    assert r.status_code == 422, r.text
