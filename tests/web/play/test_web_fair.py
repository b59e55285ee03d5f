"""Fair play on the server: secret deals disclosed only at the end, hints only where fair."""

from __future__ import annotations

import re
import sqlite3
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from web_support import auth, in_process_client

from kingscrib.classic.record import replay as replay_classic
from kingscrib.common.shuffle import is_secret
from kingscrib.kings.fastgen import legal_plays
from kingscrib.kings.game import Game
from kingscrib.kings.moves import Play
from kingscrib.kings.record import game_from_record
from kingscrib.kings.rules import RuleSet

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def web_db(tmp_path: Path) -> Path:
    return tmp_path / "web.sqlite3"


@pytest.fixture
def client(web_db: Path):
    with in_process_client(f"sqlite:///{web_db}") as c:
        yield c


def stored_secret(db: Path, game_id: str) -> str:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT secret FROM games WHERE id = ?", (game_id,)).fetchone()[0]


def wait_over(client: TestClient, gid: str, limit: float = 120) -> dict:
    deadline = time.monotonic() + limit
    while True:
        state = client.get(f"/api/games/{gid}").json()
        if state["over"]:
            return state
        assert time.monotonic() < deadline, "the game did not finish"
        time.sleep(0.1)


@pytest.mark.parametrize("game", ["kings", "classic"])
def test_every_game_deals_from_a_secret_shown_only_at_the_end(client: TestClient, web_db: Path,
                                                              game: str) -> None:
    level = "greedy" if game == "kings" else "easy"
    r = client.post("/api/games", json={"game": game, "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "computer", "level": level}]})
    assert r.status_code == 201, r.text
    created = r.json()
    gid, token = created["game_id"], created["token"]
    secret = stored_secret(web_db, gid)
    assert is_secret(secret) and len(secret) == 64  # 256 bits
    other = client.post("/api/games", json={"game": game, "seats": [
        {"kind": "human"}, {"kind": "computer", "level": level}]}).json()
    assert stored_secret(web_db, other["game_id"]) != secret
    # Nothing a seat, a spectator or the websocket is sent holds the secret before the end.
    seen = [r.text, client.get(f"/api/games/{gid}", headers=auth(token)).text,
            client.get(f"/api/games/{gid}").text]
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.send_json({"type": "hello", "token": token})
        seen += [ws.receive_text(), ws.receive_text()]
    assert all(secret not in text for text in seen)
    assert client.get(f"/api/games/{gid}/record").status_code == 409


def test_a_finished_game_discloses_its_secret_and_its_record_replays(client: TestClient,
                                                                     web_db: Path) -> None:
    r = client.post("/api/games", json={"seats": [
        {"kind": "computer", "level": "greedy"}, {"kind": "computer", "level": "greedy"}]})
    gid = r.json()["game_id"]
    secret = stored_secret(web_db, gid)
    state = wait_over(client, gid)
    assert state["end"]["seed"] == secret
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["seed"] == secret
    assert game_from_record(record).final_scores == state["end"]["scores"]


def test_a_finished_classic_game_discloses_its_secret(client: TestClient, web_db: Path) -> None:
    r = client.post("/api/games", json={"game": "classic", "seats": [
        {"kind": "computer", "level": "easy"}, {"kind": "computer", "level": "easy"}]})
    gid = r.json()["game_id"]
    secret = stored_secret(web_db, gid)
    state = wait_over(client, gid)
    assert state["end"]["seed"] == secret
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["seed"] == secret
    assert replay_classic(record).scores == state["scores"]


def two_people(client: TestClient, **extra) -> tuple[str, list[str], Game]:
    """A Kings game of two people (seed 11); the tokens by seat and the same game in the
    engine, to know whose turn it is and what the racks hold."""
    body = {"seats": [{"kind": "human"}, {"kind": "human"}], "seed": 11}
    body.update(extra)
    created = client.post("/api/games", json=body).json()
    joined = client.post(f"/api/games/{created['game_id']}/join",
                         json={"invite": created["invite"]}).json()
    engine = Game.new(["Player 1", "Player 2"], RuleSet.from_json(body.get("rules")), 11)
    return created["game_id"], [created["token"], joined["token"]], engine


def some_play(engine: Game, seat: int) -> dict[str, str]:
    plays = legal_plays(engine.board, engine.racks[seat], engine.rules)
    return plays[0].play.tiles_json()


def test_hints_are_off_between_people_unless_allowed_and_only_for_the_seat_to_move(
        client: TestClient) -> None:
    gid, tokens, engine = two_people(client)
    mover, waiting = tokens[engine.turn], tokens[1 - engine.turn]
    state = client.get(f"/api/games/{gid}", headers=auth(mover)).json()
    assert state["hints_allowed"] is False and state["hints"] is False
    r = client.post(f"/api/games/{gid}/hint", headers=auth(mover))
    assert r.status_code == 403 and "hints are off" in r.json()["error"]
    # allowed at creation: everyone (a spectator too) sees it, and only the mover gets one
    gid, tokens, engine = two_people(client, hints=True)
    mover, waiting = tokens[engine.turn], tokens[1 - engine.turn]
    assert client.get(f"/api/games/{gid}").json()["hints_allowed"] is True
    r = client.post(f"/api/games/{gid}/hint", headers=auth(waiting))
    assert r.status_code == 409 and "seat to move" in r.json()["error"]
    best = legal_plays(engine.board, engine.racks[engine.turn], engine.rules)[0]
    r = client.post(f"/api/games/{gid}/hint", headers=auth(mover))
    assert r.status_code == 200 and r.json()["score"] == best.total
    # the same through the websocket
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.send_json({"type": "hello", "token": waiting})
        ws.receive_json(), ws.receive_json()
        ws.send_json({"type": "hint", "ref": 5})
        reply = ws.receive_json()
        while reply["type"] == "update":
            reply = ws.receive_json()
        assert reply["type"] == "error" and reply["status"] == 409 and reply["ref"] == 5


def test_someone_alone_against_computers_gets_hints_on_their_turn(client: TestClient) -> None:
    created = client.post("/api/games", json={"seed": 11, "seats": [
        {"kind": "human"}, {"kind": "computer", "level": "greedy"}]}).json()
    assert created["state"]["hints"] is True and created["state"]["hints_allowed"] is False
    engine = Game.new(["Player 1", "Computer (greedy)"], seed=11)
    gid, token = created["game_id"], created["token"]
    r = client.post(f"/api/games/{gid}/hint", headers=auth(token))
    if engine.turn == 0:
        assert r.status_code == 200 and "play" in r.json()
    else:
        assert r.status_code == 409


def test_under_the_joker_rule_a_preview_keeps_the_count_hidden(
        client: TestClient) -> None:
    gid, tokens, engine = two_people(client, rules={"joker": True})
    tiles = some_play(engine, engine.turn)
    p = client.post(f"/api/games/{gid}/preview", json={"tiles": tiles},
                    headers=auth(tokens[engine.turn])).json()
    assert p["legal"] is True and "score" not in p and "fifteens" not in p
    first = dict([next(iter(tiles.items()))])
    bad = client.post(f"/api/games/{gid}/preview", json={"tiles": {"D4": first.popitem()[1]}},
                      headers=auth(tokens[engine.turn])).json()
    assert bad["legal"] is False  # legality is still checked
    # hints allowed or not: the claim is the player's own count (docs/rules.md)
    gid, tokens, engine = two_people(client, rules={"joker": True}, hints=True)
    p = client.post(f"/api/games/{gid}/preview", json={"tiles": some_play(engine, engine.turn)},
                    headers=auth(tokens[engine.turn])).json()
    assert p["legal"] is True and "score" not in p and "fifteens" not in p
    # without the Joker rule the preview counts the play
    gid, tokens, engine = two_people(client)
    p = client.post(f"/api/games/{gid}/preview", json={"tiles": some_play(engine, engine.turn)},
                    headers=auth(tokens[engine.turn])).json()
    assert p["score"] == engine.check(Play.from_json(p["tiles"])).total


def test_the_hints_choice_survives_a_restart(web_db: Path) -> None:
    with in_process_client(f"sqlite:///{web_db}") as client:
        gid, tokens, engine = two_people(client, hints=True)
    with in_process_client(f"sqlite:///{web_db}") as client:
        state = client.get(f"/api/games/{gid}").json()
        assert state["hints_allowed"] is True
        r = client.post(f"/api/games/{gid}/hint", headers=auth(tokens[engine.turn]))
        assert r.status_code == 200


def joker_claim_assignments(script: str) -> list[str]:
    """What the script assigns to the claim box, each right-hand side as written."""
    return [m.group(1).strip() for m in
            re.finditer(r'\$\("claim"\)\.value\s*[-+]?=(?!=)([^;\n]*)', script)]


def test_the_claim_box_assignments_are_read_from_the_script() -> None:
    script = '$("claim").value = "";\nif ($("claim").value === "") x = 1;\n$("claim").value = best + 1;\n$("claim").value += "2";'
    assert joker_claim_assignments(script) == ['""', "best + 1", '"2"']


def test_the_page_never_fills_in_the_joker_claim() -> None:
    """The page clears the claim box once a play is made (its claim was that play's), but
    never writes a number into it: under the Joker rule the count is the player's own."""
    from kingscrib.web.paths import STATIC

    script = (STATIC / "js" / "kings" / "game.js").read_text()
    assigned = joker_claim_assignments(script)
    assert assigned, "the claim box is cleared after a play"
    assert set(assigned) == {'""'}
