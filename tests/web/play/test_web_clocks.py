"""Clocks and resigning on the web server: charging, running out of time (also after a
restart), resignations with 2, 3 and 4 players, refusals, records, races in storage."""

from __future__ import annotations

import math
import sqlite3
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from web_support import auth, in_process_client, postgres_cluster

from kingscrib.classic.record import replay as replay_classic
from kingscrib.kings.record import check_record
from kingscrib.web.db.storage import StaleGame, Store, StoredSeat, TurnWrite
from kingscrib.web.play.clocks import Clock

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def web_db(tmp_path: Path) -> Path:
    return tmp_path / "web.sqlite3"


@pytest.fixture
def client(web_db: Path):
    with in_process_client(f"sqlite:///{web_db}", clock_every=0.2) as c:
        yield c


def people(client: TestClient, n: int, game: str = "kings", seed: int = 11, **extra
           ) -> tuple[str, list[str], dict]:
    """A game of ``n`` human seats, every seat taken; the id, the tokens, the creation."""
    body = {"game": game, "seed": seed, "seats": [{"name": f"P{i}"} for i in range(n)]}
    body.update(extra)
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    created = r.json()
    tokens = [created["token"]]
    for i in range(1, n):
        j = client.post(f"/api/games/{created['game_id']}/join",
                        json={"invite": created["invite"], "seat": i})
        assert j.status_code == 200, j.text
        tokens.append(j.json()["token"])
    return created["game_id"], tokens, created


def state(client: TestClient, game_id: str, token: str | None = None) -> dict:
    r = client.get(f"/api/games/{game_id}", headers=auth(token) if token else {})
    assert r.status_code == 200, r.text
    return r.json()


def stored_clock(client: TestClient, game_id: str) -> dict:
    return client.app.state.hub.store.load(game_id).clock


def wait_for(check, timeout: float):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError("waited in vain")


# ----- the clock's arithmetic ---------------------------------------------------------

@given(st.lists(st.floats(0.01, 50), min_size=1, max_size=8), st.integers(0, 120))
def test_a_clock_charges_each_running_seat_the_time_since_its_start(spells, overtime):
    """Two seats alternate; each is charged exactly the sum of its own spells."""
    clock = Clock.new(100, overtime, 2)
    now = 1000.0
    clock.restart(now, [0])
    spent = [0.0, 0.0]
    for i, spell in enumerate(spells):
        now += spell
        spent[i % 2] += spell
        clock.restart(now, [(i + 1) % 2])
    assert clock.remaining == pytest.approx([100 - spent[0], 100 - spent[1]], abs=0.01)
    mover = len(spells) % 2
    assert clock.due() == pytest.approx(now + clock.remaining[mover] + overtime)
    over = [max(0.0, -r) for r in clock.remaining]
    assert clock.penalties(now) == [10 * math.ceil(round(o, 3) / 60) for o in over]


def test_overtime_costs_ten_points_per_started_minute():
    clock = Clock.new(60, 600, 2)
    clock.restart(0.0, [0])
    assert clock.penalties(60.0) == [0, 0]
    assert clock.penalties(60.5) == [10, 0]
    assert clock.penalties(120.0) == [10, 0]
    assert clock.penalties(120.1) == [20, 0]
    assert clock.flagged(659.9) is None and clock.flagged(660.0) == 0


# ----- charging through the API ---------------------------------------------------------

def test_clocks_start_when_every_seat_is_taken_and_charge_the_mover(client):
    r = client.post("/api/games", json={"seed": 11, "clock_seconds": 60,
                                        "seats": [{"name": "Ann"}, {"kind": "human"}]})
    created = r.json()
    game_id = created["game_id"]
    clock = created["state"]["clock"]
    assert clock["running"] == [] and clock["left"] == [60, 60]  # the friend is not here
    time.sleep(0.3)
    joined = client.post(f"/api/games/{game_id}/join", json={"invite": created["invite"]})
    tokens = [created["token"], joined.json()["token"]]
    started = time.monotonic()
    first = state(client, game_id)
    mover = first["turn"]
    assert first["clock"]["running"] == [mover]
    assert first["clock"]["left"][mover] > 59.5  # the wait for the friend was not charged
    time.sleep(0.6)
    r = client.post(f"/api/games/{game_id}/actions", json={"action": "pass"},
                    headers=auth(tokens[mover]))
    spent = time.monotonic() - started
    assert r.status_code == 200, r.text
    after = r.json()["clock"]
    other = 1 - mover
    assert after["running"] == [other]
    assert 60 - spent - 0.15 <= after["left"][mover] <= 60 - 0.6 + 0.05
    assert after["left"][other] > 59.8
    # The store holds the same figures, and when the mover's clock runs out.
    stored = stored_clock(client, game_id)
    assert stored["turn"] == 1
    assert stored["remaining"][mover] == pytest.approx(after["left"][mover], abs=0.15)
    assert stored["due"] == pytest.approx(time.time() + 60 + 600, abs=2)  # 10 min overtime


