"""Fair play for accounts: log-in and sign-up limits that hold under concurrent requests
(reserved before the password is checked, on SQLite and on PostgreSQL), an owner never
locked out by guesses from elsewhere, the hashing queue a flood cannot monopolise,
passwords refused as NIST SP 800-63B asks, and one set of rules for typed text."""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, func, select
from web_support import Server, https_client, postgres_cluster, table_count, table_rows

from kingscrib.web.accounts import hashing
from kingscrib.web.accounts import store as accounts
from kingscrib.web.accounts.names import checked_name, look_key, person_name
from kingscrib.web.accounts.passwords import check_password
from kingscrib.web.accounts.text_rules import checked_text
from kingscrib.web.chat.text import chat_text
from kingscrib.web.db.storage import Store
from kingscrib.web.db.tables import accounts as accounts_table
from kingscrib.web.db.tables import login_failures
from kingscrib.web.errors import WebError

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

PASSWORD = "correct horse battery"


@pytest.fixture()
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'web.sqlite3'}"


def refused(fn: Any, *args: Any, **kwargs: Any) -> str:
    with pytest.raises(WebError) as e:
        fn(*args, **kwargs)
    assert e.value.status == 400
    return e.value.message


# ----- the reservation, straight on the store -----------------------------------------
def _reserve_at_once(database_url: str, attempts: int, limit: int) -> int:
    """``attempts`` threads, each with its own connection, reserve under one key at once;
    how many got a place."""
    engines = [create_engine(database_url) for _ in range(8)]
    start = threading.Barrier(attempts)

    def one(i: int) -> bool:
        start.wait()
        return accounts.reserve(engines[i % 8], [("k", limit)], 1000.0) is not None

    try:
        with ThreadPoolExecutor(attempts) as pool:
            return sum(pool.map(one, range(attempts)))
    finally:
        for e in engines:
            e.dispose()


def test_concurrent_reservations_never_pass_the_limit_on_sqlite(url: str) -> None:
    Store(url).close()
    assert _reserve_at_once(url, 40, 10) == 10
    assert table_count(url, login_failures) == 10


def test_concurrent_reservations_never_pass_the_limit_on_postgresql() -> None:
    with postgres_cluster() as pg_url:
        Store(pg_url).close()
        assert _reserve_at_once(pg_url, 40, 10) == 10
        engine = create_engine(pg_url)
        with engine.connect() as conn:
            assert conn.execute(select(func.count()).select_from(login_failures)
                                ).scalar_one() == 10
        engine.dispose()


def test_a_reservation_counts_every_key_or_none_and_is_given_back(url: str) -> None:
    store = Store(url)
    try:
        both = [("a", 2), ("b", 1)]
        first = accounts.reserve(store.engine, both, 1000.0)
        assert first is not None and first.before == 0
        assert accounts.reserve(store.engine, both, 1001.0) is None  # b is full: a uncounted
        assert accounts.reserve(store.engine, [("a", 2)], 1002.0).before == 1
        accounts.release(store.engine, first)
        assert accounts.reserve(store.engine, [("b", 1)], 1003.0) is not None
        later = 1003.0 + accounts.WINDOW + 1  # the window passed: all forgotten
        assert accounts.reserve(store.engine, [("a", 1), ("b", 1)], later) is not None
    finally:
        store.close()


# ----- log-ins under concurrency, in process (a slow hash widens the window) ----------
class SlowHasher:
    """argon2's verify, made slow, counting the checks."""

    def __init__(self) -> None:
        import argon2

        self.real = argon2.PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
        self.checked = 0
        self.lock = threading.Lock()

    def hash(self, password: str) -> str:
        return self.real.hash(password)

    def verify(self, password_hash: str, password: str) -> bool:
        with self.lock:
            self.checked += 1
        time.sleep(0.05)
        return self.real.verify(password_hash, password)


