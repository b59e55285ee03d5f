"""Optional accounts (docs/web.md, "Accounts"): sign up, log in and out, change the
password, delete the account; server-side sessions in a Secure HttpOnly cookie; CSRF
refused; log-ins that do not tell unknown names from wrong passwords, by answer or by
work; brute-force limits; guests' seats and accounts' seats kept apart."""

from __future__ import annotations

import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import argon2
import httpx
import pytest
from sqlalchemy import select
from web_support import (
    PASSWORD,
    Server,
    auth,
    csrf,
    https_client,
    in_process_client,
    postgres_cluster,
    signup,
    table_rows,
)

from kingscrib.web.accounts import hashing
from kingscrib.web.accounts import store as accounts
from kingscrib.web.db.storage import Store, hash_secret
from kingscrib.web.db.tables import account_sessions, seat_accounts
from kingscrib.web.db.tables import accounts as accounts_table

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

@pytest.fixture()
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'web.sqlite3'}"
def new_game(c: Any, name: str = "Ann") -> dict[str, Any]:
    r = c.post("/api/games", json={"seats": [{"name": name}, {"name": "Bob"}], "seed": 4})
    assert r.status_code == 201, r.text
    return r.json()


def test_sign_up_logs_in_with_a_secure_httponly_lax_cookie_and_keeps_hashes_only(
        url: str) -> None:
    with https_client(url) as c:
        assert c.get("/api/account").json() == {"name": None}
        r = signup(c)
        session = [c for c in r.headers.get_list("set-cookie")
                   if c.startswith("kingscrib_session=")]
        assert len(session) == 1
        flags = [f.strip().lower() for f in session[0].split(";")]
        assert flags[0].startswith("kingscrib_session=")
        token = flags[0].split("=", 1)[1]
        assert {"httponly", "secure", "samesite=lax", "path=/"} <= set(flags)
        me = c.get("/api/account").json()
        assert me["name"] == "Alice" and me["csrf"] == r.json()["csrf"]
    [account] = table_rows(url, accounts_table)
    assert account.password_hash.startswith("$argon2id$")
    assert PASSWORD not in account.password_hash
    [session] = table_rows(url, account_sessions)
    assert session.token_hash != token and len(token) >= 40
    assert session.expires - session.created == pytest.approx(30 * 24 * 3600)


def test_log_out_and_log_in_again(url: str) -> None:
    with https_client(url) as c:
        signup(c)
        assert c.post("/api/account/logout", headers=csrf(c)).json() == {"name": None}
        assert c.get("/api/account").json() == {"name": None}
        assert table_rows(url, account_sessions) == []
        r = c.post("/api/account/login", json={"name": "alice", "password": PASSWORD})
        assert r.status_code == 200, r.text
        assert r.json()["name"] == "Alice"  # the name as it was chosen
        assert c.get("/api/account").json()["name"] == "Alice"


def test_unknown_names_and_wrong_passwords_get_the_same_answer_after_the_same_work(
        url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    checked: list[str] = []
    real = accounts._hasher

    class Spy:
        def hash(self, password: str) -> str:
            return real.hash(password)

        def verify(self, password_hash: str, password: str) -> bool:
            checked.append(password_hash)
            return real.verify(password_hash, password)

    monkeypatch.setattr(accounts, "_hasher", Spy())
    with https_client(url) as c:
        signup(c)
        c.post("/api/account/logout", headers=csrf(c))
        wrong = c.post("/api/account/login", json={"name": "Alice", "password": "not it at all"})
        unknown = c.post("/api/account/login", json={"name": "Nobody", "password": PASSWORD})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"error": "wrong user name or password"}
    assert wrong.headers.get("set-cookie") is None and unknown.headers.get("set-cookie") is None
    # One Argon2 check each, with the same parameters (time, memory, lanes, length).
    assert len(checked) == 2 and checked[0] != checked[1]
    assert argon2.extract_parameters(checked[0]) == argon2.extract_parameters(checked[1])


