"""Classic Cribbage on the web server: API, websocket, hidden cards, refusals, restarts."""

from __future__ import annotations

import json
import random
import re
import sqlite3
from importlib import import_module
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from web_support import auth, body_of, in_process_client

from kingscrib.classic.game import (
    Claim,
    ClassicGame,
    Discard,
    seated_actions_from_record,
)
from kingscrib.classic.record import replay
from kingscrib.classic.rules import RuleSet
from kingscrib.classic.show import score_show

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

CARD = re.compile(r'"([A2-9TJQK][CDHS])"')


@pytest.fixture
def web_db(tmp_path: Path) -> Path:
    return tmp_path / "web.sqlite3"


@pytest.fixture
def client(web_db: Path):
    with in_process_client(f"sqlite:///{web_db}") as c:
        yield c


def people(client: TestClient, n: int, seed: int, **rules) -> tuple[str, list[str]]:
    """A classic game of ``n`` human seats; the id and every seat's token."""
    r = client.post("/api/games", json={"game": "classic", "seed": seed, "rules": rules,
                                        "seats": [{"name": f"P{i}"} for i in range(n)]})
    assert r.status_code == 201, r.text
    created = r.json()
    tokens = [created["token"]]
    for i in range(1, n):
        j = client.post(f"/api/games/{created['game_id']}/join",
                        json={"invite": created["invite"], "seat": i})
        assert j.status_code == 200, j.text
        tokens.append(j.json()["token"])
    return created["game_id"], tokens


def face_up(game: ClassicGame, deal: dict) -> set[str]:
    """Cards of a deal anyone may have seen: the starter once cut, the cards laid, the
    hands and crib once shown (read from the engine's own record)."""
    seen = {p["card"] for p in deal["plays"] if p["action"] == "play"}
    if "starter" in deal:
        seen.add(deal["starter"])
    for s in deal["show"]:
        seen.update(s["cards"])
    item = game.show_item
    if item is not None and deal is game.deals[-1]:
        seen.update(str(c) for c in item.cards)
    return seen


def check_hidden(message: dict, game: ClassicGame, seat: int | None) -> None:
    """No card in a message that ``seat`` (None: a spectator) may not see."""
    state = dict(message)
    previous = state.pop("previous", None)
    cut = state.pop("cut")
    assert cut["cards"] == [str(c) for c in game.cuts[-1]]
    assert "seed" not in json.dumps(state)
    deal = game.deals[-1]
    allowed = face_up(game, deal)
    if seat is not None:
        allowed |= set(deal["hands"][seat])
    leaked = set(CARD.findall(json.dumps(state))) - allowed
    assert not leaked, f"seat {seat} was shown {leaked}"
    if previous is not None:
        leaked = set(CARD.findall(json.dumps(previous))) - face_up(game, game.deals[-2])
        assert not leaked, f"seat {seat} was shown {leaked} of the last deal"
    if seat is None:
        assert "hand" not in state and "kept" not in state
    else:
        assert state["hand"] == [str(c) for c in sorted(game.hand(seat))]


def check_replay_hidden(client: TestClient, gid: str, played: ClassicGame) -> None:
    """The live game's replay, step by step: no card a spectator could not see then."""
    r = client.get(f"/api/games/{gid}/replay")
    assert r.status_code == 200, r.text
    replay = r.json()
    game = ClassicGame(played.rules, played.seed, list(played.names), explicit_go=True)
    actions = seated_actions_from_record(played.record(), True)
    assert len(replay["steps"]) == len(actions)
    check_hidden({**replay["start"], "cut": replay["cut"]}, game, None)
    deals = replay["deals"]
    for (seat, action), step in zip(actions, replay["steps"]):
        deal = game.deals[-1]  # the deal this action belongs to (it may end with it)
        game.apply(action, seat)
        state = dict(step.pop("state"), cut=replay["cut"])
        if state["deal"] > 1:
            state["previous"] = deals[state["deal"] - 2]
        laid_away = step.pop("cards", None)  # named once the game is over, never before
        if isinstance(action, Discard):
            assert laid_away == ([str(c) for c in action.cards] if played.phase == "over"
                                 else None)
        check_hidden(state, game, None)
        leaked = set(CARD.findall(json.dumps(step))) - face_up(game, deal)
        assert not leaked, f"a replay step showed {leaked}"
        assert state["scores"] == game.scores
    assert len(deals) == len(game.deals) - 1