def test_concurrent_wrong_guesses_are_checked_no_more_than_the_limit(
        url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    hasher = SlowHasher()
    monkeypatch.setattr(accounts, "_hasher", hasher)
    monkeypatch.setattr(hashing, "PER_ADDRESS", 1000)  # the queue alone would refuse most
    with https_client(url) as c:
        assert c.post("/api/account/signup",
                      json={"name": "Alice", "password": PASSWORD}).status_code == 201
        c.cookies.clear()  # a stranger's browser
        hasher.checked = 0
        with ThreadPoolExecutor(60) as pool:
            codes = list(pool.map(lambda _: c.post("/api/account/login", json={
                "name": "Alice", "password": "guess guess"}).status_code, range(60)))
        assert codes.count(401) == accounts.PER_NAME_AT_ADDRESS
        assert codes.count(429) == 60 - accounts.PER_NAME_AT_ADDRESS
        assert hasher.checked == accounts.PER_NAME_AT_ADDRESS
        # The right password from that address now waits like the guesses.
        r = c.post("/api/account/login", json={"name": "Alice", "password": PASSWORD})
        assert r.status_code == 429
    # each guess counted under the address, the name and address, and the name; and the
    # account made, under the sign-ups of the address
    assert table_count(url, login_failures) == 3 * accounts.PER_NAME_AT_ADDRESS + 1


def test_concurrent_sign_ups_make_no_more_accounts_than_the_limit(
        url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(accounts, "_hasher", SlowHasher())
    monkeypatch.setattr(hashing, "PER_ADDRESS", 1000)
    with https_client(url) as c:
        with ThreadPoolExecutor(30) as pool:
            codes = list(pool.map(lambda i: c.post("/api/account/signup", json={
                "name": f"Player {i}", "password": PASSWORD}).status_code, range(30)))
    assert codes.count(201) == accounts.SIGNUPS_PER_ADDRESS
    assert len(table_rows(url, accounts_table)) == accounts.SIGNUPS_PER_ADDRESS


def test_refused_sign_ups_do_not_count_against_the_address(url: str) -> None:
    with https_client(url) as c:
        assert c.post("/api/account/signup",
                      json={"name": "Taken", "password": PASSWORD}).status_code == 201
        for _ in range(accounts.SIGNUPS_PER_ADDRESS + 2):
            assert c.post("/api/account/signup",
                          json={"name": "Taken", "password": PASSWORD}).status_code == 409
            assert c.post("/api/account/signup",
                          json={"name": "Weak", "password": "12345678"}).status_code == 400
        made = [c.post("/api/account/signup", json={"name": f"Family {i}",
                                                    "password": PASSWORD}).status_code
                for i in range(accounts.SIGNUPS_PER_ADDRESS)]
    assert made == [201] * (accounts.SIGNUPS_PER_ADDRESS - 1) + [429]


def test_the_owner_logged_in_confirms_the_password_past_strangers_guesses(url: str) -> None:
    """Guesses at the name from everywhere (the per-name limit) do not stop the browser
    logged in as the account, which counts per name and address only."""
    with https_client(url) as owner:
        r = owner.post("/api/account/signup", json={"name": "Alice", "password": PASSWORD})
        store = Store(url)
        try:  # the name's limit over all addresses is reached (guesses from elsewhere)
            for i in range(accounts.PER_NAME):
                assert accounts.reserve(store.engine, accounts.login_limits(
                    f"198.51.100.{i}", "Alice", False), time.time())
        finally:
            store.close()
        with https_client(url) as stranger:
            r = stranger.post("/api/account/login",
                              json={"name": "Alice", "password": PASSWORD})
            assert r.status_code == 429
        r = owner.post("/api/account/login", json={"name": "alice", "password": PASSWORD})
        assert r.status_code == 200, r.text
        r = owner.post("/api/account/password", headers={
            "X-CSRF-Token": r.json()["csrf"]},
            json={"password": PASSWORD, "new_password": "a brand new secret"})
        assert r.status_code == 200, r.text


# ----- the hashing queue ------------------------------------------------------------
def test_the_queue_refuses_an_address_with_attempts_enough_and_serves_the_fewest_failures(
        ) -> None:
    """The owner (no failures) comes in line after two guesses of a flooding address (9
    failures) and is served first."""
    async def scenario() -> list[str]:
        gate = hashing.HashGate(at_once=1, per_address=2)
        order: list[str] = []

        def work(who: str) -> str:
            order.append(who)
            return who

        async def attempt(address: str, failures: int, who: str) -> str:
            gate.enter(address)
            try:
                return await gate.run(failures, work, who)
            finally:
                gate.leave(address)

        gate.free = 0  # the one worker is busy: everyone below waits in line
        tasks = [asyncio.create_task(attempt("flood", 9, "flood 1")),
                 asyncio.create_task(attempt("flood", 9, "flood 2"))]
        await asyncio.sleep(0)
        with pytest.raises(WebError) as e:
            gate.enter("flood")  # a third one from the flooding address: refused at once
        assert e.value.status == 429
        tasks.append(asyncio.create_task(attempt("owner", 0, "owner")))
        await asyncio.sleep(0)
        gate._next()  # the worker is free again
        await asyncio.gather(*tasks)
        assert gate.free == 1 and not gate.inside
        return order

    # the fewest failures first; among equals the latest (flood 2 came after flood 1)
    assert asyncio.run(scenario()) == ["owner", "flood 2", "flood 1"]


# ----- passwords ------------------------------------------------------------------------
@pytest.mark.parametrize(("password", "name", "said"), [
    ("password", "password", "user name"),
    ("12345678", "Ann", "most commonly used"),
    ("aaaaaaaa", "Ann", "one repeated character"),
    ("abcdefgh", "Ann", "plain run"),
    ("Ann Lee 1990", "Ann Lee", "user name"),
    ("iloveyou2", "Ann", "most commonly used"),
    ("PASSWORD1", "Ann", "most commonly used"),
    ("seven77", "Ann", "at least 8 characters"),
])
def test_weak_passwords_are_refused_with_the_reason(password: str, name: str,
                                                    said: str) -> None:
    assert said in refused(check_password, password, name)


@pytest.mark.parametrize("password", ["correct horse battery", "tr0ub4dor&3x", "мой пароль!",
                                      "12345678 is not mine", "ZZZZZZZa"])
def test_other_passwords_need_no_digits_capitals_or_signs(password: str) -> None:
    assert check_password(password, "Ann") == password


def test_sign_up_says_why_a_password_is_refused_and_makes_nothing(url: str) -> None:
    with https_client(url) as c:
        for name, password, said in (("password", "password", "user name"),
                                     ("Ann", "12345678", "commonly used"),
                                     ("Ann", "aaaaaaaa", "repeated character")):
            r = c.post("/api/account/signup", json={"name": name, "password": password})
            assert r.status_code == 400 and said in r.json()["error"], r.text
        r = c.post("/api/account/signup", json={"name": "Ann", "password": PASSWORD})
        r = c.post("/api/account/password", headers={"X-CSRF-Token": r.json()["csrf"]},
                   json={"password": PASSWORD, "new_password": "qwertyuiop"})
        assert r.status_code == 400 and "commonly used" in r.json()["error"]
    assert [a.name for a in table_rows(url, accounts_table)] == ["Ann"]


# ----- typed text ---------------------------------------------------------------------
@pytest.mark.parametrize(("text", "said"), [
    ("Ann\x00", "control character (U+0000 NULL) at character 4"),
    ("\x1b[31mAnn", "control character (U+001B ESCAPE) at character 1"),
    ("An\u202en", "bidirectional control (U+202E RIGHT-TO-LEFT OVERRIDE) at character 3"),
    ("Ann\u2066x", "bidirectional control (U+2066 LEFT-TO-RIGHT ISOLATE)"),
    ("Ann\u200b", "invisible character (U+200B ZERO WIDTH SPACE)"),
    ("\u0301Ann", "combining mark with no letter before it"),
    ("Ann Z\u0301\u0302\u0303alg", "more than 2 combining marks on one letter"),
    ("Ann\nLee", "line break (U+000A LINE FEED)"),
    ("Ann\ue000", "private-use"),
])
def test_every_typed_field_refuses_the_same_characters_with_a_precise_message(
        text: str, said: str) -> None:
    for check in (lambda t: checked_text(t, "a field", 60), chat_text,
                  lambda t: checked_name(t, "a team name", 40)):
        assert said in refused(check, text)


def test_text_keeps_letters_with_their_accents_and_emoji_with_joiners_in_chat() -> None:
    assert checked_name("Tiếng Việt", "a team name", 40) == "Tiếng Việt"
    assert chat_text("nice 👩\u200d💻 move") == "nice 👩\u200d💻 move"
    assert "invisible" in refused(checked_name, "Ann\u200dLee")


def test_chat_refuses_two_hundred_bare_combining_marks() -> None:
    assert "combining mark with no letter before it" in refused(chat_text, "\u0301" * 200)
    assert "combining marks on one letter" in refused(chat_text, "a" + "\u0301" * 200)


@pytest.mark.parametrize("name", ["Ann L\u1d07\u1d07", "Ann \u029fee", "A\u0274\u0274 Lee",
                                  "\u1d00nn Lee", "Aᴺᴺ Lee"])
def test_small_capitals_and_modifier_letters_read_as_the_plain_letters(name: str) -> None:
    assert look_key(name) == look_key("Ann Lee")


def test_a_name_in_small_capitals_clashes_with_its_plain_twin(url: str) -> None:
    with https_client(url) as c:
        assert c.post("/api/account/signup",
                      json={"name": "Ann Lee", "password": PASSWORD}).status_code == 201
        for name in ("Ann L\u1d07\u1d07", "Ann \u029fee", "A\u0274\u0274 Lee"):
            r = c.post("/api/account/signup", json={"name": name, "password": PASSWORD})
            assert r.status_code == 409 and "taken" in r.json()["error"], (name, r.text)


@pytest.mark.parametrize("name", ["Bot (expert)", "AI (expert)", "Komputer (expert)",
                                  "Ann [Strong]", "Robot 7", "CPU-2", "Bot", "ordinateur"])
def test_names_that_imitate_the_computers_are_refused_to_accounts_and_seats(
        name: str) -> None:
    assert "reads as a computer seat's name" in refused(checked_name, name)
    assert "reads as a computer seat's name" in refused(person_name, name, "Player 1")


@pytest.mark.parametrize("name", ["Abbot", "Ai", "Aisha", "Sim", "Ann (mum)", "Roberta"])
def test_names_near_the_machine_words_are_kept(name: str) -> None:
    assert checked_name(name) == name and person_name(name, "Player 1") == name


def test_a_nul_in_a_tournament_team_or_e_mail_is_refused_and_nothing_is_stored(
        url: str) -> None:
    from kingscrib.web.mail.turn_mail import account_emails
    from kingscrib.web.tournaments.store import teams, tournaments

    with https_client(url) as c:
        r = c.post("/api/account/signup", json={"name": "Ann", "password": PASSWORD})
        headers = {"X-CSRF-Token": r.json()["csrf"]}
        for path, body, said in (
                ("/api/tournaments", {"name": "Spring\x00Cup"}, "a tournament name"),
                ("/api/tournaments", {"name": "Spring\x1b[2J"}, "U+001B ESCAPE"),
                ("/api/tournaments", {"name": "Cup \u202etxt.exe"}, "bidirectional"),
                ("/api/teams", {"name": "Pegs\x00"}, "a team name"),
                ("/api/teams", {"name": "Bot (expert)"}, "computer seat")):
            r = c.post(path, json=body, headers=headers)
            assert r.status_code == 400 and said in r.json()["error"], (body, r.text)
        r = c.put("/api/account/email", headers=headers,
                  json={"address": "ann\x00@example.org", "turn_mail": True})
        assert r.status_code == 400 and "U+0000 NULL" in r.json()["error"], r.text
    assert table_rows(url, tournaments) == [] and table_rows(url, teams) == []
    assert table_rows(url, account_emails) == []


def test_a_nul_in_a_tournament_name_or_e_mail_is_a_400_on_postgresql(
        tmp_path: Path) -> None:
    with postgres_cluster() as pg_url:
        server = Server(pg_url, data_dir=tmp_path).start()
        try:
            base = server.url
            r = httpx.post(f"{base}/api/account/signup",
                           json={"name": "Ann", "password": PASSWORD})
            cookie = {"Cookie": f"kingscrib_session={r.cookies['kingscrib_session']}",
                      "X-CSRF-Token": r.json()["csrf"]}
            r = httpx.post(f"{base}/api/tournaments", headers=cookie,
                           json={"name": "Spring\x00Cup"})
            assert r.status_code == 400 and "U+0000" in r.json()["error"], r.text
            r = httpx.put(f"{base}/api/account/email", headers=cookie,
                          json={"address": "ann\x00@example.org"})
            assert r.status_code == 400 and "U+0000" in r.json()["error"], r.text
        finally:
            server.stop()


# ----- a running server: SQLite, and two processes on PostgreSQL ----------------------
def _guesses_at_once(urls: list[str], count: int, name: str, addresses: list[str]
                     ) -> list[int]:
    """``count`` wrong log-ins for ``name`` sent at once, spread over the servers and the
    (proxied) client addresses; their answers' statuses."""
    async def run() -> list[int]:
        async with httpx.AsyncClient(timeout=120) as client:
            return list(await asyncio.gather(*(
                _status(client, f"{urls[i % len(urls)]}/api/account/login",
                        {"name": name, "password": "guess guess"},
                        addresses[i % len(addresses)]) for i in range(count))))

    return asyncio.run(run())


async def _status(client: httpx.AsyncClient, url: str, body: dict[str, Any],
                  address: str) -> int:
    r = await client.post(url, json=body, headers={"X-Forwarded-For": address})
    return r.status_code


def _log_in(url: str, name: str, address: str) -> int:
    return httpx.post(f"{url}/api/account/login", json={"name": name, "password": PASSWORD},
                      headers={"X-Forwarded-For": address}, timeout=60).status_code


def _limits_hold(urls: list[str]) -> None:
    r = httpx.post(f"{urls[0]}/api/account/signup", json={"name": "Alice", "password": PASSWORD},
                   headers={"X-Forwarded-For": "192.0.2.1"})
    assert r.status_code == 201, r.text
    attacker = "203.0.113.7"
    checked = 0
    for _ in range(3):  # 60 at once, three times: the limit holds whatever the timing
        codes = _guesses_at_once(urls, 60, "Alice", [attacker])
        assert set(codes) <= {401, 429}
        checked += codes.count(401)
    assert checked <= accounts.PER_NAME_AT_ADDRESS
    while checked < accounts.PER_NAME_AT_ADDRESS:  # one at a time up to the limit
        assert _guesses_at_once(urls, 1, "Alice", [attacker]) == [401]
        checked += 1
    assert _log_in(urls[-1], "Alice", attacker) == 429  # the right password waits too
    assert _log_in(urls[-1], "Alice", "192.0.2.1") == 200  # the owner, elsewhere: in
    # 120 at once from five addresses, each guessing other names: never more checked than
    # the addresses' limits allow
    flood = [f"198.51.100.{i}" for i in range(5)]
    codes = _guesses_at_once(urls, 120, "Nobody", flood)
    assert set(codes) <= {401, 429}
    assert codes.count(401) <= 5 * accounts.PER_NAME_AT_ADDRESS


def test_the_limits_hold_against_a_running_server_on_sqlite(tmp_path: Path) -> None:
    server = Server(tmp_path / "web.sqlite3",
                    extra_args=["--trust-proxy", "127.0.0.1"]).start()
    try:
        _limits_hold([server.url])
    finally:
        server.stop()


def test_the_limits_hold_against_two_processes_on_postgresql(tmp_path: Path) -> None:
    with postgres_cluster() as pg_url:
        servers = [Server(pg_url, data_dir=tmp_path,
                          extra_args=["--trust-proxy", "127.0.0.1"]).start() for _ in range(2)]
        try:
            _limits_hold([s.url for s in servers])
        finally:
            for s in servers:
                s.stop()
