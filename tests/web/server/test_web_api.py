"""The web server's HTTP API and websocket, in process (FastAPI's TestClient)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from web_support import auth, in_process_client

from kingscrib.kings.board import parse_square
from kingscrib.kings.game import Game
from kingscrib.kings.movegen import legal_plays
from kingscrib.kings.record import check_record
from kingscrib.kings.rules import RuleSet
from kingscrib.kings.tiles import Tile
from kingscrib.players.kings import PLAYERS
from kingscrib.web import Settings, create_app
from kingscrib.web.ratings.store import LEVEL_RATINGS

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SEED = 11


def make_client(db: Path, **kwargs) -> TestClient:
    return in_process_client(f"sqlite:///{db}", **kwargs)


@pytest.fixture
def web_db(tmp_path: Path) -> Path:
    return tmp_path / "web.sqlite3"


@pytest.fixture
def client(web_db: Path):
    with make_client(web_db) as c:
        yield c


def two_people(client: TestClient, **extra) -> tuple[str, str, str]:
    """A game of two human seats; returns the id, seat 0's token and seat 1's token."""
    body = {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human"}], "seed": SEED}
    body.update(extra)
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    created = r.json()
    joined = client.post(f"/api/games/{created['game_id']}/join",
                         json={"invite": created["invite"], "name": "Bob"})
    assert joined.status_code == 200, joined.text
    assert joined.json()["seat"] == 1
    return created["game_id"], created["token"], joined.json()["token"]


def mirror(rules: dict | None = None) -> Game:
    """The same game in the engine, to know what the server should do."""
    return Game.new(["Ann", "Bob"], RuleSet.from_json(rules), SEED)


def best_tiles(game: Game) -> dict[str, str]:
    return legal_plays(game.board, game.racks[game.turn], game.rules)[0].play.tiles_json()


def tokens_by_seat(game: Game, t0: str, t1: str) -> str:
    return t0 if game.turn == 0 else t1


def test_levels_come_from_the_player_registry(client: TestClient) -> None:
    data = client.get("/api/levels").json()
    # Each player once, weakest first by its calibrated rating; greedy and equity are the
    # players Casual (medium) and Strong (hard) are, under their technical names.
    assert sorted(data["levels"]) == sorted(set(PLAYERS) - {"greedy", "equity"})
    ratings = json.loads(LEVEL_RATINGS.read_text())
    for game in ("kings", "cribbage"):
        levels = data["games"][game]["levels"]
        assert len(levels) == len(set(levels))
        shown = [ratings[game][level]["rating"] for level in levels]
        assert shown == sorted(shown), (game, levels)
        assert data["games"][game]["default_level"] in levels
    assert data["levels"] == data["games"]["kings"]["levels"]
    assert data["games"]["kings"]["levels"][:3] == ["random", "easy", "medium"]
    assert data["rules"] == RuleSet().to_json()


@pytest.mark.parametrize(("game", "asked", "stored"), [
    ("kings", "beginner", "easy"), ("kings", "Casual", "medium"), ("kings", "STRONG", "hard"),
    ("kings", "expert", "expert"), ("kings", "Planner", "equity"), ("kings", "greedy", "greedy"),
    ("kings", "sim", "sim"), ("cribbage", "Beginner", "easy"), ("cribbage", "strong", "hard"),
    ("classic", "Expert (previous)", "expert-v1"), ("cribbage", "baseline", "baseline")])
def test_a_computer_seat_takes_the_level_the_pages_show(client: TestClient, game: str,
                                                         asked: str, stored: str) -> None:
    r = client.post("/api/games", json={"game": game, "seats": [
        {"name": "Ann"}, {"kind": "computer", "level": asked}]})
    assert r.status_code == 201, r.text
    seats = client.get(f"/api/games/{r.json()['game_id']}").json()["seats"]
    assert seats[1]["level"] == stored


def test_an_unknown_level_is_refused_with_the_levels_as_shown(client: TestClient) -> None:
    r = client.post("/api/games", json={"seats": [{"name": "Ann"},
                                                  {"kind": "computer", "level": "grandmaster"}]})
    said = r.json()["error"]
    assert r.status_code == 400 and "unknown computer level 'grandmaster'" in said
    assert "choose from Random, Beginner (easy), Casual (medium), Strong (hard)" in said
    assert "Greedy" not in said and "Planner" not in said


def test_the_page_and_its_modules_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "Kings Cribbage" in page.text
    for path in ("/static/js/pages/lobby.js", "/static/js/common/api.js", "/static/js/kings/board.js",
                 "/static/js/kings/game.js", "/static/js/kings/laying.js",
                 "/static/style.css"):
        assert client.get(path).status_code == 200, path


def test_the_page_its_scripts_and_styles_travel_compressed(client: TestClient) -> None:
    """Asked with gzip, the page, a module and the stylesheet come gzipped (what a slow
    line waits for before the first paint), and unpack to the files as they are."""
    for path in ("/?game=x", "/static/js/cribbage/table.js", "/static/style.css"):
        reply = client.get(path, headers={"Accept-Encoding": "gzip"})
        assert reply.headers.get("content-encoding") == "gzip", path
        assert int(reply.headers["content-length"]) < len(reply.content) / 2, path
    plain = client.get("/static/style.css", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    assert plain.content == client.get("/static/style.css").content


def test_a_seat_sees_its_own_rack_and_nobody_elses(client: TestClient) -> None:
    game_id, t0, t1 = two_people(client)
    engine = mirror()
    s0 = client.get(f"/api/games/{game_id}", headers=auth(t0)).json()
    s1 = client.get(f"/api/games/{game_id}", headers=auth(t1)).json()
    watcher = client.get(f"/api/games/{game_id}").json()
    assert s0["you"] == 0 and s0["rack"] == [str(t) for t in engine.racks[0]]
    assert s1["you"] == 1 and s1["rack"] == [str(t) for t in engine.racks[1]]
    assert watcher["you"] is None and "rack" not in watcher
    assert s0["turn"] == engine.turn and s0["bag"] == engine.tiles_in_bags
    # Nothing about the bag's order or the other rack is anywhere in the reply.
    text = json.dumps(s0)
    assert "bags" not in text and "seed" not in text
    assert str(engine.racks[1]) not in text


def test_plays_are_checked_and_refusals_change_nothing(client: TestClient) -> None:
    game_id, t0, t1 = two_people(client)
    engine = mirror()
    mover, waiter = (t0, t1) if engine.turn == 0 else (t1, t0)
    before = client.get(f"/api/games/{game_id}").json()
    tile = str(engine.racks[engine.turn][0])
    bad = [
        ({"action": "play", "tiles": {"G7": tile}}, 400, "first play"),
        ({"action": "play", "tiles": {"A1": tile}}, 400, "corner patch"),
        ({"action": "play", "tiles": {"G7": "ZZ"}}, 400, "not a tile"),
        ({"action": "play", "tiles": {}}, 400, "1 to 5"),
        ({"action": "exchange", "tiles": []}, 400, "1 to 5"),
        ({"action": "dance"}, 422, "action"),
        ({"action": "pass", "extra": 1}, 422, "extra"),
    ]
    for body, status, words in bad:
        r = client.post(f"/api/games/{game_id}/actions", json=body, headers=auth(mover))
        assert r.status_code == status, (body, r.text)
        assert words in r.json()["error"], (body, r.json())
    r = client.post(f"/api/games/{game_id}/actions", json={"action": "pass"}, headers=auth(waiter))
    assert r.status_code == 409 and "turn" in r.json()["error"]
    r = client.post(f"/api/games/{game_id}/actions", json={"action": "pass"})
    assert r.status_code == 403
    r = client.post(f"/api/games/{game_id}/actions", json={"action": "pass"},
                    headers=auth("not-a-token"))
    assert r.status_code == 401
    after = client.get(f"/api/games/{game_id}").json()
    assert after == before


def test_malformed_and_oversized_requests_get_clear_errors(client: TestClient) -> None:
    r = client.post("/api/games", content="{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["error"]
    r = client.post("/api/games", json={"seats": [{"kind": "human"}]})
    assert r.status_code == 422 and "seats" in r.json()["error"]
    r = client.post("/api/games", json={"seats": [{"kind": "computer", "level": "god"},
                                                  {"kind": "human"}]})
    assert r.status_code == 400 and "unknown computer level" in r.json()["error"]
    r = client.post("/api/games", json={"seats": [{}, {}, {}], "rules": {"solitaire": True}})
    assert r.status_code == 400 and "two seats" in r.json()["error"]
    r = client.post("/api/games", content=b"x" * 20000,
                    headers={"content-type": "application/json"})
    assert r.status_code == 413 and "over" in r.json()["error"]
    assert client.get("/api/games/nope").status_code == 404
    assert client.get("/api/games/" + "x" * 300).status_code == 404


def test_the_seed_is_chosen_only_when_the_server_allows_it(web_db: Path) -> None:
    with make_client(web_db) as c:
        assert c.post("/api/games", json={"seats": [{}, {}], "seed": 3}).status_code == 201
    with TestClient(create_app(Settings(database_url=f"sqlite:///{web_db}"))) as c:
        r = c.post("/api/games", json={"seats": [{}, {}], "seed": 3})
        assert r.status_code == 400 and "seed" in r.json()["error"]


def test_invites_open_free_seats_only(client: TestClient) -> None:
    created = client.post("/api/games", json={"seats": [{}, {}, {"kind": "computer",
                                                                 "level": "greedy"}]}).json()
    gid, invite = created["game_id"], created["invite"]
    r = client.post(f"/api/games/{gid}/join", json={"invite": "wrong"})
    assert r.status_code == 403
    r = client.post(f"/api/games/{gid}/join", json={"invite": invite, "seat": 0})
    assert r.status_code == 409 and "taken" in r.json()["error"]
    r = client.post(f"/api/games/{gid}/join", json={"invite": invite, "seat": 2})
    assert r.status_code == 409
    r = client.post(f"/api/games/{gid}/join", json={"invite": invite, "name": "<Bob>"})
    assert r.status_code == 200 and r.json()["seat"] == 1
    state = client.get(f"/api/games/{gid}", headers=auth(r.json()["token"])).json()
    assert state["you"] == 1 and state["seats"][1]["name"] == "Bob"
    r = client.post(f"/api/games/{gid}/join", json={"invite": invite})
    assert r.status_code == 409 and "every seat" in r.json()["error"]


def test_preview_hint_play_exchange_and_hidden_exchanges(client: TestClient) -> None:
    game_id, t0, t1 = two_people(client, hints=True)
    engine = mirror()
    token = tokens_by_seat(engine, t0, t1)
    hint = client.post(f"/api/games/{game_id}/hint", headers=auth(token)).json()
    best = legal_plays(engine.board, engine.racks[engine.turn], engine.rules)[0]
    assert hint["play"] and hint["score"] == best.total
    preview = client.post(f"/api/games/{game_id}/preview", json={"tiles": hint["tiles"]},
                          headers=auth(token)).json()
    assert preview["legal"] and preview["score"] == hint["score"] and preview["hands"]
    r = client.post(f"/api/games/{game_id}/actions",
                    json={"action": "play", "tiles": hint["tiles"]}, headers=auth(token))
    assert r.status_code == 200, r.text
    turn = engine.play(best.play)
    last = r.json()["history"][-1]
    assert last["score"] == turn.score and last["describe"] == turn.detail.describe()
    assert set(r.json()["last_play"]) == set(hint["tiles"])
    # The next seat exchanges two tiles: the others see only how many.
    token = tokens_by_seat(engine, t0, t1)
    tiles = [str(t) for t in engine.racks[engine.turn][:2]]
    r = client.post(f"/api/games/{game_id}/actions", json={"action": "exchange", "tiles": tiles},
                    headers=auth(token))
    assert r.status_code == 200, r.text
    watcher = client.get(f"/api/games/{game_id}").json()
    assert watcher["history"][-1] == {"n": 2, "seat": engine.turn, "action": "exchange",
                                      "count": 2}
    r = client.get(f"/api/games/{game_id}/record")
    assert r.status_code == 409


def test_the_joker_rule_computer_calls_missed_points(client: TestClient) -> None:
    body = {"seats": [{"kind": "human"}, {"kind": "computer", "level": "greedy"}],
            "rules": {"joker": True}, "seed": 5}
    created = client.post("/api/games", json=body).json()
    gid, token = created["game_id"], created["token"]
    deadline = time.monotonic() + 30
    while client.get(f"/api/games/{gid}").json()["turn"] != 0:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    state = client.get(f"/api/games/{gid}", headers=auth(token)).json()
    board = {parse_square(k): Tile.parse(v) for k, v in state["board"].items()}
    rack = [Tile.parse(t) for t in state["rack"]]
    best = legal_plays(board, rack, RuleSet(joker=True))[0]
    r = client.post(f"/api/games/{gid}/actions", headers=auth(token), json={
        "action": "play", "tiles": best.play.tiles_json(), "claim": best.total - 1})
    assert r.status_code == 200, r.text
    mine = [t for t in r.json()["history"] if t["seat"] == 0][-1]
    assert mine["claimed"] == best.total - 1
    assert mine["joker"] == {"caller": 1, "points": 1}


def test_a_computer_game_ends_and_its_record_checks(client: TestClient) -> None:
    body = {"seats": [{"kind": "computer", "level": "greedy"},
                      {"kind": "computer", "level": "greedy"}], "seed": 2}
    created = client.post("/api/games", json=body).json()
    assert created["token"] is None and created["seat"] is None
    gid = created["game_id"]
    deadline = time.monotonic() + 120
    while not client.get(f"/api/games/{gid}").json()["over"]:
        assert time.monotonic() < deadline, "the computer game did not finish"
        time.sleep(0.2)
    state = client.get(f"/api/games/{gid}").json()
    record = client.get(f"/api/games/{gid}/record").json()
    game = check_record(record)
    assert game.final_scores == state["end"]["scores"]
    assert record["players"][0]["level"] == "greedy"


def test_computer_seats_claim_their_own_plays_under_the_joker_rule(
        client: TestClient) -> None:
    """Each computer play carries the claim its player made (the full value): the game
    ends, its record checks, and no Joker was ever called on a computer."""
    body = {"seats": [{"kind": "computer", "level": "greedy"},
                      {"kind": "computer", "level": "greedy"}],
            "rules": {"joker": True}, "seed": 9}
    gid = client.post("/api/games", json=body).json()["game_id"]
    deadline = time.monotonic() + 120
    while not client.get(f"/api/games/{gid}").json()["over"]:
        assert time.monotonic() < deadline, "the computer game did not finish"
        time.sleep(0.2)
    game = check_record(client.get(f"/api/games/{gid}/record").json())
    plays = [t for t in game.history if t.action == "play"]
    assert plays and all(t.claimed == t.score and t.joker is None for t in plays)


def test_a_stored_game_resumes_exactly_after_a_restart(web_db: Path) -> None:
    with make_client(web_db) as c:
        gid, t0, t1 = two_people(c)
        engine = mirror()
        for _ in range(3):
            tiles = best_tiles(engine)
            r = c.post(f"/api/games/{gid}/actions", json={"action": "play", "tiles": tiles},
                       headers=auth(tokens_by_seat(engine, t0, t1)))
            assert r.status_code == 200, r.text
            engine.play(legal_plays(engine.board, engine.racks[engine.turn],
                                    engine.rules)[0].play)
        before = [c.get(f"/api/games/{gid}", headers=auth(t)).json() for t in (t0, t1)]
    with make_client(web_db) as c:
        after = [c.get(f"/api/games/{gid}", headers=auth(t)).json() for t in (t0, t1)]
        for b, a in zip(before, after):
            b["seats"] = [dict(s, online=False) for s in b["seats"]]
            a["seats"] = [dict(s, online=False) for s in a["seats"]]
            assert a == b
        tiles = best_tiles(engine)
        r = c.post(f"/api/games/{gid}/actions", json={"action": "play", "tiles": tiles},
                   headers=auth(tokens_by_seat(engine, t0, t1)))
        assert r.status_code == 200, r.text
        assert len(r.json()["history"]) == 4


# ----- websocket ---------------------------------------------------------------------

def receive_until(ws, kind: str, limit: int = 20) -> dict:
    for _ in range(limit):
        message = ws.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")


def watcher_turn(update: dict) -> dict:
    return update["history"][-1]


def merge(state: dict, update: dict) -> dict:
    """Apply an update as the page does (static/js/common/api.js)."""
    fields = dict(update)
    base, start = fields.pop("base"), fields.pop("history_from")
    turns, board = fields.pop("history"), fields.pop("board")
    assert base <= state["version"] and start <= len(state["history"])
    return {**state, **fields, "history": state["history"][:start] + turns,
            "board": {**state["board"], **board}}


def test_websocket_updates_carry_only_changes_and_rebuild_the_state(client: TestClient) -> None:
    """Under the joker rule (hidden values, Joker calls): each listener's state, rebuilt from
    its first full state and the updates, is what a fresh request shows that seat."""
    gid, t0, t1 = two_people(client, rules={"joker": True})
    engine = mirror({"joker": True})
    tokens = {0: t0, 1: t1}
    with client.websocket_connect(f"/api/games/{gid}/ws") as s0, \
            client.websocket_connect(f"/api/games/{gid}/ws") as s1, \
            client.websocket_connect(f"/api/games/{gid}/ws") as watcher:
        sockets = {0: s0, 1: s1, None: watcher}
        states = {}
        for seat, ws in sockets.items():
            ws.send_json({"type": "hello", "token": tokens.get(seat)})
            assert receive_until(ws, "welcome")["seat"] == seat
            states[seat] = receive_until(ws, "state")["state"]
        for i, (seat, ws) in enumerate(sockets.items()):  # who is online: its own + later
            for _ in range(3 - i):
                states[seat] = merge(states[seat], receive_until(ws, "update")["update"])

        def drain(expect_ok: int | None) -> None:
            for seat, ws in sockets.items():
                update = receive_until(ws, "update")["update"]
                assert len(update["history"]) <= 2  # never the whole history
                states[seat] = merge(states[seat], update)
                if seat == expect_ok:
                    assert receive_until(ws, "ok")["version"] == states[seat]["version"]
            for seat in sockets:
                full = client.get(f"/api/games/{gid}",
                                  headers=auth(tokens[seat]) if seat is not None else {}).json()
                assert states[seat] == full, seat

        for n in range(8):
            mover = engine.turn
            best = legal_plays(engine.board, engine.racks[mover], engine.rules)[0]
            claim = max(0, best.total - 2) if n % 2 else best.total
            sockets[mover].send_json({"type": "action", "ref": n, "action": "play",
                                      "tiles": best.play.tiles_json(), "claim": claim})
            engine.play(best.play, claim)
            drain(mover)
            if n % 2:
                other = 1 - mover
                sockets[other].send_json({"type": "action", "ref": 100 + n, "action": "joker"})
                engine.call_joker(other)
                drain(other)
        assert len(states[None]["history"]) == 8 and states[None]["history"][-1]["joker"]


def test_websocket_actions_reach_every_listener(client: TestClient) -> None:
    gid, t0, t1 = two_people(client)
    engine = mirror()
    mover = tokens_by_seat(engine, t0, t1)
    with client.websocket_connect(f"/api/games/{gid}/ws") as a, \
            client.websocket_connect(f"/api/games/{gid}/ws") as watcher:
        a.send_json({"type": "hello", "token": mover})
        assert receive_until(a, "welcome")["seat"] == engine.turn
        watcher.send_json({"type": "hello"})
        assert receive_until(watcher, "welcome")["seat"] is None
        tiles = best_tiles(engine)
        a.send_json({"type": "preview", "ref": 1, "tiles": tiles})
        preview = receive_until(a, "preview")
        assert preview["ref"] == 1 and preview["preview"]["legal"]
        a.send_json({"type": "action", "ref": 2, "action": "play", "tiles": tiles})
        ok = receive_until(a, "ok")
        assert ok["ref"] == 2
        seen = receive_until(watcher, "update")["update"]
        while len(seen["history"]) < 1:
            seen = receive_until(watcher, "update")["update"]
        assert "rack" not in seen and seen["history"] == [watcher_turn(seen)]
        assert seen["history"][0]["tiles"] == tiles and seen["board"] == tiles
        a.send_json({"type": "action", "ref": 3, "action": "pass"})
        error = receive_until(a, "error")
        assert error["ref"] == 3 and error["status"] == 409
        watcher.send_json({"type": "action", "ref": 4, "action": "pass"})
        assert receive_until(watcher, "error")["status"] == 403


def test_websocket_refuses_bad_messages_and_floods(web_db: Path) -> None:
    with make_client(web_db, rate_per_second=5, rate_burst=10) as c:
        gid, t0, _ = two_people(c)
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.send_json({"type": "ping", "ref": 0})
            assert receive_until(ws, "error")["status"] == 400  # hello first
            ws.send_json({"type": "hello", "token": "wrong"})
            assert receive_until(ws, "error")["status"] == 401
            ws.send_json({"type": "hello", "token": t0})
            receive_until(ws, "welcome")
            ws.send_text("[1, 2")
            assert "JSON object" in receive_until(ws, "error")["error"]
            for i in range(15):
                ws.send_json({"type": "ping", "ref": i})
            statuses = []
            for _ in range(60):
                m = ws.receive_json()
                if m["type"] in ("pong", "error"):
                    statuses.append(m.get("status", 200))
                if len(statuses) == 15:
                    break
            assert 429 in statuses and 200 in statuses


# ----- storage ------------------------------------------------------------------------

def test_a_batch_of_turns_is_stored_together_and_a_bad_write_sinks_only_itself(
        web_db: Path) -> None:
    from kingscrib.web.db.storage import Store, StoredSeat, TurnWrite

    store = Store(f"sqlite:///{web_db}")
    try:
        for gid in ("a", "b"):
            store.create_game(gid, RuleSet().to_json(), 1, "x",
                              [StoredSeat(0, "A", "human", None, None),
                               StoredSeat(1, "B", "human", None, None)])
        results = store.write_batch([
            TurnWrite("a", 0, {"player": 0, "action": "pass"}),
            TurnWrite("b", 0, {"player": 0, "action": "pass"}),
            TurnWrite("a", 0, {"player": 0, "action": "pass"}),  # turn 0 again: refused
            TurnWrite("b", 1, {"player": 1, "action": "pass"}, over=True),
            TurnWrite("a", 0, {"player": 0, "action": "pass", "joker": {}}, new=False),
        ])
        assert [r is None for r in results] == [True, True, False, True, True]
        assert store.load("a").turns == [{"player": 0, "action": "pass", "joker": {}}]
        assert len(store.load("b").turns) == 2 and store.load("b").over
        assert store.unfinished() == ["a"]
    finally:
        store.close()


def test_a_move_the_database_refuses_changes_nothing(client: TestClient, monkeypatch) -> None:
    gid, t0, t1 = two_people(client)
    engine = mirror()
    hub = client.app.state.hub

    def refuse(writes):
        raise OSError("disk full")

    monkeypatch.setattr(hub.store, "write_batch", refuse)
    mover = tokens_by_seat(engine, t0, t1)
    before = client.get(f"/api/games/{gid}", headers=auth(mover)).json()
    r = client.post(f"/api/games/{gid}/actions",
                    json={"action": "play", "tiles": best_tiles(engine)}, headers=auth(mover))
    assert r.status_code == 503 and "nothing changed" in r.json()["error"]
    assert client.get(f"/api/games/{gid}", headers=auth(mover)).json() == before
    assert hub.rooms[gid].game.game._undo == []
    monkeypatch.undo()
    r = client.post(f"/api/games/{gid}/actions",
                    json={"action": "play", "tiles": best_tiles(engine)}, headers=auth(mover))
    assert r.status_code == 200 and len(r.json()["history"]) == 1
    assert hub.rooms[gid].game.game._undo == []  # a server game keeps no undo snapshots
