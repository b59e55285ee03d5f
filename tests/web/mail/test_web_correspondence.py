"""Correspondence games (docs/web.md, "Correspondence games"): clocks of days per move,
the Your turn list for guests and accounts, e-mail turn notices sent to a local SMTP
server (aiosmtpd) for the accounts that opted in."""

from __future__ import annotations

import re
import time
from email import message_from_bytes
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from web_support import auth, free_port, https_client

from kingscrib.web.mail.turn_mail import MailSettings
from kingscrib.web.play.clocks import DAY, Clock

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

PASSWORD = "correct horse battery"


@pytest.fixture()
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'web.sqlite3'}"

def correspondence(c: Any, days: int = 2, before_join: Any = None, name: str = "Ann"
                   ) -> tuple[str, list[str]]:
    """A correspondence game of Ann (a guest) and Bob; ``before_join()`` runs between
    (a sign-up: Bob's seat is then his account's)."""
    c.cookies.clear()
    r = c.post("/api/games", json={"seats": [{"name": name}, {"name": "Bob"}], "seed": 5,
                                   "clock_days_per_move": days})
    assert r.status_code == 201, r.text
    created = r.json()
    if before_join is not None:
        before_join()
    joined = c.post(f"/api/games/{created['game_id']}/join",
                    json={"invite": created["invite"], "name": "Bob"})
    assert joined.status_code == 200, joined.text
    return created["game_id"], [created["token"], joined.json()["token"]]


def log_in(c: Any, name: str = "Bobby") -> dict[str, str]:
    r = c.post("/api/account/login", json={"name": name, "password": PASSWORD})
    if r.status_code == 401:
        r = c.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert r.status_code in (200, 201), r.text
    return {"X-CSRF-Token": r.json()["csrf"]}


def held(gid: str, token: str) -> dict[str, Any]:
    return {"seats": [{"game_id": gid, "token": token}]}


# ----- the clock ---------------------------------------------------------------------------
def test_a_move_begins_with_the_whole_allowance_and_one_seat_running_on_keeps_its_time():
    clock = Clock.new(DAY, 0, 2, per_move=True)
    clock.restart(1000.0, [0])
    clock.restart(1000.0 + 3600, [1])  # seat 0 moved after an hour
    assert clock.remaining == [DAY - 3600, DAY]
    clock.restart(1000.0 + 7200, [0])  # seat 1 took an hour; seat 0's new move: a whole day
    assert clock.remaining == [DAY, DAY - 3600]
    clock.restart(1000.0 + 7200 + 600, [0])  # seat 0 acts again (a "go"): the same move
    assert clock.remaining == [DAY - 600, DAY - 3600]
    assert clock.due() == 1000.0 + 7800 + DAY - 600
    assert clock.flagged(1000.0 + 7800 + DAY - 600) == 0
    assert Clock.from_json(clock.to_json()) == clock


def test_days_per_move_are_offered_and_checked(url: str) -> None:
    with https_client(url) as c:
        gid, tokens = correspondence(c, 3)
        before = c.get(f"/api/games/{gid}").json()
        assert before["clock"]["seconds"] == 3 * DAY and before["clock"]["per_move"] is True
        mover = before["turn"]
        r = c.post(f"/api/games/{gid}/actions", json={"action": "pass"},
                   headers=auth(tokens[mover]))
        assert r.status_code == 200, r.text
        after = r.json()["clock"]
        assert after["running"] == [1 - mover]
        assert after["left"][1 - mover] == pytest.approx(3 * DAY, abs=2)
        stored = c.app.state.hub.store.load(gid).clock
        assert stored["per_move"] is True and stored["seconds"] == 3 * DAY
        for body, says in (({"clock_days_per_move": 4}, "one of 1, 2, 3, 5, 7, not 4"),
                           ({"clock_days_per_move": 1, "clock_seconds": 300}, "not both")):
            r = c.post("/api/games", json={"seats": [{}, {}], **body})
            assert r.status_code == 400 and says in r.json()["error"], r.text


def test_a_correspondence_game_is_not_closed_as_idle_while_its_clock_runs(url: str) -> None:
    with https_client(url) as c:
        gid, _tokens = correspondence(c, 7)
        store = c.app.state.hub.store
        assert store.close_idle(time.time() + 8 * DAY) == []
        assert store.load(gid).closed is None


# ----- Your turn ---------------------------------------------------------------------------
def test_your_turn_lists_the_games_waiting_for_this_browsers_seats(url: str) -> None:
    with https_client(url) as c:
        gid, tokens = correspondence(c)
        mover = c.get(f"/api/games/{gid}").json()["turn"]
        [line] = c.post("/api/your-turn", json=held(gid, tokens[mover])).json()["games"]
        assert line["game_id"] == gid and line["seat"] == mover and line["per_move"] is True
        assert line["players"] == ["Ann", "Bob"] and line["time_left"] <= 2 * DAY
        assert c.post("/api/your-turn", json=held(gid, tokens[1 - mover])).json() == {
            "games": []}
        assert c.post("/api/your-turn", json=held(gid, "not a token")).json() == {"games": []}
        c.post(f"/api/games/{gid}/actions", json={"action": "pass"},
               headers=auth(tokens[mover]))
        [line] = c.post("/api/your-turn", json=held(gid, tokens[1 - mover])).json()["games"]
        assert line["seat"] == 1 - mover