def receive_version(ws, version: int) -> dict:
    while True:
        m = ws.receive_json()
        if m["type"] == "state" and m["state"]["version"] >= version:
            return m["state"]


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from([2, 3, 4]), st.integers(0, 2**20), st.booleans())
def test_no_message_to_any_seat_or_spectator_shows_a_hidden_card(web_db_factory, players,
                                                                   seed, muggins):
    db = web_db_factory()
    rng = random.Random(seed)
    with in_process_client(f"sqlite:///{db}", rate_per_second=1e4, rate_burst=1e4) as client:
        gid, tokens = people(client, players, seed, muggins=muggins)
        game = ClassicGame(RuleSet(players=players, muggins=muggins), seed,
                           [f"P{i}" for i in range(players)], explicit_go=True)
        sockets = [client.websocket_connect(f"/api/games/{gid}/ws")
                   for _ in range(players + 1)]
        listeners = [s.__enter__() for s in sockets]
        try:
            for seat, ws in enumerate(listeners):
                ws.send_json({"type": "hello", "token": tokens[seat] if seat < players
                              else None})
            version = client.get(f"/api/games/{gid}").json()["version"]
            for _ in range(rng.randrange(30, 90)):
                if game.phase == "over":
                    break
                seat = rng.choice(game.waiting_for())
                action = rng.choice(game.legal_for(seat))
                if isinstance(action, Claim):  # near the value: the game goes on
                    item = game.show_item
                    value = score_show(item.cards, game.starter, item.kind == "crib").total
                    action = Claim(rng.randint(0, min(29, value + 2)))
                r = client.post(f"/api/games/{gid}/actions", json=body_of(action),
                                headers=auth(tokens[seat]))
                assert r.status_code == 200, r.text
                game.apply(action, seat)
                version += 1
                check_hidden(r.json(), game, seat)
                for who, ws in enumerate(listeners):
                    check_hidden(receive_version(ws, version), game,
                                 who if who < players else None)
                r = client.get(f"/api/games/{gid}")
                assert r.status_code == 200, r.text
                spectator = r.json()
                check_hidden(spectator, game, None)
                assert spectator["scores"] == game.scores
            check_replay_hidden(client, gid, game)
        finally:
            for s in sockets:
                s.__exit__(None, None, None)


@pytest.fixture
def web_db_factory(tmp_path_factory):
    return lambda: tmp_path_factory.mktemp("classic") / "web.sqlite3"


def test_the_start_of_a_game_its_seats_and_the_cut(client: TestClient) -> None:
    r = client.post("/api/games", json={"game": "classic", "seed": 3, "seats": [
        {"name": "Ann"}, {"kind": "computer", "level": "expert"}], "rules": {"skunk": True}})
    assert r.status_code == 201, r.text
    state = r.json()["state"]
    game = ClassicGame(RuleSet(players=2, skunk=True), 3)
    assert state["game"] == "cribbage" and state["rules"] == game.rules.to_dict()
    assert state["cut"]["cards"] == [str(c) for c in game.cuts[-1]]
    assert state["dealer"] == game.first_dealer and state["phase"] == "discard"
    assert state["hand"] == [str(c) for c in sorted(game.hand(0))]
    assert state["can"]["discard"] == 2 and state["starter"] is None
    seats = [{}, {}]
    r = client.post("/api/games", json={"game": "chess", "seats": seats})
    assert r.status_code == 422 and "unknown game 'chess'" in r.json()["error"]
    r = client.post("/api/games", json={"game": "classic", "seats": seats,
                                        "rules": {"joker": True}})
    assert r.status_code == 422 and "joker" in r.json()["error"]
    r = client.post("/api/games", json={"game": "classic", "seats": seats,
                                        "rules": {"players": 3}})
    assert r.status_code == 400 and "3 players but there are 2 seats" in r.json()["error"]
    levels = client.get("/api/levels").json()["games"]
    assert levels["cribbage"]["levels"][-1] == "expert"
    assert levels["cribbage"]["seats"] == {"min": 2, "max": 4}


