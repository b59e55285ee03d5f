"""One game id on the server: ``kings`` and ``cribbage`` (kingscrib.core.ids).

Requests may still name Cribbage ``classic`` (its older name, and what its game records
say): each place a game is named on the wire reads it as ``cribbage``, and every reply,
every stored row and every listing says ``cribbage``. A game record itself is unchanged:
Cribbage records still say ``"game": "classic"`` for older readers (RULES.md Part 3)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from web_support import in_process_client, table_rows

from kingscrib.classic.game import ClassicGame
from kingscrib.classic.rules import RuleSet
from kingscrib.web.db.tables import games
from kingscrib.web.errors import WebError
from kingscrib.web.play.games import game_kind, game_name, game_names, hosted_name

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SEATS = [{"name": "Ann"}, {"kind": "computer", "level": "easy"}]


@pytest.fixture()
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'web.sqlite3'}"


@pytest.fixture()
def client(url: str) -> Any:
    with in_process_client(url) as c:
        yield c


def test_the_hosted_games_are_kings_and_cribbage_and_classic_reads_as_cribbage() -> None:
    assert game_names() == ["kings", "cribbage"]
    for said in ("cribbage", "classic", " Classic ", "CRIBBAGE"):
        assert hosted_name(said) == game_name(said) == "cribbage"
        assert game_kind(said) is game_kind("cribbage")
    assert game_kind("cribbage").name == "cribbage"
    assert hosted_name("kings") == "kings"
    for wrong in ("chess", "", None, 3, "classics"):
        assert hosted_name(wrong) is None
    with pytest.raises(WebError) as refused:
        game_name("chess")
    assert refused.value.status == 400
    assert "choose from kings, cribbage (classic is read as cribbage)" in refused.value.message


@pytest.mark.parametrize("said", ["cribbage", "classic"])
def test_a_new_game_named_either_way_is_cribbage_in_its_reply_and_its_row(
        client: Any, url: str, said: str) -> None:
    r = client.post("/api/games", json={"game": said, "seed": 4, "seats": SEATS})
    assert r.status_code == 201, r.text
    game_id = r.json()["game_id"]
    assert r.json()["state"]["game"] == "cribbage"
    assert client.get(f"/api/games/{game_id}").json()["game"] == "cribbage"
    assert [row.game for row in table_rows(url, games) if row.id == game_id] == ["cribbage"]


def test_an_unknown_game_is_refused_naming_the_ids(client: Any) -> None:
    r = client.post("/api/games", json={"game": "chess", "seats": SEATS})
    assert r.status_code == 422
    assert "unknown game 'chess'; choose from kings, cribbage" in r.text


def test_the_levels_are_listed_under_cribbage(client: Any) -> None:
    meta = client.get("/api/levels").json()
    for key in ("games", "names", "gentle"):
        assert set(meta[key]) == {"kings", "cribbage"}


def test_a_cribbage_record_still_says_classic_and_replays_as_cribbage(client: Any) -> None:
    game = ClassicGame(RuleSet(players=2), seed=5)
    rng = random.Random(5)
    while game.phase != "over":
        seat = game.waiting_for()[0]
        game.apply(rng.choice(game.legal_for(seat)), seat)
    record = game.record()
    assert record["game"] == "classic"  # the record format is unchanged
    for said in ("classic", "cribbage"):
        r = client.post("/api/games/replay", json={**record, "game": said})
        assert r.status_code == 200, r.text
        assert r.json()["game"] == "cribbage"
        assert r.json()["end"]["scores"] == game.scores