def test_your_turn_of_an_account_covers_all_its_seats_without_tokens(url: str) -> None:
    # One server, one cookie jar: Ann's requests are a guest's seat (its token alone).
    with https_client(url) as c:
        games = [correspondence(c, before_join=lambda: log_in(c)) for _ in range(3)]
        waiting = {gid for gid, tokens in games if c.get(f"/api/games/{gid}").json()["turn"] == 1}
        listed = {g["game_id"] for g in c.post("/api/your-turn", json={}).json()["games"]}
        assert listed == waiting
        for gid, tokens in games:
            if gid not in waiting:
                r = c.post(f"/api/games/{gid}/actions", json={"action": "pass"},
                           headers=auth(tokens[0]))
                assert r.status_code == 200, r.text
        listed = {g["game_id"] for g in c.post("/api/your-turn", json={}).json()["games"]}
        assert listed == {gid for gid, _ in games}
        c.cookies.clear()  # a guest without tokens has nothing waiting
        assert c.post("/api/your-turn", json={}).json() == {"games": []}


# ----- e-mail ------------------------------------------------------------------------------
class Inbox:
    def __init__(self) -> None:
        self.messages: list[Any] = []

    def wait_for(self, count: int = 1) -> None:
        deadline = time.monotonic() + 10
        while len(self.messages) < count and time.monotonic() < deadline:
            time.sleep(0.05)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        self.messages.append((envelope.rcpt_tos, message_from_bytes(envelope.content)))
        return "250 OK"


def confirm_from(c: Any, inbox: Inbox, to: str) -> None:
    """Open the link of the confirmation mail sent to ``to`` (and drop that mail)."""
    inbox.wait_for()
    [(rcpt, message)] = [m for m in inbox.messages if m[0] == [to]]
    inbox.messages.remove((rcpt, message))
    assert message["Subject"] == "Confirm your e-mail address for Kingscrib turn notices"
    body = message.get_payload(decode=True).decode()
    link = re.search(r"https?://\S+/api/account/email/confirm\?token=(\S+)", body)
    assert link is not None, body
    r = c.get("/api/account/email/confirm", params={"token": link.group(1)})
    assert r.status_code == 200 and "confirmed" in r.text


def test_an_opted_in_account_gets_one_email_per_turn_and_others_none(url: str) -> None:
    inbox = Inbox()
    port = free_port()
    smtp = Controller(inbox, hostname="127.0.0.1", port=port)
    smtp.start()
    mail = MailSettings("127.0.0.1", port, "games@example.org", "https://play.example.org")
    try:
        with https_client(url, mail=mail) as c:
            headers = log_in(c)
            ann = bob = c
            headers = {"X-CSRF-Token": c.get("/api/account").json()["csrf"]}  # (new log-in)
            r = bob.put("/api/account/email", json={"address": "not an address",
                                                    "turn_mail": True}, headers=headers)
            assert r.status_code == 400 and "does not read as an e-mail address" in r.text
            assert bob.put("/api/account/email", json={"address": "bob@example.org",
                                                       "turn_mail": True}).status_code == 403
            headers = {"X-CSRF-Token": c.get("/api/account").json()["csrf"]}  # (new log-in)
            r = bob.put("/api/account/email", json={"address": "bob@example.org",
                                                    "turn_mail": True}, headers=headers)
            assert r.json() == {"address": "bob@example.org", "turn_mail": True,
                                "confirmed": False, "mail_configured": True}
            confirm_from(c, inbox, "bob@example.org")
            assert c.get("/api/account/email").json()["confirmed"] is True
            gid, tokens = correspondence(c, before_join=lambda: log_in(c))
            state = ann.get(f"/api/games/{gid}").json()
            if state["turn"] == 1:  # Bob's move first: he passes, then Ann does
                bob.post(f"/api/games/{gid}/actions", json={"action": "pass"},
                         headers=auth(tokens[1]))
            assert inbox.messages == []  # Ann is a guest: nobody to write to
            ann.post(f"/api/games/{gid}/actions", json={"action": "pass"},
                     headers=auth(tokens[0]))
            deadline = time.monotonic() + 10
            while not inbox.messages and time.monotonic() < deadline:
                time.sleep(0.05)
            [(to, message)] = inbox.messages
            assert to == ["bob@example.org"] and message["From"] == "games@example.org"
            assert message["Subject"] == "Your turn: Kings Cribbage"  # no player's text
            assert "against Ann" in message.get_payload(decode=True).decode()
            body = message.get_payload(decode=True).decode()
            assert f"https://play.example.org/?game={gid}" in body and "2 days" in body
            # Opted out: no more notices.
            time.sleep(0.5)
            assert len(inbox.messages) == 1  # one per turn
            headers = {"X-CSRF-Token": c.get("/api/account").json()["csrf"]}  # (new log-in)
            r = bob.put("/api/account/email", json={"address": "bob@example.org",
                                                "turn_mail": False}, headers=headers)
            assert r.json()["turn_mail"] is False, r.text
            bob.post(f"/api/games/{gid}/actions", json={"action": "pass"},
                     headers=auth(tokens[1]))
            ann.post(f"/api/games/{gid}/actions", json={"action": "pass"},
                     headers=auth(tokens[0]))
            time.sleep(0.5)
            assert len(inbox.messages) == 1
    finally:
        smtp.stop()