def test_refused_actions_say_why_and_change_nothing(client: TestClient) -> None:
    gid, (t0, t1) = people(client, 2, seed=21)
    game = ClassicGame(RuleSet(players=2), 21, explicit_go=True)

    def refused(token, body, status, words):
        before = client.get(f"/api/games/{gid}", headers=auth(token)).json()
        r = client.post(f"/api/games/{gid}/actions", json=body,
                        headers=auth(token) if token else {})
        assert r.status_code == status, r.text
        assert words in r.json()["error"], r.json()["error"]
        assert client.get(f"/api/games/{gid}", headers=auth(token)).json() == before

    tokens = [t0, t1]
    hand0 = [str(c) for c in game.hand(0)]
    not_held = next(str(c) for c in game.hand(1))
    refused(t0, {"action": "discard", "cards": hand0[:1]}, 400, "exactly 2")
    refused(t0, {"action": "discard", "cards": [hand0[0], not_held]}, 400, "not in")
    refused(t0, {"action": "discard", "cards": ["ZZ", hand0[0]]}, 400, "not a card")
    refused(t0, {"action": "play", "card": hand0[0]}, 400, "no card can be laid")
    refused(None, {"action": "go"}, 403, "spectators")
    refused(t0, {"action": "dance"}, 422, "action")
    # both lay away; the pone leads
    for seat in (0, 1):
        action = game.legal_for(seat)[0]
        assert client.post(f"/api/games/{gid}/actions", json=body_of(action),
                           headers=auth(tokens[seat])).status_code == 200
        game.apply(action, seat)
    refused(t0, {"action": "discard", "cards": hand0[:2]}, 409, "turn")
    mover = game.to_act
    other = 1 - mover
    refused(tokens[other], {"action": "play", "card": str(game.hand(other)[0])}, 409, "turn")
    refused(tokens[mover], {"action": "go"}, 400, "can be laid")
    refused(tokens[mover], {"action": "play", "card": str(game.hand(other)[0])}, 400, "not in")
    # play on until a card would pass 31 or a Go is due
    rng = random.Random(2)
    while game.phase == "play":
        seat = game.to_act
        too_big = [c for c in game.hand(seat) if game.count + c.points > 31]
        if too_big:
            refused(tokens[seat], {"action": "play", "card": str(too_big[0])}, 400, "past 31")
            break
        action = rng.choice(game.legal_for(seat))
        assert client.post(f"/api/games/{gid}/actions", json=body_of(action),
                           headers=auth(tokens[seat])).status_code == 200
        game.apply(action, seat)
    else:
        pytest.fail("no card ever passed 31")


def test_a_computer_game_runs_to_121_and_its_record_replays(client: TestClient) -> None:
    r = client.post("/api/games", json={"game": "classic", "seed": 8, "seats": [
        {"kind": "computer", "level": "expert"}, {"kind": "computer", "level": "easy"},
        {"kind": "computer", "level": "baseline"}], "rules": {"muggins": True}})
    assert r.status_code == 201, r.text
    gid = r.json()["game_id"]
    assert client.get(f"/api/games/{gid}/record").status_code == 409
    for _ in range(1200):  # (polled within the per-connection rate limit)
        state = client.get(f"/api/games/{gid}").json()
        if state["over"]:
            break
        import time

        time.sleep(0.05)
    assert state["over"] and max(state["scores"]) == 121
    assert state["end"]["winner"] == state["scores"].index(121)
    r = client.get(f"/api/games/{gid}/record")
    assert r.status_code == 200 and "cribbage-" in r.headers["content-disposition"]
    assert r.json()["game"] == "classic"  # the record format keeps the older name
    game = replay(r.json())  # the engine's own checker replays every deal
    assert game.scores == state["scores"]
    assert [p.get("level") for p in r.json()["players"]] == ["expert", "easy", "baseline"]
    front = [s["front"] for s in state["sides"]]
    assert front == state["scores"]