def test_clock_settings_are_checked(client):
    seats = [{"name": "Ann"}, {"kind": "computer", "level": "greedy"}]
    for extra, message in [
        ({"clock_seconds": 2}, "clock_seconds is from 5 to 10800"),
        ({"clock_seconds": 10**6}, "clock_seconds is from 5 to 10800"),
        ({"clock_seconds": 60, "clock_overtime": 601}, "clock_overtime is from 0 to 600"),
        ({"clock_overtime": 60}, "overtime needs a clock"),
        ({"game": "classic", "clock_seconds": 60, "clock_overtime": 30},
         "Cribbage has no overtime: running out of time loses"),
    ]:
        r = client.post("/api/games", json={"seats": seats, **extra})
        assert r.status_code == 400 and message in r.json()["error"], r.text


def test_a_computer_seat_has_a_clock_too(client):
    r = client.post("/api/games", json={"seed": 5, "clock_seconds": 300, "seats": [
        {"name": "Ann"}, {"kind": "computer", "level": "greedy"}]})
    created = r.json()
    game_id, token = created["game_id"], created["token"]
    if created["state"]["turn"] == 1:  # the computer begins: wait for its move
        wait_for(lambda: state(client, game_id)["turn"] == 0, 20)
    r = client.post(f"/api/games/{game_id}/actions", json={"action": "pass"},
                    headers=auth(token))
    assert r.status_code == 200
    now = wait_for(lambda: (s := state(client, game_id))["turn"] == 0 and s, 20)
    left = now["clock"]["left"]
    assert now["clock"]["running"] == [0]
    assert 290 < left[1] <= 300  # the computer thought quickly
    remaining = stored_clock(client, game_id)["remaining"]
    assert remaining[0] < 300 and remaining[1] < 300  # but both were charged


# ----- running out of time ----------------------------------------------------------------

def test_a_flag_noticed_late_stops_the_clock_when_it_fell(client, monkeypatch):
    """Housekeeping that looks a minute after the flag fell charges the overtime up to
    the flag, not up to its look: 2 s of overtime used (one started minute, 10 points),
    not 62 (two minutes, 20 points)."""
    from kingscrib.web.play import endings

    game_id, _tokens, _ = people(client, 2, clock_seconds=5, clock_overtime=2)
    mover = state(client, game_id)["turn"]
    late = time.time() + 5 + 2 + 60

    class Late:
        @staticmethod
        def time() -> float:
            return late

    monkeypatch.setattr(endings, "time", Late)
    hub = client.app.state.hub
    assert client.portal.call(endings.check_clocks, hub, late) == [game_id]
    ended = state(client, game_id)
    assert ended["result"]["reason"] == "time" and ended["result"]["seat"] == mover
    assert ended["clock"]["left"][mover] == pytest.approx(-2, abs=0.01)
    assert ended["result"]["time_penalties"][mover] == 10


