"""Rematches over the API: the same players in the same order round the table, the same
rules, and the first player moves on by one each game; the first player to ask creates
it, the others are seated by proving their old seat; it survives a restart; refusals
change nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from web_support import auth, fresh_database, in_process_client


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
        assert new != game  # Ann's seat is where the draw puts her (see below)
        state = client.get(f"/api/games/{new}", headers=auth(first["token"])).json()
        ann_seat = first["seat"]
        assert state["you"] == ann_seat and state["seats"][ann_seat]["name"] == "Ann"
        assert state["seats"][1 - ann_seat]["name"] == "Bob"
        assert [s["joined"] for s in state["seats"]] == [s == ann_seat for s in range(2)]
        assert state["rules"]["joker"] is True and state["rules"]["reduced_first_bonus"] is True
        assert client.get(f"/api/games/{game}/rematch").json() == {"rematch": {"game_id": new}}

        second = client.post(f"/api/games/{game}/rematch", headers=auth(bob)).json()
        assert second["game_id"] == new and second["seat"] == 1 - ann_seat
        state = client.get(f"/api/games/{new}", headers=auth(second["token"])).json()
        assert state["you"] == 1 - ann_seat and all(s["joined"] for s in state["seats"])
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


def play_out(client, game: str, tokens: dict[int, str]) -> dict:
    """Every seat makes the first move it may until the game ends (Kings: pass until the
    game ends scoreless); returns the record."""
    for _ in range(3000):
        reply = client.get(f"/api/games/{game}")
        assert reply.status_code == 200, reply.text
        state = reply.json()
        if state["over"]:
            return client.get(f"/api/games/{game}/record").json()
        if state.get("game") == "cribbage":
            seat = state["waiting"][0]
            mine = client.get(f"/api/games/{game}", headers=auth(tokens[seat])).json()
            can = mine["can"]
            body = ({"action": "discard", "cards": mine["hand"][:can["discard"]]}
                    if can["discard"] else {"action": "play", "card": can["play"][0]}
                    if can["play"] else {"action": "go"})
        else:
            seat, body = state["turn"], {"action": "pass"}
        reply = client.post(f"/api/games/{game}/actions", json=body, headers=auth(tokens[seat]))
        assert reply.status_code == 200, reply.text
    raise AssertionError("the game did not end")


def first_name(kind: str, record: dict) -> str:
    """Who began a game, read from its record as the engine replays it."""
    if kind == "kings":
        from kingscrib.kings.record import check_record
        game = check_record(record)
        return game.names[game.first_player]
    from kingscrib.classic.record import replay
    game = replay(record)
    return game.names[game.first_dealer]


@pytest.mark.parametrize("kind,players", [("kings", 2), ("kings", 3), ("classic", 2),
                                          ("classic", 3)])
def test_three_rematches_the_first_player_moves_on_each_time(tmp_path: Path, kind: str,
                                                             players: int) -> None:
    names = ["Ann", "Bob", "Cat"][:players]
    # A server as in production: no game may choose its seed, not even a rematch.
    with in_process_client(f"sqlite:///{tmp_path / 'web.sqlite3'}", allow_seed=False,
                           rate_per_second=1e4, rate_burst=1e4) as client:
        # With a clock, which every rematch keeps (overtime: Kings Cribbage only).
        clock = {"seconds": 1800, "overtime": 120 if kind == "kings" else 0}
        created = client.post("/api/games", json={
            "game": kind, "seats": [{"kind": "human", "name": n} for n in names],
            "clock_seconds": clock["seconds"], "clock_overtime": clock["overtime"]}).json()
        game, tokens = created["game_id"], {0: created["token"]}
        for seat in range(1, players):
            tokens[seat] = client.post(f"/api/games/{game}/join", json={
                "invite": created["invite"], "seat": seat, "name": names[seat]}).json()["token"]
        record = play_out(client, game, tokens)
        for _ in range(3):
            order = [p["name"] for p in record["players"]]
            first = first_name(kind, record)
            after = order[(order.index(first) + 1) % players]
            new_tokens: dict[int, str] = {}
            new = None
            for seat in range(players):  # each person asks; the first creates it
                reply = client.post(f"/api/games/{game}/rematch", headers=auth(tokens[seat]))
                assert reply.status_code == 200, reply.text
                new = new or reply.json()["game_id"]
                assert reply.json()["game_id"] == new
                new_tokens[reply.json()["seat"]] = reply.json()["token"]
            state = client.get(f"/api/games/{new}").json()
            assert all(s["joined"] for s in state["seats"])
            assert {k: state["clock"][k] for k in clock} == clock
            seated = [s["name"] for s in state["seats"]]
            turned = seated.index(order[0])
            assert seated[turned:] + seated[:turned] == order  # the same order round
            game, tokens = new, new_tokens
            record = play_out(client, game, tokens)  # the record replays (checked below)
            assert first_name(kind, record) == after, f"{after} should begin, not the others"


def resigned_two_person_game(client, game: str, ann: str) -> None:
    assert client.post(f"/api/games/{game}/resign", headers=auth(ann)).status_code == 200


def test_a_rematch_counts_against_the_games_an_hour(tmp_path: Path) -> None:
    """Resign and rematch, again and again: each rematch is a new game of its creator's
    address, refused past ``games_per_hour`` like any other."""
    with in_process_client(f"sqlite:///{tmp_path / 'web.sqlite3'}", games_per_hour=2) as c:
        rematches_count(c)


def rematches_count(c) -> None:
    created = c.post("/api/games", json={"seats": [{"kind": "human"}, {"kind": "human"}]})
    game, ann = created.json()["game_id"], created.json()["token"]
    bob = c.post(f"/api/games/{game}/join", json={"invite": created.json()["invite"]}).json()
    resigned_two_person_game(c, game, ann)
    first = c.post(f"/api/games/{game}/rematch", headers=auth(ann))
    assert first.status_code == 200, first.text  # the address's second game of 2
    # Bob is seated in the rematch Ann made: no new game, nothing counted.
    seated = c.post(f"/api/games/{game}/rematch", headers=auth(bob["token"]))
    assert seated.status_code == 200 and seated.json()["game_id"] == first.json()["game_id"]
    new = first.json()["game_id"]
    resigned_two_person_game(c, new, first.json()["token"])
    refused = c.post(f"/api/games/{new}/rematch", headers=auth(first.json()["token"]))
    assert refused.status_code == 429 and "too many games" in refused.json()["error"]
    assert c.get(f"/api/games/{new}/rematch").json() == {"rematch": None}  # none was made
    again = c.post("/api/games", json={"seats": [{"kind": "human"}, {"kind": "human"}]})
    assert again.status_code == 429


def test_a_rematch_counts_against_the_games_an_hour_on_postgresql(postgres_url: str) -> None:
    url = fresh_database(postgres_url, "rematch_limits")
    with in_process_client(url, games_per_hour=2) as c:
        rematches_count(c)
