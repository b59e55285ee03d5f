"""Websocket messages whose fields hold any JSON value: each gets a precise error reply,
the socket stays open and the game does not change."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from web_support import in_process_client

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.floats(allow_nan=False,
                                                                        allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                max_size=3),
    max_leaves=6)
# No value of these types is a valid action name, tile list or claim.
NOT_TEXT = JSON.filter(lambda v: not isinstance(v, str))

KINGS = {"seats": [{"kind": "human"}, {"kind": "human"}], "seed": 11}
CLASSIC = {"game": "classic", "seed": 3, "seats": [{"kind": "human"}, {"kind": "human"}]}


def reply_to(ws, message: dict) -> dict:
    """The reply to ``message`` (updates and states broadcast meanwhile skipped)."""
    ws.send_json(message)
    while True:
        reply = ws.receive_json()
        if reply["type"] not in ("update", "state"):
            return reply


class Table:
    """A game of two people, the mover's websocket open."""

    def __init__(self, client, spec: dict) -> None:
        created = client.post("/api/games", json=spec).json()
        self.gid = created["game_id"]
        joined = client.post(f"/api/games/{self.gid}/join",
                             json={"invite": created["invite"]}).json()
        state = created["state"]
        mover = state.get("turn", 0)
        waiting = state.get("waiting")
        if waiting:
            mover = waiting[0]
        self.token = created["token"] if mover == created["seat"] else joined["token"]
        self.client = client
        self.ws = client.websocket_connect(f"/api/games/{self.gid}/ws")
        self.ws.__enter__()
        assert reply_to(self.ws, {"type": "hello", "token": self.token})["type"] == "welcome"
        self.ws.receive_json()  # the state

    def game(self) -> dict:
        return self.client.get(f"/api/games/{self.gid}").json()

    def refused(self, message: dict, statuses: tuple[int, ...] = (400,)) -> str:
        """The error the server replies to ``message``; the socket is still open after it."""
        reply = reply_to(self.ws, dict(message, ref=7))
        assert reply["type"] == "error", reply
        assert reply["status"] in statuses and reply["ref"] == 7, reply
        assert reply["error"] and isinstance(reply["error"], str)
        assert reply_to(self.ws, {"type": "ping", "ref": 8}) == {"type": "pong", "ref": 8}
        return reply["error"]

    def close(self) -> None:
        self.ws.__exit__(None, None, None)


@pytest.fixture
def client(tmp_path: Path):
    with in_process_client(f"sqlite:///{tmp_path / 'web.sqlite3'}", rate_per_second=1e4,
                           rate_burst=1e4) as c:
        yield c


@pytest.mark.parametrize("action", [["play"], {"play": 1}, 3, None, 2.5, True])
def test_an_action_name_of_another_type_gets_an_error_and_the_socket_stays_open(
        client, action) -> None:
    table = Table(client, KINGS)
    before = table.game()
    error = table.refused({"type": "action", "action": action})
    assert error.startswith("action must be one of play, exchange, pass, joker, not ")
    assert table.game() == before
    table.close()


@pytest.mark.parametrize(("message", "expected"), [
    ({"action": "play", "tiles": 5}, "a play: tiles"),
    ({"action": "play", "tiles": {"G7": "7L"}, "claim": "3"}, "a play: claim"),
    ({"action": "play", "tiles": {"G7": "7L"}, "claim": True}, "a play: claim"),
    ({"action": "play", "tiles": {"G7": ["7L"]}}, "a play: tiles"),
    ({"action": "exchange", "tiles": [1, 2]}, "a exchange: tiles"),
    ({"action": "exchange", "tiles": "7L"}, "a exchange: tiles"),
])
def test_kings_fields_of_the_wrong_type_are_named(client, message, expected) -> None:
    table = Table(client, KINGS)
    before = table.game()
    assert expected in table.refused({"type": "action", **message})
    assert table.game() == before
    table.close()


@pytest.mark.parametrize(("message", "expected"), [
    ({"action": "discard", "cards": "5H"}, "a discard: cards"),
    ({"action": "discard", "cards": [{"x": 1}, "5H"]}, "a discard: cards.0"),
    ({"action": "play", "card": 5}, "a play: card"),
    ({"action": "claim", "points": "2"}, "a claim: points"),
    ({"action": "claim", "points": [2]}, "a claim: points"),
])
def test_classic_fields_of_the_wrong_type_are_named(client, message, expected) -> None:
    table = Table(client, CLASSIC)
    before = table.game()
    assert expected in table.refused({"type": "action", **message})
    assert table.game() == before
    table.close()


def test_any_json_in_any_field_gets_a_reply_and_changes_nothing(client) -> None:
    kings, classic = Table(client, KINGS), Table(client, CLASSIC)
    before = kings.game(), classic.game()

    @settings(max_examples=150, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(st.sampled_from([kings, classic]), NOT_TEXT,
           st.sampled_from(["tiles", "claim", "cards", "card", "points"]), JSON)
    def check(table: Table, action, field: str, value) -> None:
        assert table.refused({"type": "action", "action": action}).startswith("action must")
        name = "play" if table is kings else "discard"
        table.refused({"type": "action", "action": name, field: value}, (400, 409))
        assert "does not take extra" in table.refused(
            {"type": "action", "action": name, "extra": value})
        if table is kings:  # a preview of anything but a play on the board is an error
            reply = reply_to(table.ws, {"type": "preview", "tiles": value})
            assert reply["type"] == "error" or reply["preview"]["legal"] is False, reply
        table.refused({"type": action})

    check()
    assert (kings.game(), classic.game()) == before
    kings.close()
    classic.close()
