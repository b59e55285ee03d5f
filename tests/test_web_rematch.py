"""Rematches over the API: the same seats turned one place, the same rules; the first
player to ask creates it, the others are seated by proving their old seat; it survives a
restart; refusals change nothing."""

from __future__ import annotations

from pathlib import Path

from web_support import auth, in_process_client


def finished_two_person_game(client, rules: dict) -> tuple[str, str, str]:
    """Ann (creator) and Bob (by invite) pass until the game ends scoreless."""
    created = client.post("/api/games", json={
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human"}], "rules": rules,
        "seed": 11}).json()
    game, ann = created["game_id"], created["token"]
    bob = client.post(f"/api/games/{game}/join",
                      json={"invite": created["invite"], "name": "Bob"}).json()["token"]
    tokens = {0: ann, 1: bob}
    for _ in range(20):
        state = client.get(f"/api/games/{game}").json()
        if state["over"]:
            break
        reply = client.post(f"/api/games/{game}/actions", json={"action": "pass"},
                            headers=auth(tokens[state["turn"]]))
        assert reply.status_code == 200, reply.text
    assert client.get(f"/api/games/{game}").json()["end"]["reason"] == "scoreless"
    return game, ann, bob


def test_a_rematch_turns_the_seats_and_seats_each_player(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    rules = {"joker": True, "reduced_first_bonus": True}
    with in_process_client(db) as client:
        created = client.post("/api/games", json={
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human"}]}).json()
        early = client.post(f"/api/games/{created['game_id']}/rematch",
                            headers=auth(created["token"]))
        assert early.status_code == 409 and "over" in early.json()["error"]

        game, ann, bob = finished_two_person_game(client, rules)
        assert client.get(f"/api/games/{game}/rematch").json() == {"rematch": None}
        spectator = client.post(f"/api/games/{game}/rematch")
        assert spectator.status_code == 403
        assert client.get(f"/api/games/{game}/rematch").json() == {"rematch": None}
        wrong = client.post(f"/api/games/{game}/rematch", headers=auth("not-a-token"))
        assert wrong.status_code == 401

        first = client.post(f"/api/games/{game}/rematch", headers=auth(ann)).json()
        new = first["game_id"]
        assert new != game and first["seat"] == 1  # Ann's seat 1 is now seat 2
        state = client.get(f"/api/games/{new}", headers=auth(first["token"])).json()
        assert state["you"] == 1
        assert [s["name"] for s in state["seats"]] == ["Bob", "Ann"]
        assert [s["joined"] for s in state["seats"]] == [False, True]
        assert state["rules"]["joker"] is True and state["rules"]["reduced_first_bonus"] is True
        assert client.get(f"/api/games/{game}/rematch").json() == {"rematch": {"game_id": new}}

        second = client.post(f"/api/games/{game}/rematch", headers=auth(bob)).json()
        assert second["game_id"] == new and second["seat"] == 0
        state = client.get(f"/api/games/{new}", headers=auth(second["token"])).json()
        assert state["you"] == 0 and all(s["joined"] for s in state["seats"])
        again = client.post(f"/api/games/{game}/rematch", headers=auth(bob))
        assert again.status_code == 409 and "taken" in again.json()["error"]

    with in_process_client(db) as client:  # after a restart
        assert client.get(f"/api/games/{game}/rematch").json() == {"rematch": {"game_id": new}}


def test_classic_rematch_refusals_a_computer_game_and_one_not_over(tmp_path: Path) -> None:
    with in_process_client(f"sqlite:///{tmp_path / 'web.sqlite3'}") as client:
        created = client.post("/api/games", json={
            "game": "classic", "seats": [{"kind": "computer", "level": "easy"},
                                         {"kind": "computer", "level": "medium"}],
            "rules": {"skunk": True}, "seed": 4}).json()
        game = created["game_id"]
        # Nobody holds a seat of a computer game: no rematch to ask for.
        assert client.post(f"/api/games/{game}/rematch").status_code == 403

        people = client.post("/api/games", json={
            "game": "classic", "seats": [{"kind": "human", "name": "Cy"},
                                         {"kind": "computer", "level": "medium"}]}).json()
        refused = client.post(f"/api/games/{people['game_id']}/rematch",
                              headers=auth(people["token"]))
        assert refused.status_code == 409


def test_a_game_nobody_came_to_is_cancelled_by_a_seated_player(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    with in_process_client(db) as client:
        created = client.post("/api/games", json={
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human"},
                      {"kind": "computer", "level": "greedy"}]}).json()
        game = created["game_id"]
        assert client.delete(f"/api/games/{game}").status_code == 403  # a spectator
        assert client.delete(f"/api/games/{game}", headers=auth("nope")).status_code == 401
        assert client.get(f"/api/games/{game}").status_code == 200  # nothing changed
        # A game whose seats are all taken cannot be cancelled.
        full = client.post("/api/games", json={
            "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
        client.post(f"/api/games/{full['game_id']}/join", json={"invite": full["invite"]})
        refused = client.delete(f"/api/games/{full['game_id']}", headers=auth(full["token"]))
        assert refused.status_code == 409 and "taken" in refused.json()["error"]
        # Once a person has played it cannot either.
        for seed in range(20):  # a seed whose draw lets the creator (seat 1) begin
            played = client.post("/api/games", json={
                "seats": [{"kind": "human"}, {"kind": "human"}], "seed": seed}).json()
            if client.get(f"/api/games/{played['game_id']}").json()["turn"] == 0:
                break
        passed = client.post(f"/api/games/{played['game_id']}/actions",
                             json={"action": "pass"}, headers=auth(played["token"]))
        assert passed.status_code == 200
        refused = client.delete(f"/api/games/{played['game_id']}", headers=auth(played["token"]))
        assert refused.status_code == 409 and "played" in refused.json()["error"]
        ok = client.delete(f"/api/games/{game}", headers=auth(created["token"]))
        assert ok.status_code == 200
        assert client.get(f"/api/games/{game}").status_code == 404
    with in_process_client(db) as client:  # gone after a restart too
        assert client.get(f"/api/games/{game}").status_code == 404
        assert client.get(f"/api/games/{full['game_id']}").status_code == 200