def test_a_classic_game_resumes_exactly_after_a_restart(web_db: Path) -> None:
    with in_process_client(f"sqlite:///{web_db}") as client:
        gid, tokens = people(client, 4, seed=5)
        game = ClassicGame(RuleSet(players=4), 5, explicit_go=True)
        rng = random.Random(5)
        for _ in range(14):
            seat = rng.choice(game.waiting_for())
            action = rng.choice(game.legal_for(seat))
            assert client.post(f"/api/games/{gid}/actions", json=body_of(action),
                               headers=auth(tokens[seat])).status_code == 200
            game.apply(action, seat)
        before = [client.get(f"/api/games/{gid}", headers=auth(t)).json() for t in tokens]
    with in_process_client(f"sqlite:///{web_db}") as client:
        after = [client.get(f"/api/games/{gid}", headers=auth(t)).json() for t in tokens]
        assert after == before
        assert [s["seats"] for s in after[0]["sides"]] == [[0, 2], [1, 3]]
        seat = game.waiting_for()[0]
        action = game.legal_for(seat)[0]
        r = client.post(f"/api/games/{gid}/actions", json=body_of(action),
                        headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text


def test_a_database_from_before_classic_games_still_opens_its_kings_games(web_db: Path) -> None:
    with in_process_client(f"sqlite:///{web_db}") as client:
        r = client.post("/api/games", json={"seats": [{}, {"kind": "computer",
                                                           "level": "greedy"}], "seed": 4})
        gid, token = r.json()["game_id"], r.json()["token"]
        before = client.get(f"/api/games/{gid}", headers=auth(token)).json()
    with sqlite3.connect(web_db) as conn:
        conn.execute("ALTER TABLE games DROP COLUMN game")
        # a database from before migrations: none of the later revisions' tables or
        # columns either
        conn.execute("DROP TABLE alembic_version")
        baseline = {name: {c.name for c in parts if hasattr(c, "type")} for name, parts, _
                    in import_module("kingscrib.web.db.migrations.versions.0001_baseline")._tables()}
        for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"
                                     " AND name NOT LIKE 'sqlite_%'").fetchall():
            if table not in baseline:
                conn.execute(f"DROP TABLE {table}")
                continue
            for column in conn.execute(f"PRAGMA table_info({table})").fetchall():
                if column[1] not in baseline[table]:
                    conn.execute(f"ALTER TABLE {table} DROP COLUMN {column[1]}")
    with in_process_client(f"sqlite:///{web_db}") as client:
        after = client.get(f"/api/games/{gid}", headers=auth(token)).json()
        assert after["board"] == before["board"] and after["rack"] == before["rack"]
        assert after["history"] == before["history"]


def test_websocket_play_and_go_with_a_spectator(client: TestClient) -> None:
    gid, tokens = people(client, 2, seed=9)
    with client.websocket_connect(f"/api/games/{gid}/ws") as a, \
            client.websocket_connect(f"/api/games/{gid}/ws") as watcher:
        a.send_json({"type": "hello", "token": tokens[0]})
        assert a.receive_json() == {"type": "welcome", "seat": 0}
        watcher.send_json({"type": "hello"})
        state = receive_version(watcher, 0)
        hand = state_hand = receive_version(a, 0)["hand"]
        assert "hand" not in state and len(state_hand) == 6
        a.send_json({"type": "action", "ref": 1, "action": "discard", "cards": hand[:2]})
        while (m := a.receive_json())["type"] != "ok":
            assert m["type"] == "state"
        seen = receive_version(watcher, state["version"] + 1)
        assert seen["discarded"][0] and seen["crib_size"] == 2 and "hand" not in seen
        a.send_json({"type": "action", "ref": 2, "action": "discard", "cards": hand[2:4]})
        while (m := a.receive_json())["type"] != "error":
            pass
        assert m["ref"] == 2 and "already laid away" in m["error"]
        watcher.send_json({"type": "action", "ref": 3, "action": "go"})
        while (m := watcher.receive_json())["type"] != "error":
            pass
        assert m["status"] == 403