def test_unknown_names_and_wrong_passwords_take_the_same_time(
        url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """An unknown name is checked against a hash of the same Argon2 parameters as a real
    one, once, as a wrong password is: the same work, so the same time (the times are
    compared too, loosely: on a busy machine one request's time swings by half)."""
    real = accounts._hasher
    checked: dict[str, list[str]] = {"Alice": [], "Nobody": []}
    asking = [""]

    class Recording:
        def hash(self, password: str) -> str:
            return real.hash(password)

        def verify(self, password_hash: str, password: str) -> bool:
            checked[asking[0]].append(password_hash.rsplit("$", 2)[0])  # the parameters
            return real.verify(password_hash, password)

    with https_client(url) as c:
        signup(c)
        c.post("/api/account/logout", headers=csrf(c))
        monkeypatch.setattr(accounts, "_hasher", Recording())
        times: dict[str, list[float]] = {"Alice": [], "Nobody": []}
        for _ in range(7):  # interleaved: a busy machine slows both alike
            for name in times:
                asking[0] = name
                began = time.perf_counter()
                r = c.post("/api/account/login", json={"name": name, "password": "nope nope"})
                times[name].append(time.perf_counter() - began)
                assert r.status_code == 401
    assert len(checked["Alice"]) == len(checked["Nobody"]) == 7
    assert set(checked["Nobody"]) == set(checked["Alice"])
    assert checked["Alice"][0].startswith("$argon2id$")
    ratio = statistics.median(times["Nobody"]) / statistics.median(times["Alice"])
    assert 0.25 < ratio < 4, times


def test_a_burst_of_log_ins_hashes_a_few_at_a_time(url: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    real, lock = accounts._hasher, threading.Lock()
    running, most = [0], [0]

    class Counting:
        def hash(self, password: str) -> str:
            return real.hash(password)

        def verify(self, password_hash: str, password: str) -> bool:
            with lock:
                running[0] += 1
                most[0] = max(most[0], running[0])
            try:
                return real.verify(password_hash, password)
            finally:
                with lock:
                    running[0] -= 1

    # (one address may have only hashing.PER_ADDRESS attempts in line: lifted here, as if
    # the eight came from eight addresses)
    monkeypatch.setattr(hashing, "PER_ADDRESS", 100)
    with https_client(url) as c:
        signup(c)
        monkeypatch.setattr(accounts, "_hasher", Counting())
        with ThreadPoolExecutor(8) as pool:
            codes = list(pool.map(lambda i: c.post("/api/account/login", json={
                "name": f"user{i}", "password": "guess guess"}).status_code, range(8)))
    assert codes == [401] * 8
    assert most[0] == hashing.AT_ONCE


def test_failed_log_ins_are_limited_per_account_name_and_per_address(url: str) -> None:
    with https_client(url) as c:
        signup(c)
        signup(c, "Zed")
        c.post("/api/account/logout", headers=csrf(c))
        for name in ("Alice", "Nobody"):  # known or not, the same limit
            for _ in range(accounts.PER_NAME_AT_ADDRESS):
                r = c.post("/api/account/login", json={"name": name, "password": "guess guess"})
                assert r.status_code == 401
            r = c.post("/api/account/login", json={"name": name, "password": PASSWORD})
            assert r.status_code == 429 and "too many failed log-ins" in r.json()["error"]
        # Another name from the same address still logs in...
        assert c.post("/api/account/login",
                      json={"name": "Zed", "password": PASSWORD}).status_code == 200
        # ...until the address has failed PER_ADDRESS times, whatever the names.
        for i in range(accounts.PER_ADDRESS - 2 * accounts.PER_NAME_AT_ADDRESS):
            assert c.post("/api/account/login",
                          json={"name": f"n{i}", "password": "guess guess"}).status_code == 401
        r = c.post("/api/account/login", json={"name": "Zed", "password": PASSWORD})
        assert r.status_code == 429


def test_writes_authenticated_by_the_cookie_need_the_csrf_token(url: str) -> None:
    with https_client(url) as c:
        signup(c)
        good = csrf(c)
        for method, path, body in (("POST", "/api/account/logout", None),
                                   ("POST", "/api/account/password",
                                    {"password": PASSWORD, "new_password": "another secret"}),
                                   ("DELETE", "/api/account", {"password": PASSWORD})):
            for headers in ({}, {"X-CSRF-Token": "0" * 64},
                            {**good, "Sec-Fetch-Site": "cross-site"},
                            {**good, "Sec-Fetch-Site": "same-site"},  # a sibling subdomain
                            {**good, "Origin": "https://evil.example"},
                            {**good, "Origin": "null"}):
                r = c.request(method, path, json=body, headers=headers)
                assert r.status_code == 403, (path, headers, r.text)
        assert c.get("/api/account").json()["name"] == "Alice"  # nothing changed
        r = c.post("/api/account/login", json={"name": "Alice", "password": PASSWORD},
                   headers={"Origin": "https://evil.example"})
        assert r.status_code == 403
        assert c.post("/api/account/logout", headers=good).status_code == 200
        assert c.post("/api/account/login",
                      json={"name": "Alice", "password": PASSWORD}).status_code == 200
        # Behind a proxy that rewrites Host, the browser's own word decides.
        r = c.post("/api/account/login", json={"name": "Alice", "password": PASSWORD},
                   headers={"Sec-Fetch-Site": "same-origin",
                            "Origin": "https://kingscrib.example"})
        assert r.status_code == 200


def test_change_the_password_ends_the_other_sessions(url: str) -> None:
    with https_client(url) as c, https_client(url) as other:
        signup(c)
        other.post("/api/account/login", json={"name": "Alice", "password": PASSWORD})
        assert other.get("/api/account").json()["name"] == "Alice"
        r = c.post("/api/account/password", headers=csrf(c),
                   json={"password": "not the password", "new_password": "another secret"})
        assert r.status_code == 403 and "current password is wrong" in r.json()["error"]
        r = c.post("/api/account/password", headers=csrf(c),
                   json={"password": PASSWORD, "new_password": "short"})
        assert r.status_code == 400 and "at least 8" in r.json()["error"]
        r = c.post("/api/account/password", headers=csrf(c),
                   json={"password": PASSWORD, "new_password": "another secret"})
        assert r.status_code == 200, r.text
        assert c.get("/api/account").json()["name"] == "Alice"  # this session stays
        assert other.get("/api/account").json() == {"name": None}
        c.post("/api/account/logout", headers=csrf(c))
        assert c.post("/api/account/login",
                      json={"name": "Alice", "password": PASSWORD}).status_code == 401
        assert c.post("/api/account/login",
                      json={"name": "Alice", "password": "another secret"}).status_code == 200


@pytest.mark.parametrize(("name", "said"), [
    ("A" * 25, "at most 24 characters"),
    ("Ann\x07", "control character (U+0007 BELL) at character 4"),
    ("An\u202en", "bidirectional control (U+202E RIGHT-TO-LEFT OVERRIDE)"),
    ("Ann\u200b", "invisible character (U+200B ZERO WIDTH SPACE)"),
    ("Ann\tLee", "control character (U+0009 TAB)"),
    ("Ann  Lee", "single spaces"),
    ("Ann\u00a0Lee", "single spaces"),
    ("<b>Ann", "no < or >"),
    ("...", "a letter or a digit"),
    ("Computer", "computer seat"),
    ("", "choose a user name"),
])
def test_bad_user_names_are_refused_with_a_message_and_change_nothing(
        url: str, name: str, said: str) -> None:
    with https_client(url) as c:
        r = c.post("/api/account/signup", json={"name": name, "password": PASSWORD})
        assert r.status_code == 400 and said in r.json()["error"], r.text
        assert r.headers.get("set-cookie") is None
    assert table_rows(url, accounts_table) == []


@pytest.mark.parametrize(("password", "said"), [
    ("seven77", "at least 8 characters"),
    ("x" * 257, "at most 256 characters"),
])
def test_bad_passwords_are_refused_with_a_message_and_change_nothing(
        url: str, password: str, said: str) -> None:
    with https_client(url) as c:
        r = c.post("/api/account/signup", json={"name": "Ann", "password": password})
        assert r.status_code == 400 and said in r.json()["error"], r.text
    assert table_rows(url, accounts_table) == []


def test_two_accounts_cannot_have_names_that_look_alike(url: str) -> None:
    with https_client(url) as c:
        signup(c, "Ann Lee")
        for lookalike in ("ann lee", "ANN LEE", "Ａｎｎ Ｌｅｅ", "Ann-Lee", "AnnLee", "Ánn Lee",
                          "\u0410nn Lee",  # a Cyrillic A
                          "Ann 1ee", "Ann Iee"):  # 1, I and l read alike
            r = c.post("/api/account/signup", json={"name": lookalike, "password": PASSWORD})
            assert r.status_code == 409 and "taken" in r.json()["error"], lookalike
        assert c.get("/api/account").json()["name"] == "Ann Lee"
    assert len(table_rows(url, accounts_table)) == 1


def test_a_guest_who_signs_up_keeps_the_games_of_that_browser(url: str) -> None:
    with https_client(url) as c:
        games = [new_game(c) for _ in range(2)]
        held = [{"game_id": g["game_id"], "token": g["token"]} for g in games]
        held.append({"game_id": games[0]["game_id"], "token": "not a token of it"})
        r = signup(c, seats=held)
        assert r.json()["seats"] == 2
        for g in games:  # the browser plays on with its tokens, logged in
            state = c.get(f"/api/games/{g['game_id']}", headers=auth(g["token"])).json()
            assert state["you"] == 0
    owned = table_rows(url, seat_accounts)
    assert sorted((o.game_id, o.seat) for o in owned) == sorted((g["game_id"], 0) for g in games)


def test_a_guest_cannot_use_an_accounts_seat_and_an_account_not_a_guests(url: str) -> None:
    with https_client(url) as alice, https_client(url) as guest, https_client(url) as carol:
        signup(alice)
        signup(carol, "Carol")
        g = new_game(alice)  # logged in: Alice's account owns the seat
        joined = guest.post(f"/api/games/{g['game_id']}/join",
                            json={"invite": g["invite"], "seat": 1, "name": "Bob"}).json()
        path = f"/api/games/{g['game_id']}"
        assert alice.get(path, headers=auth(g["token"])).json()["you"] == 0
        for other in (guest, carol):  # a guest, another account: the token alone fails
            r = other.get(path, headers=auth(g["token"]))
            assert r.status_code == 403 and "belongs to an account" in r.json()["error"]
            r = other.post(f"{path}/resign", headers=auth(g["token"]))
            assert r.status_code == 403
        with guest.websocket_connect(f"{path}/ws") as ws:
            ws.send_json({"type": "hello", "token": g["token"]})
            said = ws.receive_json()
            assert said["type"] == "error" and said["status"] == 403
        # The reverse: Alice's session gives her no power over the guest's seat.
        r = alice.post(f"{path}/actions", json={"action": "pass"})
        assert r.status_code == 403 and "spectators" in r.json()["error"]
        assert alice.post(f"{path}/resign").status_code == 403
        # The guest's seat is the guest's token's, whoever holds it (as before accounts).
        assert guest.get(path, headers=auth(joined["token"])).json()["you"] == 1
        assert not guest.get(path).json()["over"]


def test_a_deleted_account_leaves_its_games_under_deleted_player(url: str) -> None:
    with https_client(url) as c:
        signup(c)
        g = new_game(c, "Alice")
        path = f"/api/games/{g['game_id']}"
        r = c.request("DELETE", "/api/account", headers=csrf(c), json={"password": "wrong one"})
        assert r.status_code == 403 and c.get("/api/account").json()["name"] == "Alice"
        r = c.request("DELETE", "/api/account", headers=csrf(c), json={"password": PASSWORD})
        assert r.status_code == 200 and r.json()["games"] == 1
        assert c.get("/api/account").json() == {"name": None}
        state = c.get(path).json()  # the game stays, the name goes
        assert [s["name"] for s in state["seats"]] == ["deleted player", "Bob"]
        r = c.get(path, headers=auth(g["token"]))
        assert r.status_code == 403 and "deleted" in r.json()["error"]
        r = c.post("/api/account/login", json={"name": "Alice", "password": PASSWORD})
        assert r.status_code == 401 and r.json()["error"] == "wrong user name or password"
    assert table_rows(url, accounts_table) == [] and table_rows(url, account_sessions) == []
    with in_process_client(url) as again:  # a fresh server reads the stored name
        assert again.get(path).json()["seats"][0]["name"] == "deleted player"


def test_deleting_an_account_runs_the_other_domains_hooks_in_its_transaction(url: str
                                                                             ) -> None:
    """Accounts import no other domain: the ratings, puzzles and tournaments forget an
    account through hooks, all in the deleting transaction (one refusing undoes it)."""
    store = Store(url)
    try:
        alice = accounts.create(store.engine, "Alice", accounts.hash_password(PASSWORD))
        seen: list[tuple[int, bool]] = []

        def forget(conn: Any, account_id: int) -> None:
            still = conn.execute(select(accounts_table.c.id)
                                 .where(accounts_table.c.id == account_id)).first()
            seen.append((account_id, still is not None))

        def refuse(_conn: Any, _account_id: int) -> None:
            raise RuntimeError("this domain cannot forget the account now")

        with pytest.raises(RuntimeError):
            accounts.remove(store, alice.id, [forget, refuse])
        assert [row.name for row in table_rows(url, accounts_table)] == ["Alice"]
        assert accounts.remove(store, alice.id, [forget]) == []
        # Each hook ran before the account's row went, with the account's id.
        assert seen == [(alice.id, True), (alice.id, True)]
        assert table_rows(url, accounts_table) == []
    finally:
        store.close()


def test_guests_play_as_before_without_any_account(url: str) -> None:
    with in_process_client(url) as c:  # plain http, no cookie ever
        g = new_game(c)
        path = f"/api/games/{g['game_id']}"
        assert c.get(path, headers=auth(g["token"])).json()["you"] == 0
        assert c.post(f"{path}/resign", headers=auth(g["token"])).json()["over"]
    assert table_rows(url, seat_accounts) == []


def test_a_deleted_accounts_name_reaches_the_other_server_processes(tmp_path: Path) -> None:
    with postgres_cluster() as pg_url:
        servers = [Server(pg_url, data_dir=tmp_path).start() for _ in range(2)]
        try:
            a, b = (s.url for s in servers)
            r = httpx.post(f"{a}/api/account/signup",
                           json={"name": "Alice", "password": PASSWORD})
            session = r.cookies["kingscrib_session"]  # (Secure: httpx keeps it to https)
            cookie = {"Cookie": f"kingscrib_session={session}"}
            g = httpx.post(f"{a}/api/games", headers=cookie, json={
                "seats": [{"name": "Alice"}, {"name": "Bob"}], "seed": 2}).json()
            path = f"/api/games/{g['game_id']}"
            assert httpx.get(b + path).json()["seats"][0]["name"] == "Alice"  # b holds it
            r = httpx.request("DELETE", f"{a}/api/account", json={"password": PASSWORD},
                              headers={**cookie, "X-CSRF-Token": r.json()["csrf"]})
            assert r.status_code == 200, r.text
            deadline = time.monotonic() + 10
            while httpx.get(b + path).json()["seats"][0]["name"] != "deleted player":
                assert time.monotonic() < deadline, "the other process kept the old name"
                time.sleep(0.1)
            r = httpx.get(b + path, headers={**auth(g["token"]), **cookie})
            assert r.status_code == 403
        finally:
            for s in servers:
                s.stop()


def test_a_rematch_asked_while_logged_in_seats_the_account(url: str) -> None:
    with https_client(url) as alice, https_client(url) as guest:
        signup(alice)
        g = new_game(alice)
        guest.post(f"/api/games/{g['game_id']}/join",
                   json={"invite": g["invite"], "seat": 1, "name": "Bob"})
        path = f"/api/games/{g['game_id']}"
        assert alice.post(f"{path}/resign", headers=auth(g["token"])).status_code == 200
        again = alice.post(f"{path}/rematch", headers=auth(g["token"]))
        assert again.status_code == 200, again.text
        new = f"/api/games/{again.json()['game_id']}"
        token = again.json()["token"]
        assert alice.get(new, headers=auth(token)).json()["you"] == again.json()["seat"]
        assert guest.get(new, headers=auth(token)).status_code == 403


def test_signing_up_while_logged_in_ends_the_other_session(url: str) -> None:
    with https_client(url) as c:
        signup(c)
        before = c.cookies["kingscrib_session"]
        signup(c, "Second")
        assert c.get("/api/account").json()["name"] == "Second"
    sessions = table_rows(url, account_sessions)
    assert len(sessions) == 1 and sessions[0].token_hash != hash_secret(before)
