"""The budgets of the server's CPU work over the API: analyses only for a game's players
(or the creator of a game of computers only), games of computers only limited per
address, analyses and replays waiting limited per address."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from sqlalchemy import update
from web_support import auth, fresh_database, in_process_client

from kingscrib.web.db.storage import Store, StoredSeat, TooManyComputerGames
from kingscrib.web.db.tables import games

PEOPLE = {"seats": [{"kind": "human"}, {"kind": "human"}]}
BOTS = {"seats": [{"kind": "computer", "level": "expert"}] * 2}


def test_only_a_player_or_the_creator_of_a_computers_game_may_start_an_analysis(
        tmp_path: Path) -> None:
    with in_process_client(f"sqlite:///{tmp_path / 'web.sqlite3'}") as c:
        created = c.post("/api/games", json=PEOPLE).json()
        game, ann = created["game_id"], created["token"]
        bob = c.post(f"/api/games/{game}/join", json={"invite": created["invite"]}).json()
        assert c.post(f"/api/games/{game}/resign", headers=auth(ann)).status_code == 200
        for stranger in ({}, {"json": {"invite": created["invite"]}}):
            refused = c.post(f"/api/games/{game}/analysis", **stranger)
            assert refused.status_code == 403, refused.text
            assert refused.json()["error"].startswith("only a player of this game can ask")
        assert c.get(f"/api/games/{game}/analysis").json() == {"status": "none"}
        assert c.post(f"/api/games/{game}/analysis",
                      headers=auth("not-a-token")).status_code == 401
        started = c.post(f"/api/games/{game}/analysis", headers=auth(bob["token"]))
        assert started.status_code == 202 and started.json()["status"] in ("running", "done")

        # A game of computers only: nobody holds a seat; its creator has the invite code.
        bots = c.post("/api/games", json={
            "seats": [{"kind": "computer", "level": "greedy"}] * 2, "seed": 3}).json()
        deadline = time.monotonic() + 60
        while not c.get(f"/api/games/{bots['game_id']}").json()["over"]:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        path = f"/api/games/{bots['game_id']}/analysis"
        assert c.post(path).status_code == 403
        assert c.post(path, json={"invite": "guessed"}).status_code == 403
        assert c.post(path, json={"invite": bots["invite"]}).status_code == 202


def test_games_of_computers_only_are_limited_per_address(tmp_path: Path) -> None:
    with in_process_client(f"sqlite:///{tmp_path / 'web.sqlite3'}", computer_games=2,
                           games_per_hour=4) as c:
        first = [c.post("/api/games", json=BOTS) for _ in range(2)]
        assert [r.status_code for r in first] == [201, 201]
        refused = c.post("/api/games", json=BOTS)
        assert refused.status_code == 429
        assert refused.json()["error"] == ("2 games of computers only created from your"
                                           " address are still being played: watch one to its"
                                           " end, then start another")
        # Games with a person's seat are not computers' games; the refusal did not use
        # up the address's games an hour (4: two made, two left).
        assert [c.post("/api/games", json=PEOPLE).status_code for _ in range(3)] == [
            201, 201, 429]


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_the_store_counts_the_computers_games_being_played(
        database: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    url = (f"sqlite:///{tmp_path / 'web.sqlite3'}" if database == "sqlite"
           else fresh_database(request.getfixturevalue("postgres_url"), "computers"))
    store = Store(url)
    seats = [StoredSeat(0, "A", "computer", "greedy", None),
             StoredSeat(1, "B", "computer", "greedy", None)]

    def create(game_id: str, address: str) -> None:
        store.create_game(game_id, {}, 1, "x" * 64, seats, computers_of=(address, 2))

    try:
        create("g1", "10.0.0.1")
        create("g2", "10.0.0.1")
        with pytest.raises(TooManyComputerGames):
            create("g3", "10.0.0.1")
        assert store.load("g3") is None  # nothing stored
        create("g3", "10.0.0.2")  # another address has its own count
        # A game that ends, stalls (no turn for ten minutes: a server restart stopped its
        # computers) or is closed no longer counts.
        store.finish("g1", 0, {"result": {"reason": "test"}})
        create("g4", "10.0.0.1")
        with pytest.raises(TooManyComputerGames):
            create("g5", "10.0.0.1")
        with store.engine.begin() as conn:  # g2 has had no turn for 11 minutes
            conn.execute(update(games).where(games.c.id == "g2")
                         .values(updated=time.time() - 660))
        create("g5", "10.0.0.1")
        with pytest.raises(TooManyComputerGames):
            create("g6", "10.0.0.1")
        store.close_idle(time.time() + 1)  # every unfinished game closed
        create("g6", "10.0.0.1")
    finally:
        store.close()


def turns_played(client, game: str) -> int:  # noqa: ANN001
    state = client.get(f"/api/games/{game}").json()
    return state.get("history_from", 0) + len(state["history"])


def test_games_of_computers_only_keep_their_pace_while_a_persons_computer_answers_at_once(
        tmp_path: Path) -> None:
    pace = 2.0  # seconds before each move of a game of computers only
    with in_process_client(f"sqlite:///{tmp_path / 'web.sqlite3'}",
                           computer_moves_per_second=1 / pace, rate_per_second=1e4,
                           rate_burst=1e4) as c:
        bots = c.post("/api/games", json={
            "seats": [{"kind": "computer", "level": "greedy"}] * 2, "seed": 3}).json()
        started = time.monotonic()
        # A person's game against a computer, in the same seconds: its computer seat
        # (seat 1 moves first with this seed) is not held to the pace.
        person = c.post("/api/games", json={
            "seats": [{"kind": "human"}, {"kind": "computer", "level": "greedy"}],
            "seed": 3}).json()
        deadline = time.monotonic() + 10
        while turns_played(c, person["game_id"]) < 1:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        # It answered before the paced game's first move (which waits a whole pace):
        # measured against the paced game itself, not against the clock, so a loaded
        # machine that slows both does not change the order.
        assert turns_played(c, bots["game_id"]) == 0
        # Each move waits a whole pace first: at most one a pace, and the game goes on.
        while (played := turns_played(c, bots["game_id"])) < 2:
            assert time.monotonic() < deadline + 2 * pace
            time.sleep(0.05)
        elapsed = time.monotonic() - started
        assert 2 <= played <= elapsed / pace + 1