def test_kings_overtime_then_the_game_is_lost_on_time(client):
    """5 s and 2 s of overtime: the mover who does nothing loses on time; the started
    minute of overtime costs 10 points."""
    game_id, tokens, _ = people(client, 2, clock_seconds=5, clock_overtime=2)
    before = state(client, game_id)
    mover = before["turn"]
    ended = wait_for(lambda: (s := state(client, game_id))["result"] and s, 12)
    result = ended["result"]
    assert result["reason"] == "time" and result["seat"] == mover
    assert result["losers"] == [mover] and result["winners"] == [1 - mover]
    assert result["time_penalties"][mover] == 10
    scores = [s["score"] for s in before["seats"]]
    assert result["scores"][mover] == scores[mover] - 10
    assert result["order"] == [1 - mover, mover]
    assert ended["over"] is True and ended["turn"] is None
    assert ended["clock"]["running"] == []
    assert ended["clock"]["left"][mover] == pytest.approx(-2, abs=0.5)
    # Nothing more can be played, and the record replays with the result beside it.
    r = client.post(f"/api/games/{game_id}/actions", json={"action": "pass"},
                    headers=auth(tokens[mover]))
    assert r.status_code == 409 and r.json()["error"] == "the game is over"
    record = client.get(f"/api/games/{game_id}/record").json()
    assert record["result"] == result and "end" not in record
    check_record(record)


def test_classic_time_out_loses_the_partnership(client):
    game_id, tokens, _ = people(client, 4, "classic", seed=3, clock_seconds=5)
    first = state(client, game_id)
    assert sorted(first["clock"]["running"]) == [0, 1, 2, 3]  # everyone lays away at once
    # Seats 1, 2 and 3 discard; seat 0 never does and runs out first.
    for seat in (1, 2, 3):
        hand = state(client, game_id, tokens[seat])["hand"]
        r = client.post(f"/api/games/{game_id}/actions", headers=auth(tokens[seat]),
                        json={"action": "discard", "cards": hand[:1]})
        assert r.status_code == 200, r.text
    ended = wait_for(lambda: (s := state(client, game_id))["result"] and s, 10)
    result = ended["result"]
    assert result["reason"] == "time" and result["seat"] == 0
    assert result["losers"] == [0, 2] and result["winners"] == [1, 3]
    record = client.get(f"/api/games/{game_id}/record").json()
    assert record["result"] == result
    replay_classic(record)


# ----- resigning -----------------------------------------------------------------------

def test_resigning_with_two_players_and_the_refusals(client):
    game_id, tokens, _ = people(client, 2)
    spectator = client.post(f"/api/games/{game_id}/resign")
    assert spectator.status_code == 403
    assert spectator.json()["error"] == "only a seated player can resign"
    bad = client.post(f"/api/games/{game_id}/resign", headers=auth("not-a-seat"))
    assert bad.status_code == 401
    assert state(client, game_id)["result"] is None  # nothing changed
    r = client.post(f"/api/games/{game_id}/resign", headers=auth(tokens[1]))
    assert r.status_code == 200, r.text
    result = r.json()["result"]
    assert result["reason"] == "resigned" and result["seat"] == 1
    assert result["winners"] == [0] and result["losers"] == [1] and result["order"] == [0, 1]
    after = state(client, game_id)
    again = client.post(f"/api/games/{game_id}/resign", headers=auth(tokens[0]))
    assert again.status_code == 409 and again.json()["error"] == "the game is over"
    move = client.post(f"/api/games/{game_id}/actions", json={"action": "pass"},
                       headers=auth(tokens[after["seats"][0]["seat"]]))
    assert move.status_code == 409
    assert state(client, game_id) == after  # nothing changed
    record = client.get(f"/api/games/{game_id}/record").json()
    assert record["result"] == result
    check_record(record)


def test_resigning_with_three_players_ranks_the_resigner_last(client):
    game_id, tokens, _ = people(client, 3, seed=4)
    # Play a few turns so the scores differ: each mover passes or plays its hint.
    for _ in range(3):
        s = state(client, game_id)
        hint = client.post(f"/api/games/{game_id}/hint", headers=auth(tokens[s["turn"]]))
        body = {"action": "pass"}
        if hint.status_code == 200 and hint.json().get("options"):
            body = {"action": "play", "tiles": hint.json()["options"][0]["tiles"]}
        r = client.post(f"/api/games/{game_id}/actions", json=body,
                        headers=auth(tokens[s["turn"]]))
        assert r.status_code == 200, r.text
    scores = [s["score"] for s in state(client, game_id)["seats"]]
    r = client.post(f"/api/games/{game_id}/resign", headers=auth(tokens[0]))
    result = r.json()["result"]
    best = max(scores[1], scores[2])
    assert result["winners"] == [s for s in (1, 2) if scores[s] == best]
    assert result["order"][-1] == 0
    assert [scores[s] for s in result["order"][:2]] == sorted(scores[1:], reverse=True)
    assert result["scores"] == scores
    check_record(client.get(f"/api/games/{game_id}/record").json())


