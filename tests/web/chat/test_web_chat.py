"""Chat in a game (docs/web.md, "Chat"): the players' room and the spectators' room,
checked and limited messages, nothing stored when refused, never in the game record;
mutes, reports, moderators hiding messages and banning accounts; two server processes
on PostgreSQL delivering each other's messages."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from sqlalchemy import create_engine
from web_support import Server, auth, https_client, postgres_cluster, table_count
from websockets.sync.client import connect

from kingscrib.web.accounts import moderation
from kingscrib.web.chat.rooms import BURST
from kingscrib.web.chat.store import chat_messages, chat_reports
from kingscrib.web.chat.text import MAX_CHARS

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

PASSWORD = "correct horse battery"
MESSAGE_KEYS = {"id", "room", "sender", "name", "text", "at"}


@pytest.fixture()
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'web.sqlite3'}"

def signup(c: Any, name: str) -> dict[str, str]:
    r = c.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return {"X-CSRF-Token": r.json()["csrf"]}


def game(c: Any) -> tuple[str, str, str]:
    """A game of two people: its id and both seat tokens."""
    r = c.post("/api/games", json={"seats": [{"name": "Ann"}, {"name": "Bob"}], "seed": 3})
    assert r.status_code == 201, r.text
    created = r.json()
    joined = c.post(f"/api/games/{created['game_id']}/join",
                    json={"invite": created["invite"], "name": "Bob"}).json()
    return created["game_id"], created["token"], joined["token"]

def say(c: Any, gid: str, text: str, token: str | None = None,
        headers: dict[str, str] | None = None) -> Any:
    return c.post(f"/api/games/{gid}/chat", json={"text": text},
                  headers={**(auth(token) if token else {}), **(headers or {})})


def make_moderator(url: str, name: str) -> None:
    from kingscrib.cli.main import cli

    done = CliRunner().invoke(cli, ["moderator", "grant", name, "--database-url", url])
    assert done.exit_code == 0 and f"{name} is a moderator" in done.output, done.output


# ----- the two rooms ---------------------------------------------------------------------
def test_a_game_of_computers_only_says_it_has_no_players_room(url: str) -> None:
    with https_client(url) as c:
        bots = c.post("/api/games", json={
            "seats": [{"kind": "computer", "level": "greedy"}] * 2}).json()["game_id"]
        gid, _, _ = game(c)
        assert c.get(f"/api/games/{bots}/chat").json()["players"] is False
        assert c.get(f"/api/games/{gid}/chat").json()["players"] is True
        with c.websocket_connect(f"/api/games/{bots}/chat/ws") as ws:
            ws.send_json({"type": "hello"})
            welcome = ws.receive_json()
            assert welcome["room"] == "spectators" and welcome["players"] is False


def test_players_and_spectators_chat_live_in_separate_rooms(url: str) -> None:
    with https_client(url) as c:
        gid, ann, bob = game(c)
        with c.websocket_connect(f"/api/games/{gid}/chat/ws") as a, \
                c.websocket_connect(f"/api/games/{gid}/chat/ws") as b:
            a.send_json({"type": "hello", "token": ann})
            b.send_json({"type": "hello", "token": bob})
            welcome = a.receive_json()
            assert welcome == {"type": "chat_welcome", "room": "players", "you": "g0",
                               "can_write": True, "players": True, "messages": []}
            assert b.receive_json()["you"] == "g1"
            a.send_json({"type": "say", "text": "good luck <b>Bob</b>", "ref": 7})
            heard = b.receive_json()
            assert heard["type"] == "chat" and set(heard["message"]) == MESSAGE_KEYS
            assert heard["message"]["text"] == "good luck <b>Bob</b>"  # the page escapes it
            assert heard["message"]["name"] == "Ann"
            assert a.receive_json()["type"] == "chat"
            assert a.receive_json() == {"type": "ok", "ref": 7, "message": heard["message"]}
            # A spectator reads the spectators' room only: a guest may not write in it.
            spectator = c.get(f"/api/games/{gid}/chat",
                              headers={"Cookie": ""}).json()
            assert spectator["room"] == "spectators" and spectator["messages"] == []
        # Logged in, a spectator writes there; the players' room never shows it.
        fan = signup(c, "Fan")
        r = say(c, gid, "nice game", headers=fan)
        assert r.status_code == 201, r.text
        assert r.json()["room"] == "spectators" and r.json()["name"] == "Fan"
        players = c.get(f"/api/games/{gid}/chat", headers=auth(bob)).json()
        assert [m["text"] for m in players["messages"]] == ["good luck <b>Bob</b>"]
        watchers = c.get(f"/api/games/{gid}/chat").json()
        assert [m["text"] for m in watchers["messages"]] == ["nice game"]


def test_a_guest_spectator_reads_but_cannot_write(url: str) -> None:
    with https_client(url) as c:
        gid, _ann, _bob = game(c)
        r = say(c, gid, "hello")
        assert r.status_code == 403 and "log in" in r.json()["error"]
        with c.websocket_connect(f"/api/games/{gid}/chat/ws") as ws:
            ws.send_json({"type": "hello"})
            assert ws.receive_json()["can_write"] is False
            ws.send_json({"type": "say", "text": "hi", "ref": 1})
            assert ws.receive_json()["status"] == 403
    assert table_count(url, chat_messages) == 0


def test_a_spectators_cookie_write_needs_the_csrf_token(url: str) -> None:
    with https_client(url) as c:
        gid, _ann, _bob = game(c)
        signup(c, "Fan")
        r = say(c, gid, "no token")
        assert r.status_code == 403 and "CSRF" in r.json()["error"]
    assert table_count(url, chat_messages) == 0


# ----- bad input -------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "says"), [
    ("x" * (MAX_CHARS + 1), f"at most {MAX_CHARS} characters, not {MAX_CHARS + 1}"),
    ("bell\x07", "control character (U+0007 BELL)"),
    ("two\nlines", "line break (U+000A LINE FEED)"),
    ("evil \u202eright-to-left", "bidirectional control (U+202E RIGHT-TO-LEFT OVERRIDE)"),
    ("zero\u200bwidth", "invisible character (U+200B ZERO WIDTH SPACE)"),
    ("\u0301" * 200, "combining mark with no letter before it"),
    ("   ", "an empty message"),
])
def test_bad_messages_are_refused_with_a_reason_and_nothing_is_stored(
        url: str, text: str, says: str) -> None:
    with https_client(url) as c:
        gid, ann, _bob = game(c)
        r = say(c, gid, text, ann)
        assert r.status_code == 400 and says in r.json()["error"], r.text
        with c.websocket_connect(f"/api/games/{gid}/chat/ws") as ws:
            ws.send_json({"type": "hello", "token": ann})
            ws.receive_json()
            ws.send_json({"type": "say", "text": text, "ref": "x"})
            refused = ws.receive_json()
            assert refused["type"] == "error" and says in refused["error"]
    assert table_count(url, chat_messages) == 0


def test_the_chat_socket_refuses_binary_frames_and_bad_json_with_reasons(url: str) -> None:
    from starlette.websockets import WebSocketDisconnect

    with https_client(url) as c:
        gid, ann, _bob = game(c)
        with c.websocket_connect(f"/api/games/{gid}/chat/ws") as ws:
            ws.send_text("not json")
            assert ws.receive_json()["error"] == "a message is a JSON object"
            ws.send_json({"type": "say", "text": "hi"})
            assert "hello" in ws.receive_json()["error"]
            ws.send_json({"type": "hello", "token": ann})
            ws.receive_json()
            ws.send_bytes(b"\x00\x01")
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1003
    assert table_count(url, chat_messages) == 0


def test_the_longest_message_and_emoji_with_joiners_are_accepted(url: str) -> None:
    with https_client(url) as c:
        gid, ann, _bob = game(c)
        assert say(c, gid, "y" * MAX_CHARS, ann).status_code == 201
        family = "\U0001F468\u200d\U0001F469\u200d\U0001F467"
        assert say(c, gid, family, ann).json()["text"] == family
    assert table_count(url, chat_messages) == 2


def test_flooding_is_refused_per_sender_and_nothing_more_is_stored(url: str) -> None:
    with https_client(url) as c:
        gid, ann, bob = game(c)
        answers = [say(c, gid, f"spam {i}", ann).status_code for i in range(BURST + 3)]
        assert answers == [201] * BURST + [429] * 3
        assert "too fast" in say(c, gid, "more", ann).json()["error"]
        assert say(c, gid, "my turn to talk", bob).status_code == 201  # another sender
    assert table_count(url, chat_messages) == BURST + 1


# ----- never in the game -----------------------------------------------------------------
def test_chat_is_never_in_the_game_state_or_its_record(url: str) -> None:
    with https_client(url) as c:
        gid, ann, bob = game(c)
        assert say(c, gid, "SECRET-CHAT-WORDS", ann).status_code == 201
        state = c.get(f"/api/games/{gid}", headers=auth(bob)).text
        assert "SECRET-CHAT-WORDS" not in state
        assert c.post(f"/api/games/{gid}/resign", headers=auth(ann)).status_code == 200
        record = c.get(f"/api/games/{gid}/record")
        assert record.status_code == 200 and "SECRET-CHAT-WORDS" not in record.text


def test_nothing_of_the_game_reaches_the_chat(url: str) -> None:
    """A chat message and a room's history carry the message's own fields only: no
    rack, hand, bag or seat token of anyone."""
    with https_client(url) as c:
        gid, ann, bob = game(c)
        state = c.get(f"/api/games/{gid}", headers=auth(ann)).json()
        rack = "".join(str(t) for t in state.get("rack") or [])
        say(c, gid, "hello", ann)
        history = c.get(f"/api/games/{gid}/chat", headers=auth(bob)).json()
        assert set(history) == {"room", "you", "can_write", "players", "messages"}
        [message] = history["messages"]
        assert set(message) == MESSAGE_KEYS
        text = json.dumps(history)
        for secret in (ann, bob, rack) if rack else (ann, bob):
            assert secret not in text


# ----- mutes, reports, moderators, bans --------------------------------------------------
def test_an_account_mutes_for_itself_only_and_remembers_it(url: str) -> None:
    with https_client(url) as c:
        headers = signup(c, "Carol")
        r = c.put("/api/account/chat-mutes", json={"sender": "a7"}, headers=headers)
        assert r.status_code == 200 and r.json() == {"muted": ["a7"]}
        c.put("/api/account/chat-mutes", json={"sender": "a99"}, headers=headers)
        assert c.get("/api/account/chat-mutes").json() == {"muted": ["a7", "a99"]}
        r = c.put("/api/account/chat-mutes", json={"sender": "a7", "muted": False},
                  headers=headers)
        assert r.json() == {"muted": ["a99"]}
        # A guest's seat is muted in the browser (it is one game's seat only).
        assert c.put("/api/account/chat-mutes", json={"sender": "g1"},
                     headers=headers).status_code == 422
        assert c.put("/api/account/chat-mutes", json={"sender": "a99"}).status_code == 403
        assert c.put("/api/account/chat-mutes", json={"sender": "<b>"},
                     headers=headers).status_code == 422
        me = c.get("/api/account").json()
        assert c.put("/api/account/chat-mutes", json={"sender": f"a{me['id']}"},
                     headers=headers).status_code == 400


def test_reports_reach_moderators_who_hide_messages_and_ban_the_sender(url: str) -> None:
    with https_client(url) as mod, https_client(url) as troll, https_client(url) as player:
        mod_headers = signup(mod, "Mo")
        make_moderator(url, "Mo")
        troll_headers = signup(troll, "Troll")
        r = troll.post("/api/games", json={"seats": [{"name": "T"}, {"name": "P"}]})
        created = r.json()
        gid, troll_token = created["game_id"], created["token"]
        bob = player.post(f"/api/games/{gid}/join",
                          json={"invite": created["invite"], "name": "P"}).json()["token"]
        bad = say(troll, gid, "you are terrible", troll_token).json()
        assert bad["sender"].startswith("a")
        # A guest player reports it with their seat token; a guest spectator cannot.
        assert player.post(f"/api/chat/{bad['id']}/report").status_code == 403
        r = player.post(f"/api/chat/{bad['id']}/report", headers=auth(bob))
        assert r.status_code == 201
        # Only moderators see reports.
        assert troll.get("/api/moderation/reports").status_code == 403
        [report] = mod.get("/api/moderation/reports").json()["reports"]
        assert report["text"] == "you are terrible" and report["reporter"].endswith(": P")
        # Hiding: gone for everyone, live too (the page reading it is on the same server).
        with mod.websocket_connect(f"/api/games/{gid}/chat/ws") as ws:
            ws.send_json({"type": "hello", "token": bob})
            assert [m["id"] for m in ws.receive_json()["messages"]] == [bad["id"]]
            assert mod.post(f"/api/moderation/messages/{bad['id']}/hide").status_code == 403
            r = mod.post(f"/api/moderation/messages/{bad['id']}/hide", headers=mod_headers)
            assert r.status_code == 200, r.text
            assert ws.receive_json() == {"type": "chat_hidden", "id": bad["id"],
                                         "room": "players"}
        assert player.get(f"/api/games/{gid}/chat", headers=auth(bob)).json()["messages"] == []
        assert mod.get("/api/moderation/reports").json()["reports"] == []
        # Banning the sender: refused at chat, creating, joining and logging in.
        r = mod.post("/api/moderation/bans", json={"message_id": bad["id"], "reason": "abuse"},
                     headers=mod_headers)
        assert r.status_code == 201, r.text
        troll_id = r.json()["banned"]
        assert moderation.is_banned(create_engine(url), troll_id)
        r = say(troll, gid, "I am back", troll_token)
        assert r.status_code == 403 and "banned" in r.json()["error"]
        r = troll.post("/api/games", json={"seats": [{"name": "T"}, {"name": "X"}]})
        assert r.status_code == 403 and "cannot create games" in r.json()["error"]
        other = player.post("/api/games", json={"seats": [{"name": "P"}, {"name": "Q"}]}).json()
        r = troll.post(f"/api/games/{other['game_id']}/join", json={"invite": other["invite"]})
        assert r.status_code == 403 and "cannot join games" in r.json()["error"]
        troll.post("/api/account/logout", headers=troll_headers)
        r = troll.post("/api/account/login", json={"name": "Troll", "password": PASSWORD})
        assert r.status_code == 403 and "banned" in r.json()["error"]
        wrong = troll.post("/api/account/login", json={"name": "Troll", "password": "wrong!!!!"})
        assert wrong.status_code == 401  # a wrong password says nothing of the ban
        assert [b["name"] for b in mod.get("/api/moderation/bans").json()["bans"]] == ["Troll"]
        # Lifting the ban lets the account in again.
        assert mod.delete(f"/api/moderation/bans/{troll_id}",
                          headers=mod_headers).status_code == 200
        r = troll.post("/api/account/login", json={"name": "Troll", "password": PASSWORD})
        assert r.status_code == 200
    assert table_count(url, chat_messages) == 1 and table_count(url, chat_reports) == 1


def test_the_moderator_command_grants_and_revokes(url: str) -> None:
    from kingscrib.cli.main import cli

    with https_client(url) as c:
        signup(c, "Mo")
        assert c.get("/api/moderation/reports").status_code == 403
        make_moderator(url, "Mo")
        assert c.get("/api/moderation/reports").status_code == 200
        assert c.get("/api/account").json()["moderator"] is True
        runner = CliRunner()
        again = runner.invoke(cli, ["moderator", "grant", "mo", "--database-url", url])
        assert "Mo is a moderator already" in again.output
        done = runner.invoke(cli, ["moderator", "revoke", "Mo", "--database-url", url])
        assert done.exit_code == 0 and "Mo is no longer a moderator" in done.output
        assert c.get("/api/moderation/reports").status_code == 403
        nobody = runner.invoke(cli, ["moderator", "grant", "Nobody", "--database-url", url])
        assert nobody.exit_code == 1 and "no account is named 'Nobody'" in nobody.output


# ----- two processes on PostgreSQL ---------------------------------------------------------
def test_two_processes_on_postgresql_deliver_each_others_chat(tmp_path: Path) -> None:
    with postgres_cluster() as pg:
        one = Server(pg, data_dir=tmp_path).start()
        two = Server(pg, data_dir=tmp_path).start()
        try:
            created = httpx.post(f"{one.url}/api/games",
                                 json={"seats": [{"name": "Ann"}, {"name": "Bob"}]}).json()
            gid = created["game_id"]
            bob = httpx.post(f"{two.url}/api/games/{gid}/join",
                             json={"invite": created["invite"], "name": "Bob"}).json()["token"]
            ws_url = two.url.replace("http", "ws") + f"/api/games/{gid}/chat/ws"
            with connect(ws_url) as ws:
                ws.send(json.dumps({"type": "hello", "token": bob}))
                assert json.loads(ws.recv(10))["type"] == "chat_welcome"
                sent = httpx.post(f"{one.url}/api/games/{gid}/chat", json={"text": "from one"},
                                  headers=auth(created["token"]))
                assert sent.status_code == 201, sent.text
                heard = json.loads(ws.recv(10))
                assert heard == {"type": "chat", "message": sent.json()}
        finally:
            one.stop()
            two.stop()


def test_a_message_is_reported_once_per_reporter_and_only_by_who_could_read_it(
        url: str) -> None:
    """The issue's flood: the same message reported 50 times, also from outside the
    game. A players' message is reported by the game's players only, once each."""
    with https_client(url) as player, https_client(url) as stranger, \
            https_client(url, rate_per_second=1e4, rate_burst=1e4) as bobs:
        signup(player, "Ann")
        created = player.post("/api/games", json={"seats": [{"name": "Ann"}, {}]}).json()
        gid = created["game_id"]
        bob = bobs.post(f"/api/games/{gid}/join",  # a guest player
                        json={"invite": created["invite"], "name": "Bob"}).json()["token"]
        bad = say(player, gid, "you are terrible", created["token"]).json()
        stranger_headers = signup(stranger, "Eve")
        r = stranger.post(f"/api/chat/{bad['id']}/report", headers=stranger_headers)
        assert r.status_code == 403, r.text
        assert r.json()["error"] == ("only this game's players see its players' chat: you"
                                     " cannot report a message you could not read")
        first = bobs.post(f"/api/chat/{bad['id']}/report", headers=auth(bob))
        assert first.status_code == 201, first.text
        for _ in range(49):
            again = bobs.post(f"/api/chat/{bad['id']}/report", headers=auth(bob))
            assert again.status_code == 409
            assert again.json()["error"] == ("you reported this message already: the"
                                             " moderators will see it")
        # A spectators' message: any account could read it, and reports it once.
        fan = say(stranger, gid, "boo", headers=stranger_headers).json()
        assert stranger.post(f"/api/chat/{fan['id']}/report",
                             headers=stranger_headers).status_code == 201
        assert stranger.post(f"/api/chat/{fan['id']}/report",
                             headers=stranger_headers).status_code == 409
    with create_engine(url).connect() as conn:
        from sqlalchemy import select

        rows = conn.execute(select(chat_reports.c.message_id)).all()
    assert [r.message_id for r in rows].count(bad["id"]) == 1
    assert [r.message_id for r in rows].count(fan["id"]) == 1


def test_mutes_are_capped(url: str, monkeypatch) -> None:
    from kingscrib.web.chat import store as chat_store

    monkeypatch.setattr(chat_store, "MAX_MUTES", 3)
    with https_client(url) as c:
        headers = signup(c, "Carol")
        for n in range(3):
            assert c.put("/api/account/chat-mutes", json={"sender": f"a{n + 10}"},
                         headers=headers).status_code == 200
        r = c.put("/api/account/chat-mutes", json={"sender": "a99"}, headers=headers)
        assert r.status_code == 429, r.text
        assert r.json()["error"] == ("you muted 3 senders, the most an account may:"
                                     " unmute one first")
        assert c.put("/api/account/chat-mutes", json={"sender": "a10"},
                     headers=headers).status_code == 200  # muted again: no new mute
        assert c.get("/api/account/chat-mutes").json() == {"muted": ["a10", "a11", "a12"]}