def test_the_first_mover_hears_when_the_last_seat_is_taken_and_the_joiner_does_not(
        url: str) -> None:
    inbox = Inbox()
    port = free_port()
    smtp = Controller(inbox, hostname="127.0.0.1", port=port)
    smtp.start()
    mail = MailSettings("127.0.0.1", port, "games@example.org")
    try:
        with https_client(url, mail=mail) as c:
            headers = log_in(c, "Ann")
            c.put("/api/account/email", json={"address": "ann@example.org", "turn_mail": True},
                  headers=headers)
            confirm_from(c, inbox, "ann@example.org")
            # A seed whose first mover is seat 0, the creator's (an account that opted in).
            for seed in range(40):
                created = c.post("/api/games", json={
                    "seats": [{"name": "Ann"}, {"name": "Bob"}], "seed": seed,
                    "clock_days_per_move": 1}).json()
                if c.get(f"/api/games/{created['game_id']}").json()["turn"] == 0:
                    break
            c.cookies.clear()  # Bob, a guest, takes the last seat
            r = c.post(f"/api/games/{created['game_id']}/join",
                       json={"invite": created["invite"], "name": "Bob"})
            assert r.status_code == 200
            deadline = time.monotonic() + 10
            while not inbox.messages and time.monotonic() < deadline:
                time.sleep(0.05)
            [(to, message)] = inbox.messages
            body = message.get_payload(decode=True).decode()
            assert to == ["ann@example.org"] and "against Bob" in body
            assert "1 day for it" in body
    finally:
        smtp.stop()


def test_no_game_whose_clock_runs_is_closed_as_idle(url: str) -> None:
    """A clocked game ends by its clock, never by the idle sweep (which came first for a
    move of 7 days, the default idle time); an unclocked idle game is still closed."""
    with https_client(url) as c:
        clocked = c.post("/api/games", json={"seats": [{"name": "A"}, {"name": "B"}],
                                             "clock_seconds": 1800}).json()
        c.post(f"/api/games/{clocked['game_id']}/join", json={"invite": clocked["invite"]})
        idle = c.post("/api/games", json={"seats": [{"name": "A"}, {"name": "B"}]}).json()
        store = c.app.state.hub.store
        assert store.close_idle(time.time() + 8 * DAY) == [idle["game_id"]]
        assert store.load(clocked["game_id"]).closed is None


def test_no_notice_goes_to_an_address_before_its_link_is_opened(url: str) -> None:
    """The issue: an account opts a stranger's address in. The stranger gets one mail,
    the confirmation (no player's text in it), and no turn notice unless they open it."""
    inbox = Inbox()
    port = free_port()
    smtp = Controller(inbox, hostname="127.0.0.1", port=port)
    smtp.start()
    mail = MailSettings("127.0.0.1", port, "games@example.org", "https://play.example.org")
    try:
        with https_client(url, mail=mail) as c:
            headers = log_in(c, "Mallory")
            r = c.put("/api/account/email", json={"address": "victim@example.org",
                                                  "turn_mail": True}, headers=headers)
            assert r.status_code == 200 and r.json()["confirmed"] is False
            inbox.wait_for()
            [(to, message)] = inbox.messages
            assert to == ["victim@example.org"]
            assert "Mallory" not in message["Subject"] + message.get_payload(decode=True
                                                                               ).decode()
            gid, tokens = correspondence(c, name="Buy cheap pills at evil.example",
                                         before_join=lambda: log_in(c, "Mallory"))
            for _ in range(4):  # turns begin for Mallory's seat: no notice
                turn = c.get(f"/api/games/{gid}").json()["turn"]
                if turn == 0:
                    c.cookies.clear()
                r = c.post(f"/api/games/{gid}/actions", json={"action": "pass"},
                           headers=auth(tokens[turn]))
                assert r.status_code == 200, r.text
                log_in(c, "Mallory")
            time.sleep(0.5)
            assert len(inbox.messages) == 1  # the confirmation only
            assert c.get("/api/account/email/confirm",
                         params={"token": "guessed-token"}).status_code == 404
            assert c.get("/api/account/email").json()["confirmed"] is False
    finally:
        smtp.stop()