def test_resigning_through_the_websocket_in_three_player_cribbage(client):
    game_id, tokens, _ = people(client, 3, "classic", seed=8)
    with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
        ws.send_json({"type": "hello", "token": tokens[2]})
        assert ws.receive_json()["type"] == "welcome"
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "resign", "ref": 1})
        messages = [ws.receive_json()]
        while messages[-1]["type"] != "ok":
            messages.append(ws.receive_json())
    assert messages[-1]["ref"] == 1
    pushed = [m["state"] for m in messages if m["type"] == "state"]
    assert pushed[-1]["result"]["seat"] == 2  # a result: the game is over
    after = state(client, game_id)
    assert after["over"] is True and after["waiting"] == []
    result = after["result"]
    assert result["losers"] == [2] and result["winners"] == [0, 1]  # 0 to 0: both win
    replay_classic(client.get(f"/api/games/{game_id}/record").json())


def test_a_spectator_cannot_resign_through_the_websocket(client):
    game_id, _, _ = people(client, 2)
    with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
        ws.send_json({"type": "hello"})
        ws.receive_json()
        ws.receive_json()
        ws.send_json({"type": "resign", "ref": 7})
        error = ws.receive_json()
        while error["type"] != "error":
            error = ws.receive_json()
    assert error == {"type": "error", "ref": 7, "status": 403,
                     "error": "only a seated player can resign"}
    assert state(client, game_id)["result"] is None


# ----- storage: races and the one indexed query ------------------------------------------

@pytest.fixture(scope="module")
def postgres():
    with postgres_cluster() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'race.sqlite3'}"
    return request.getfixturevalue("postgres")


def test_the_stored_turn_count_decides_a_race(database_url):
    """Two processes' stores on one database: a turn stored first beats a time-out (and
    an ending stored first beats a turn); on PostgreSQL too."""
    one, two = Store(database_url), Store(database_url)
    seats = [StoredSeat(0, "A", "human", None, "x"), StoredSeat(1, "B", "human", None, "y")]
    row = {"seconds": 60, "overtime": 0, "remaining": [60, 60], "running": [0],
           "started": 0.0, "due": 60.0}
    for game_id in ("g1", "g2"):
        one.create_game(game_id, {}, 1, "h", seats, clock=row)
    one.write_batch([TurnWrite("g1", 0, {"player": 0}, clock=dict(row, running=[1]))])
    with pytest.raises(StaleGame):
        two.finish("g1", 0, dict(row, running=[], due=None, result={"reason": "time"}))
    assert two.load("g1").clock["result"] is None
    two.finish("g2", 0, dict(row, running=[], due=None, result={"reason": "time"}))
    failed = one.write_batch([TurnWrite("g2", 0, {"player": 0}, clock=row)])
    assert isinstance(failed[0], StaleGame)
    assert one.load("g2").turns == [] and one.load("g2").over
    assert one.due_clocks(1e12) == ["g1"]  # an ending leaves no clock to enforce
    one.close()
    two.close()


def test_due_clocks_are_found_through_the_index(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'due.sqlite3'}")
    seats = [StoredSeat(0, "A", "human", None, "x"), StoredSeat(1, "B", "human", None, "y")]
    for i, due in enumerate([10.0, 20.0, None]):
        store.create_game(f"g{i}", {}, 1, "h", seats, clock={"due": due, "seconds": 5})
    assert store.due_clocks(15.0) == ["g0"] and store.due_clocks(25.0) == ["g0", "g1"]
    with sqlite3.connect(tmp_path / "due.sqlite3") as db:
        plan = " ".join(str(r) for r in db.execute(
            "EXPLAIN QUERY PLAN SELECT game_id FROM clocks WHERE due <= 1 AND result IS NULL"))
    assert "ix_clocks_due" in plan


