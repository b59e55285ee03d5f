"""The seam between the rooms and the games: a third game, registered only here, is
created, joined, watched, played (by a person and by a computer), refused, rebuilt after
a restart, finished, downloaded, rematched and cancelled through the ordinary HTTP and
websocket code, with no line of the server written for it.

The game, a race to a target: the seats in turn add 1, 2 or 3 to a count; whoever
reaches the target exactly wins. Each seat also holds a secret number that only it may
see, so what reaches each listener can be checked.
"""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any, Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field
from web_support import auth, in_process_client

from kingscrib.common.shuffle import Seed, new_secret
from kingscrib.web.errors import WebError
from kingscrib.web.play.games import game_names, register, unregister
from kingscrib.web.play.games.protocol import SessionBase

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def secret_of(seed: Seed, seat: int) -> int:
    return int(hashlib.sha256(f"{seed}/{seat}".encode()).hexdigest()[:6], 16)


class RaceRules(BaseModel):
    model_config = ConfigDict(extra="forbid")
    target: int = Field(default=10, ge=5, le=30)


class RaceAction(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: Literal["add"]
    n: int | None = None


class RaceSession(SessionBase):
    kind = "race"
    title = "Race"

    def __init__(self, rules: dict[str, Any], seed: Seed, names: list[str]) -> None:
        super().__init__()
        self.target, self._seed, self.names = rules["target"], seed, list(names)
        self.count = self.turn = 0

    @property
    def seed(self) -> Seed:
        return self._seed

    @property
    def over(self) -> bool:
        return self.count == self.target

    def waiting(self) -> list[int]:
        return [] if self.over else [self.turn]

    def apply(self, seat: int, message: dict[str, Any]) -> dict[str, Any]:
        if self.over:
            raise WebError(409, "the race is over")
        if seat != self.turn:
            raise WebError(409, f"it is {self.names[self.turn]}'s turn")
        n = message.get("n")
        if n not in (1, 2, 3) or isinstance(n, bool):
            raise WebError(400, "add 1, 2 or 3")
        if self.count + n > self.target:
            raise WebError(400, f"{self.count} + {n} passes {self.target}")
        self.count += n
        self.turn = (self.turn + 1) % len(self.names)
        turn = {"seat": seat, "action": "add", "n": n}
        self.turns.append(turn)
        return turn

    def take_back(self) -> None:
        last = self.turns.pop()
        self.count -= last["n"]
        self.turn = last["seat"]

    def computer_input(self, seat: int) -> Any:
        return self.count, self.target

    def computer_action(self, seat: int, player: Any, known: Any) -> dict[str, Any]:
        return {"action": "add", "n": player.choose(*known)}

    def public(self) -> dict[str, Any]:
        winner = self.turns[-1]["seat"] if self.over else None
        return {"game": "race", "count": self.count, "target": self.target,
                "turn": None if self.over else self.turn, "over": self.over,
                "history": list(self.turns), "end": {"winner": winner} if self.over else None}

    def private(self, seat: int) -> dict[str, Any]:
        return {"secret": secret_of(self._seed, seat)}

    def record(self, seats: list[dict[str, Any]]) -> dict[str, Any]:
        return {"format": "race/1", "game": "race", "seed": self._seed,
                "players": [dict(s, name=n) for s, n in zip(seats, self.names)],
                "turns": list(self.turns)}

    def rename(self, seat: int, name: str) -> None:
        self.names[seat] = name


class Perfect:
    """Leaves the count a multiple of 4 short of the target when it can."""

    def choose(self, count: int, target: int) -> int:
        return (target - count) % 4 or 1


class RaceKind:
    name = "race"
    title = "Race"
    rules_model = RaceRules
    action_model = RaceAction

    def levels(self) -> list[str]:
        return ["perfect"]

    def default_level(self) -> str:
        return "perfect"

    def seats_allowed(self) -> tuple[int, int]:
        return 2, 3

    def action_fields(self) -> dict[str, frozenset[str]]:
        return {"add": frozenset({"n"})}

    def make_player(self, level: str, seed: int) -> Any:
        return Perfect()

    def check_rules(self, rules: dict[str, Any], seats: int) -> dict[str, Any]:
        return RaceRules.model_validate(rules).model_dump()

    def create(self, rules: dict[str, Any], seed: Seed | None, names: list[str]
               ) -> RaceSession:
        return RaceSession(rules, new_secret() if seed is None else seed, names)

    def rebuild(self, rules: dict[str, Any], seed: Seed, names: list[str],
                turns: list[dict[str, Any]]) -> RaceSession:
        session = RaceSession(rules, seed, names)
        for t in turns:
            try:
                session.apply(int(t["seat"]), t)
            except WebError as e:
                raise ValueError(e.message) from None
        return session


@pytest.fixture(autouse=True)
def race_registered():
    register(RaceKind())
    yield
    unregister("race")


@pytest.fixture
def web_db(tmp_path: Path) -> Path:
    return tmp_path / "web.sqlite3"


def start(client, seats: list[dict], **extra) -> dict:
    r = client.post("/api/games", json={"game": "race", "seats": seats, **extra})
    assert r.status_code == 201, r.text
    return r.json()


def add(client, gid: str, token: str, n: int, **extra):
    return client.post(f"/api/games/{gid}/actions", json={"action": "add", "n": n, **extra},
                       headers=auth(token))


def messages_until(ws, kind: str, limit: int = 20) -> list[dict]:
    seen = []
    for _ in range(limit):
        seen.append(ws.receive_json())
        if seen[-1]["type"] == kind:
            return seen
    raise AssertionError(f"no {kind} message in {seen}")


def test_the_game_is_listed_and_its_rules_checked(web_db: Path) -> None:
    assert "race" in game_names()
    with in_process_client(f"sqlite:///{web_db}") as c:
        levels = c.get("/api/levels").json()
        assert levels["games"]["race"] == {"title": "Race", "levels": ["perfect"],
                                           "default_level": "perfect",
                                           "seats": {"min": 2, "max": 3}}
        r = c.post("/api/games", json={"game": "race", "seats": [{}, {}],
                                       "rules": {"target": 99}})
        assert r.status_code == 422 and "target" in r.json()["error"]
        r = c.post("/api/games", json={"game": "race", "seats": [{}, {}, {}, {}]})
        assert r.status_code == 400 and "Race is for 2 to 3 seats, not 4" in r.json()["error"]


def test_people_play_it_over_http_and_websockets_each_seeing_only_their_own(
        web_db: Path) -> None:
    with in_process_client(f"sqlite:///{web_db}") as c:
        created = start(c, [{"name": "Ann"}, {}], rules={"target": 7}, seed=3)
        gid, t0 = created["game_id"], created["token"]
        assert created["state"]["count"] == 0 and created["state"]["secret"] == secret_of(3, 0)
        t1 = c.post(f"/api/games/{gid}/join",
                    json={"invite": created["invite"], "name": "Bob"}).json()["token"]
        with c.websocket_connect(f"/api/games/{gid}/ws") as s1, \
                c.websocket_connect(f"/api/games/{gid}/ws") as watcher:
            s1.send_text(json.dumps({"type": "hello", "token": t1}))
            first = messages_until(s1, "state")[-1]["state"]
            assert first["you"] == 1 and first["secret"] == secret_of(3, 1)
            assert [s["name"] for s in first["seats"]] == ["Ann", "Bob"]
            watcher.send_text(json.dumps({"type": "hello"}))
            assert "secret" not in messages_until(watcher, "state")[-1]["state"]

            # Refused, each with its reason, and nothing changes.
            for token, n, extra, status, words in [
                    (t1, 1, {}, 409, "it is Ann's turn"),
                    (t0, 4, {}, 400, "add 1, 2 or 3"),
                    (t0, 1, {"tiles": {}}, 400, "does not take tiles")]:
                r = add(c, gid, token, n, **extra)
                assert r.status_code == status and words in r.json()["error"], r.text
            r = c.post(f"/api/games/{gid}/actions", json={"action": "play"}, headers=auth(t0))
            assert r.status_code == 400 and "action must be one of add" in r.json()["error"]
            assert c.get(f"/api/games/{gid}").json()["count"] == 0

            # What the game does not offer is refused cleanly.
            r = c.post(f"/api/games/{gid}/preview", json={"tiles": {"H8": "5L"}},
                       headers=auth(t0))
            assert r.status_code == 400 and "previews are not offered in Race" in r.text
            r = c.post(f"/api/games/{gid}/hint", headers=auth(t0))
            assert r.status_code == 400 and "hints are not offered in Race" in r.text

            assert add(c, gid, t0, 3).status_code == 200
            for ws, seat in ((s1, 1), (watcher, None)):
                state = messages_until(ws, "state")[-1]["state"]
                while state["count"] != 3:
                    state = messages_until(ws, "state")[-1]["state"]
                assert state["you"] == seat and state["turn"] == 1
                assert ("secret" in state) == (seat is not None)
                assert secret_of(3, 0) != state.get("secret")
            s1.send_text(json.dumps({"type": "action", "action": "add", "n": 3, "ref": 5}))
            ok = messages_until(s1, "ok")[-1]
            assert ok["ref"] == 5
            s1.send_text(json.dumps({"type": "action", "action": "add", "n": 2, "ref": 6}))
            refused = messages_until(s1, "error")[-1]
            assert refused["ref"] == 6 and refused["status"] == 409
        assert c.get(f"/api/games/{gid}/record").status_code == 409  # not over yet
        assert add(c, gid, t0, 1).status_code == 200
        state = c.get(f"/api/games/{gid}", headers=auth(t1)).json()
        assert state["over"] and state["end"] == {"winner": 0, "seed": 3}
        record = c.get(f"/api/games/{gid}/record").json()
        assert record["turns"] == [{"seat": 0, "action": "add", "n": 3},
                                   {"seat": 1, "action": "add", "n": 3},
                                   {"seat": 0, "action": "add", "n": 1}]
        assert record["players"][1] == {"kind": "human", "name": "Bob"}
        r = c.post(f"/api/games/{gid}/analysis")
        assert r.status_code == 400 and "analyses are not offered in Race" in r.text
        r = c.get(f"/api/games/{gid}/replay")
        assert r.status_code == 400 and "step replays are not offered in Race" in r.text
        r = c.post("/api/games/replay", json=record)
        assert r.status_code == 400 and "can be replayed here, not 'race'" in r.text

        # The rematch: the same table again, seats turned one place.
        again = c.post(f"/api/games/{gid}/rematch", headers=auth(t0)).json()
        fresh = c.get(f"/api/games/{again['game_id']}", headers=auth(again["token"])).json()
        assert fresh["game"] == "race" and fresh["target"] == 7 and fresh["count"] == 0
        assert again["seat"] == 1 and [s["name"] for s in fresh["seats"]] == ["Bob", "Ann"]


def test_a_computer_seat_answers_and_the_game_is_rebuilt_after_a_restart(
        web_db: Path) -> None:
    with in_process_client(f"sqlite:///{web_db}") as c:
        created = start(c, [{"name": "Ann"}, {"kind": "computer", "level": "perfect"}],
                        rules={"target": 21}, seed=8)
        gid, token = created["game_id"], created["token"]
        assert add(c, gid, token, 2).status_code == 200
        deadline = time.monotonic() + 20
        while c.get(f"/api/games/{gid}").json()["turn"] != 0:
            assert time.monotonic() < deadline, "the computer seat did not move"
            time.sleep(0.05)
        before = c.get(f"/api/games/{gid}", headers=auth(token)).json()
        assert before["count"] == 5  # 2, then the computer's 3 leaves 16 = 4 x 4
    with in_process_client(f"sqlite:///{web_db}") as c:
        after = c.get(f"/api/games/{gid}", headers=auth(token)).json()
        assert [dict(s, online=False) for s in after["seats"]] == \
            [dict(s, online=False) for s in before["seats"]]
        assert {k: v for k, v in after.items() if k != "seats"} == \
            {k: v for k, v in before.items() if k != "seats"}
        assert add(c, gid, token, 1).status_code == 200
        deadline = time.monotonic() + 20
        while c.get(f"/api/games/{gid}").json()["count"] != 9:
            assert time.monotonic() < deadline, "the computer seat did not carry on"
            time.sleep(0.05)


def test_a_game_nobody_came_to_is_cancelled(web_db: Path) -> None:
    with in_process_client(f"sqlite:///{web_db}") as c:
        created = start(c, [{}, {}])
        gid = created["game_id"]
        r = c.delete(f"/api/games/{gid}", headers=auth(created["token"]))
        assert r.status_code == 200, r.text
        assert c.get(f"/api/games/{gid}").status_code == 404
        played = start(c, [{}, {}])
        assert add(c, played["game_id"], played["token"], 1).status_code == 200
        r = c.delete(f"/api/games/{played['game_id']}", headers=auth(played["token"]))
        assert r.status_code == 409 and "a person has played" in r.json()["error"]
