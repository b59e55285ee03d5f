"""Claims on the web server (docs/rules.md, "Claims are final"): nothing a seat is sent
tells a play's or a hand's value before its claim is made; a claim above the value is
accepted, corrected, and the excess goes to the next player, which everyone is told."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from classic.classic_reference import ref_score
from web_support import auth, in_process_client

from kingscrib.classic.cards import Card
from kingscrib.classic.game import ClassicGame
from kingscrib.classic.rules import RuleSet as ClassicRules
from kingscrib.kings.fastgen import legal_plays
from kingscrib.kings.game import Game
from kingscrib.kings.moves import Play
from kingscrib.kings.rules import RuleSet

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def client(tmp_path: Path):
    with in_process_client(f"sqlite:///{tmp_path / 'web.sqlite3'}") as c:
        yield c


def two_people(client, body: dict) -> tuple[str, list[str]]:
    created = client.post("/api/games", json={"seats": [{"name": "Ann"}, {"name": "Bob"}],
                                              "seed": 11, **body})
    assert created.status_code == 201, created.text
    created = created.json()
    joined = client.post(f"/api/games/{created['game_id']}/join",
                         json={"invite": created["invite"]}).json()
    return created["game_id"], [created["token"], joined["token"]]


def test_kings_joker_nothing_tells_the_value_and_an_over_claim_is_corrected(client) -> None:
    gid, tokens = two_people(client, {"rules": {"joker": True}, "hints": True})
    engine = Game.new(["Ann", "Bob"], RuleSet(joker=True), 11)
    me, other = engine.turn, 1 - engine.turn
    best = legal_plays(engine.board, engine.racks[me], engine.rules)[0]
    tiles, value = best.play.tiles_json(), best.total
    # the preview and the hint (hints allowed) name plays, never their points
    p = client.post(f"/api/games/{gid}/preview", json={"tiles": tiles},
                    headers=auth(tokens[me])).json()
    assert p["legal"] is True and "score" not in p and "fifteens" not in p
    hint = client.post(f"/api/games/{gid}/hint", headers=auth(tokens[me])).json()
    assert hint["options"] and "Joker" in hint["uncounted"]
    for option in [hint, *hint["options"]]:
        assert not {"score", "describe", "equity"} & set(option)
        if option["play"]:
            engine.check(Play.from_json(option["tiles"]))  # a legal play
    # a bad claim is refused without the value and changes nothing
    before = client.get(f"/api/games/{gid}", headers=auth(tokens[me])).json()
    r = client.post(f"/api/games/{gid}/actions", headers=auth(tokens[me]),
                    json={"action": "play", "tiles": tiles, "claim": -1})
    assert r.status_code in (400, 422) and "worth" not in r.text
    assert client.get(f"/api/games/{gid}", headers=auth(tokens[me])).json() == before
    # an over-claim is accepted: the claimer scores the value, the other the excess
    r = client.post(f"/api/games/{gid}/actions", headers=auth(tokens[me]),
                    json={"action": "play", "tiles": tiles, "claim": value + 4})
    assert r.status_code == 200, r.text
    for token in (*tokens, None):
        state = client.get(f"/api/games/{gid}", headers=auth(token) if token else {}).json()
        last = state["history"][-1]
        assert (last["score"], last["claimed"]) == (value, value + 4)
        assert last["overclaim"] == {"player": other, "points": 4}
        assert [s["score"] for s in state["seats"]] == ([value, 4] if me == 0 else [4, value])
        assert state["joker_open"] is False
    record = client.get(f"/api/games/{gid}/record", headers=auth(tokens[me]))
    if record.status_code == 200:  # a record is offered once the game is over
        assert record.json()["turns"][-1]["overclaim"] == {"player": other, "points": 4}


def test_classic_muggins_nothing_tells_the_value_and_an_over_claim_is_corrected(client):
    gid, tokens = two_people(client, {"game": "classic", "rules": {"muggins": True}})
    engine = ClassicGame(ClassicRules(players=2, muggins=True), 11, explicit_go=True)
    while engine.show_item is None:  # the same actions through the API and the engine
        seat = engine.waiting_for()[0]
        action = engine.legal_for(seat)[0]
        body = ({"action": "discard", "cards": [str(c) for c in action.cards]}
                if hasattr(action, "cards") else {"action": "play", "card": str(action.card)}
                if hasattr(action, "card") else {"action": "go"})
        r = client.post(f"/api/games/{gid}/actions", json=body, headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text
        engine.apply(action, seat)
    item = engine.show_item
    me, other = item.seat, 1 - item.seat
    value = ref_score(list(item.cards), engine.starter, crib=item.kind == "crib")
    # before the claim: the hand waits with its cards only, for every seat and spectators
    for token in (*tokens, None):
        state = client.get(f"/api/games/{gid}", headers=auth(token) if token else {}).json()
        assert set(state["claiming"]) == {"seat", "kind", "cards"}
        assert state["show"] == []
        assert "hand:" not in json.dumps(state) and "fifteen" not in json.dumps(state)
    # a claim past every hand's bound is refused with a message the same for every hand
    r = client.post(f"/api/games/{gid}/actions", headers=auth(tokens[me]),
                    json={"action": "claim", "points": 30})
    assert r.status_code == 422
    assert r.json()["error"] == "points: Input should be less than or equal to 29"
    # an over-claim: the value to the claimer, the excess to the other, told to all
    claim = min(29, value + 5)
    before = client.get(f"/api/games/{gid}").json()["scores"]
    r = client.post(f"/api/games/{gid}/actions", headers=auth(tokens[me]),
                    json={"action": "claim", "points": claim})
    assert r.status_code == 200, r.text
    state = client.get(f"/api/games/{gid}", headers=auth(tokens[me])).json()
    shown = state["show"][0] if state["show"] else state["previous"]["show"][0]
    assert (shown["score"], shown["claimed"]) == (value, claim)
    assert claim > value and shown["overclaim"]["seat"] == other
    assert shown["overclaim"]["points"] == claim - value
    assert shown["overclaim"]["text"] == (
        f"{['Ann', 'Bob'][me]} claimed {claim}; the hand is worth {value}:"
        f" {claim - value} go{'es' if claim - value == 1 else ''} to {['Ann', 'Bob'][other]}")
    assert state["scores"][me] - before[me] == value
    assert state["scores"][other] - before[other] == claim - value
    assert Card.parse(shown["cards"][0]) in item.cards
