"""``GET /api/games/{id}`` answers from the state message's cached encoding while a game
runs: the same game, seat by seat, as the whole state worked out afresh."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from web_support import auth, in_process_client

from kingscrib.web.play.games.cribbage import CRIBBAGE
from kingscrib.web.play.games.kings import KINGS

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

CASES = {"kings": ("kings", {}, KINGS, "greedy"),
         "kings-joker": ("kings", {"joker": True}, KINGS, "greedy"),
         "classic": ("classic", {}, CRIBBAGE, "easy")}


@pytest.mark.parametrize("case", list(CASES))
def test_each_seat_and_a_spectator_get_exactly_the_state(tmp_path: Path, case: str) -> None:
    game, rules, kind, level = CASES[case]
    with in_process_client(f"sqlite:///{tmp_path / 'w.sqlite3'}") as client:
        hub = client.app.state.hub
        created = client.post("/api/games", json={
            "game": game, "rules": rules, "seed": 3,
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human"}]}).json()
        gid = created["game_id"]
        joined = client.post(f"/api/games/{gid}/join",
                             json={"invite": created["invite"], "name": "Bob"}).json()
        tokens = [created["token"], joined["token"]]
        room = hub.rooms[gid]
        player = kind.make_player(level, 1)

        def check_every_view() -> None:
            for seat, headers in ((0, auth(tokens[0])), (1, auth(tokens[1])), (None, {})):
                got = client.get(f"/api/games/{gid}", headers=headers)
                assert got.status_code == 200
                assert got.headers["content-type"] == "application/json"
                assert got.json() == json.loads(json.dumps(hub.state(room, seat)))

        check_every_view()
        for _ in range(6):  # moves: the mover's own view differs under the Joker rule
            seat = room.game.waiting()[0]
            action = room.game.computer_action(seat, player, room.game.computer_input(seat))
            action.pop("seat", None)  # the seat is the token's
            moved = client.post(f"/api/games/{gid}/actions", json=action,
                                headers=auth(tokens[seat]))
            assert moved.status_code == 200, moved.text
            check_every_view()
        assert client.post(f"/api/games/{gid}/resign",
                           headers=auth(tokens[0])).status_code == 200
        assert room.result is not None
        check_every_view()
        over = client.get(f"/api/games/{gid}").json()
        assert over["over"] is True and over["turn"] is None and over["result"] is not None


def test_only_the_newest_turns_stay_cached_and_older_ones_are_built_the_same() -> None:
    from kingscrib.web.play.games.kings_view import KEEP_TURNS, turn_json

    session = KINGS.create(KINGS.check_rules({}, 2), 7, ["Ann", "Bob"])
    players = [KINGS.make_player("greedy", 1), KINGS.make_player("greedy", 2)]
    first_built = []
    for _ in range(16):
        seat = session.waiting()[0]
        session.apply(seat, session.computer_action(seat, players[seat],
                                                    session.computer_input(seat)))
        first_built.append(json.dumps(turn_json(session, len(first_built), hide=False)))
        assert len(session._turns) <= 2 * KEEP_TURNS
    assert min(index for index, *_ in session._turns) >= 16 - 2 * KEEP_TURNS
    again = [json.dumps(turn_json(session, i, hide=False)) for i in range(16)]
    assert again == first_built


@pytest.mark.parametrize("game", ["kings", "classic"])
def test_a_game_over_by_its_rules_is_the_same_state_seed_and_all(tmp_path: Path,
                                                                  game: str) -> None:
    level = "greedy" if game == "kings" else "easy"
    with in_process_client(f"sqlite:///{tmp_path / 'w.sqlite3'}") as client:
        hub = client.app.state.hub
        gid = client.post("/api/games", json={
            "game": game, "seed": 5,
            "seats": [{"kind": "computer", "level": level}] * 2}).json()["game_id"]
        for _ in range(600):
            got = client.get(f"/api/games/{gid}").json()
            if got["over"]:
                break
            time.sleep(0.05)
        room = hub.rooms[gid]
        assert got["over"] and room.result is None  # ended by the rules, not early
        assert got == json.loads(json.dumps(hub.state(room, None)))
        assert got["end"]["seed"] == 5  # disclosed once over, over a socket as by a GET
        assert json.loads(hub.state_message(room, None))["state"]["end"]["seed"] == 5