def test_clocks_and_resigning_work_for_any_registered_game(client):
    """A game registered only in the tests (the race of test_web_protocol_seam), which
    names no early_result: its clocks follow the seats it waits for, and whoever resigns
    loses while everyone else wins."""
    from test_web_protocol_seam import RaceKind

    from kingscrib.web.play.games import register, unregister

    register(RaceKind())
    try:
        game_id, tokens, _ = people(client, 3, "race", clock_seconds=60)
        first = state(client, game_id)
        mover = first["turn"]
        assert first["clock"]["running"] == [mover]
        r = client.post(f"/api/games/{game_id}/actions", json={"action": "add", "n": 1},
                        headers=auth(tokens[mover]))
        assert r.status_code == 200, r.text
        after = r.json()
        assert after["clock"]["running"] == [after["turn"]] != [mover]
        r = client.post(f"/api/games/{game_id}/resign", headers=auth(tokens[2]))
        result = r.json()["result"]
        assert result["losers"] == [2] and result["winners"] == [0, 1]
        assert r.json()["clock"]["running"] == [] and r.json()["over"] is True
        late = client.post(f"/api/games/{game_id}/actions", json={"action": "add", "n": 1},
                           headers=auth(tokens[after["turn"]]))
        assert late.status_code == 409 and late.json()["error"] == "the game is over"
        assert client.get(f"/api/games/{game_id}/record").json()["result"] == result
    finally:
        unregister("race")


def _analysed(client: TestClient, game_id: str, token: str) -> list[dict]:
    """Start the analysis of a finished game (as the player of ``token``) and wait for
    its rows."""
    r = client.post(f"/api/games/{game_id}/analysis", headers=auth(token))
    assert r.status_code in (200, 202), r.text
    deadline = time.monotonic() + 120
    while True:
        status = client.get(f"/api/games/{game_id}/analysis").json()
        if status["status"] == "done":
            return status["turns"]
        assert status["status"] == "running" and time.monotonic() < deadline, status
        time.sleep(0.2)


def _cli_json(tmp_path: Path, record: dict, *command: str) -> list[dict]:
    import json
    import subprocess
    import sys

    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    out = subprocess.run([sys.executable, "-c", "from kingscrib.cli.main import main; main()",
                          *command, str(path), "--json"], capture_output=True, text=True,
                         check=True, timeout=300)
    return json.loads(out.stdout)


def test_a_resigned_kings_game_is_analysed_like_kingscrib_analyze(client, tmp_path):
    game_id, tokens, _ = people(client, 2, seed=6)
    before = client.post(f"/api/games/{game_id}/analysis")
    assert before.status_code == 409  # not over yet: nothing to analyse
    for _ in range(3):
        s = state(client, game_id)
        r = client.post(f"/api/games/{game_id}/actions", json={"action": "pass"},
                        headers=auth(tokens[s["turn"]]))
        assert r.status_code == 200, r.text
    assert client.post(f"/api/games/{game_id}/resign", headers=auth(tokens[1])).status_code == 200
    rows = _analysed(client, game_id, tokens[0])
    record = client.get(f"/api/games/{game_id}/record").json()
    assert len(rows) == len(record["turns"]) == 3
    expected = _cli_json(tmp_path, record, "analyze")
    page_only = {"best_tiles", "best_text", "played_text"}  # the page's additions
    assert [{k: v for k, v in row.items() if k not in page_only} for row in rows] == expected


def test_a_resigned_cribbage_game_is_analysed_like_kingscrib_classic_analyze(client, tmp_path):
    game_id, tokens, _ = people(client, 2, "classic", seed=9)
    for seat in (0, 1):
        hand = state(client, game_id, tokens[seat])["hand"]
        r = client.post(f"/api/games/{game_id}/actions", headers=auth(tokens[seat]),
                        json={"action": "discard", "cards": hand[:2]})
        assert r.status_code == 200, r.text
    assert client.post(f"/api/games/{game_id}/resign", headers=auth(tokens[0])).status_code == 200
    rows = _analysed(client, game_id, tokens[1])
    record = client.get(f"/api/games/{game_id}/record").json()
    assert [row["decision"] for row in rows] == ["discard", "discard"], rows
    assert rows == _cli_json(tmp_path, record, "classic", "analyze")
