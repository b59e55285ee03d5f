"""The web server on a real PostgreSQL server: games are stored and resume after a restart.

The test starts its own throw-away PostgreSQL cluster (Debian's ``postgresql``
package, which ``.ci/run`` installs when it is missing) on a free loopback port.
"""

from __future__ import annotations

import time

import pytest
from web_support import auth, in_process_client

from kingscrib.kings.game import Game
from kingscrib.kings.moves import Play
from kingscrib.kings.record import check_record
from kingscrib.kings.rules import RuleSet
from kingscrib.web.db.storage import Store, postgres_driver

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SEED = 11


def test_plain_postgresql_urls_use_the_installed_driver() -> None:
    assert postgres_driver("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert postgres_driver("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert postgres_driver("sqlite:///x.db") == "sqlite:///x.db"


def test_a_game_on_postgresql_resumes_exactly_after_a_restart(postgres_url: str) -> None:
    engine = Game.new(["Ann", "Bob"], RuleSet(), SEED)
    with in_process_client(postgres_url) as c:
        body = {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human"}], "seed": SEED}
        created = c.post("/api/games", json=body).json()
        gid = created["game_id"]
        joined = c.post(f"/api/games/{gid}/join",
                        json={"invite": created["invite"], "name": "Bob"}).json()
        tokens = [created["token"], joined["token"]]
        for _ in range(3):
            best = engine.legal_moves()[0].play
            r = c.post(f"/api/games/{gid}/actions",
                       json={"action": "play", "tiles": best.tiles_json()},
                       headers=auth(tokens[engine.turn]))
            assert r.status_code == 200, r.text
            engine.play(best)
        before = [c.get(f"/api/games/{gid}", headers=auth(t)).json() for t in tokens]
    with in_process_client(postgres_url) as c:
        after = [c.get(f"/api/games/{gid}", headers=auth(t)).json() for t in tokens]
        for b, a in zip(before, after):
            assert [dict(s, online=False) for s in a.pop("seats")] == \
                [dict(s, online=False) for s in b.pop("seats")]
            assert a == b
        best = engine.legal_moves()[0].play
        r = c.post(f"/api/games/{gid}/actions", json={"action": "play", "tiles": best.tiles_json()},
                   headers=auth(tokens[engine.turn]))
        assert r.status_code == 200, r.text
        engine.play(best)
        played = [t["tiles"] for t in r.json()["history"]]
        assert played == [Play.of(t.tiles).tiles_json() for t in engine.history]


def test_a_computer_game_is_stored_in_postgresql_and_checks(postgres_url: str) -> None:
    with in_process_client(postgres_url) as c:
        body = {"seats": [{"kind": "computer", "level": "greedy"},
                          {"kind": "computer", "level": "greedy"}], "seed": 5}
        gid = c.post("/api/games", json=body).json()["game_id"]
        for _ in range(1200):
            record = c.get(f"/api/games/{gid}/record")
            if record.status_code == 200:
                break
            time.sleep(0.05)
        assert record.status_code == 200, record.text
    check_record(record.json())
    store = Store(postgres_url)
    try:
        stored = store.load(gid)
    finally:
        store.close()
    assert stored is not None and stored.over
    assert stored.turns == record.json()["turns"]


def test_a_classic_computer_game_is_stored_in_postgresql_and_replays(postgres_url: str
                                                                     ) -> None:
    from kingscrib.classic.record import replay

    with in_process_client(postgres_url) as c:
        body = {"game": "classic", "seats": [{"kind": "computer", "level": "medium"},
                                             {"kind": "computer", "level": "easy"}],
                "seed": 6, "rules": {"skunk": True}}
        gid = c.post("/api/games", json=body).json()["game_id"]
        for _ in range(1200):
            record = c.get(f"/api/games/{gid}/record")
            if record.status_code == 200:
                break
            time.sleep(0.05)
        assert record.status_code == 200, record.text
    game = replay(record.json())
    store = Store(postgres_url)
    try:
        stored = store.load(gid)
    finally:
        store.close()
    assert stored is not None and stored.over and stored.game == "cribbage"
    assert max(game.scores) == 121 and stored.rules == game.rules.to_dict()


def test_the_games_are_in_postgresql(postgres_url: str) -> None:
    import psycopg

    with psycopg.connect(postgres_url) as conn:
        version = conn.execute("show server_version").fetchone()[0]
        stored = conn.execute("select count(*) from games").fetchone()[0]
    assert int(version.split(".")[0]) >= 12
    assert stored >= 3  # the games of the tests above
