"""Fair play on the server: secret deals disclosed only at the end, hints only where fair."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from web_support import auth, in_process_client

from kingscrib.classic.record import replay as replay_classic
from kingscrib.kings.record import game_from_record
from kingscrib.shuffle import is_secret

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
