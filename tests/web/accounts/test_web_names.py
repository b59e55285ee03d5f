"""Names compared by their confusable skeleton (Unicode TS #39): no person poses as a
computer seat through look-alike letters, and a computer seat always reads as one."""

from __future__ import annotations

from pathlib import Path

import pytest
from confusable_homoglyphs.confusables import confusables_data
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from web_support import in_process_client

from kingscrib.terminal.controllers.kings import make_seats
from kingscrib.web.accounts.names import person_name, reads_as_computer, skeleton
from kingscrib.web.errors import WebError
from kingscrib.web.lobby import seeks

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.mark.parametrize("name", [
    "\u0421omput\u0435r",  # Cyrillic Es and Ie
    "C0MPUTER", "c0mputer", "COMPUTER", "CORNPUTER", "\u217domputer",  # small roman 100
    "\u0421\u043em\u0440ut\u0435r", "C\U0001d40eMPUTER",  # mathematical bold O
    "\u03f2omputer",  # Greek lunate sigma (NFKC would make it a sigma)
    "\uff23\uff2f\uff2d\uff30\uff35\uff34\uff25\uff32", "C o m p u t e r", "Co\u0308mputer",
])
def test_look_alikes_of_computer_are_refused_to_people(name: str) -> None:
    with pytest.raises(WebError) as e:
        person_name(name, "Player 1")
    assert e.value.status == 400 and "reads as a computer seat's name" in e.value.message


@pytest.mark.parametrize("name", ["Bob", "Zoë", "Ann-Marie", "Computo", "Компот", "Mario"])
def test_other_names_are_kept(name: str) -> None:
    assert person_name(name, "Player 1") == name


def test_digits_and_letters_that_look_alike_share_a_skeleton() -> None:
    assert skeleton("0") == skeleton("O") == skeleton("o")
    assert skeleton("1") == skeleton("l") == skeleton("I")
    assert skeleton("rn") == skeleton("m")
    assert skeleton("\u0420\u0430\u0443\u0440\u0430l") == skeleton("Paypal")  # Cyrillic
    assert skeleton("Bob") != skeleton("Rob")


def homoglyphs(letter: str) -> list[str]:
    """The letter's look-alikes as the confusable-homoglyphs package lists them (its own
    copy of Unicode's confusables data: a source independent of the skeleton's)."""
    found = {letter, letter.upper()}
    for key in (letter, letter.upper()):
        found |= {e["c"] for e in confusables_data.get(key, []) if len(e["c"]) == 1}
    return sorted(found)


COMPUTER_LOOK_ALIKE = st.tuples(*[st.sampled_from(homoglyphs(ch)) for ch in "computer"]).map(
    "".join)


# Drawing is cheap; the health check only trips when the machine is busy.
@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.text(alphabet="abdfghkvwxyz .'", max_size=6), COMPUTER_LOOK_ALIKE,
       st.text(alphabet="abdfghkvwxyz .'", max_size=6))
def test_every_mix_of_look_alike_letters_reads_as_a_computer(before: str, middle: str,
                                                             after: str) -> None:
    with pytest.raises(WebError):
        person_name(before + middle + after, "Player 1")


@given(st.text(alphabet="abdfghijkvwxyzABDFGHJKVWXYZ .'-", min_size=1, max_size=24))
def test_names_of_letters_unlike_computer_are_never_refused(name: str) -> None:
    assert not reads_as_computer(name)


# ----- computer seats ----------------------------------------------------------------------

@pytest.fixture
def client(tmp_path: Path):
    with in_process_client(f"sqlite:///{tmp_path / 'web.sqlite3'}") as c:
        yield c


def test_a_computer_seat_cannot_be_given_a_persons_name(client) -> None:
    r = client.post("/api/games", json={"seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "computer", "level": "greedy", "name": "Bob"}]})
    assert r.status_code == 400
    assert r.json()["error"] == ("seat 2 is a computer: it is named after its level "
                                 "('Computer (greedy)'); leave its name out")


def test_a_computer_seat_is_named_after_its_level(client) -> None:
    created = client.post("/api/games", json={"seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "computer", "level": "greedy"},
        {"kind": "computer", "level": "greedy", "name": "Computer 3 (greedy)"}]}).json()
    seats = created["state"]["seats"]
    # shown by the level's title (kingscrib.players.level_names); the level stays technical
    assert [(s["name"], s["kind"], s["level"], s["level_title"]) for s in seats] == [
        ("Ann", "human", None, None),
        ("Computer 2 (Greedy)", "computer", "greedy", "Greedy"),
        ("Computer 3 (Greedy)", "computer", "greedy", "Greedy")]


def test_a_computer_seat_is_stored_by_its_technical_level_and_shown_by_its_title(
        client) -> None:
    created = client.post("/api/games", json={"seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "computer", "level": "easy"}]}).json()
    assert created["state"]["seats"][1]["name"] == "Computer (Beginner)"
    stored = client.app.state.hub.store.load(created["game_id"])
    assert [(s.name, s.level) for s in stored.seats][1] == ("Computer (easy)", "easy")
    # a Cribbage table reads the same way, each seat numbered
    classic = client.post("/api/games", json={"game": "classic", "seats": [
        {"kind": "computer", "level": "hard"}, {"kind": "computer", "level": "hard"}]}).json()
    assert [s["name"] for s in classic["state"]["seats"]] == [
        "Computer 1 (Strong)", "Computer 2 (Strong)"]
    # as do the lobby's games to watch
    watched = {g["id"]: g["names"] for g in seeks.games_to_watch(client.app.state.hub.store)}
    assert watched[created["game_id"]] == ["Ann", "Computer (Beginner)"]


def test_a_stored_computer_seat_with_a_persons_name_is_shown_as_a_computer(client) -> None:
    # A game stored before computer seats were named after their level.
    created = client.post("/api/games", json={"seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "computer", "level": "greedy"}]}).json()
    hub = client.app.state.hub
    room = hub.rooms[created["game_id"]]
    room.seats[1].name = "Bob"
    room.game.forget_views()
    room.version += 1
    seats = client.get(f"/api/games/{created['game_id']}").json()["seats"]
    assert seats[1]["name"] == "Computer (Greedy)" and seats[1]["kind"] == "computer"


def test_the_terminal_calls_a_computer_seat_with_a_persons_name_a_computer() -> None:
    seats = make_seats(["human", "greedy"], ["Ann", "Bob"])
    assert seats[1].name == "Bob" and seats[1].tag == "(computer, Greedy)"
    assert make_seats(["human", "greedy"])[1].tag == "(Greedy)"  # "Computer" says it
    assert make_seats(["human", "easy"])[1].tag == "(Beginner)"
    assert make_seats(["human", "easy"])[1].level == "easy"  # what a save keeps


def test_replays_name_computer_seats_by_their_levels_title(client) -> None:
    from kingscrib.kings.game import Game
    from kingscrib.kings.record import game_to_record

    # a live Cribbage game, stepped through
    created = client.post("/api/games", json={"game": "classic", "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "computer", "level": "hard"}]}).json()
    steps = client.get(f"/api/games/{created['game_id']}/replay").json()
    assert [s["name"] for s in steps["seats"]] == ["Ann", "Computer (Strong)"]
    # a Kings record opened from a file keeps its names; the replay shows the title
    record = game_to_record(Game.new(["Ann", "Computer (greedy)"], seed=5),
                            [{"kind": "human"}, {"kind": "computer", "level": "greedy"}])
    replay = client.post("/api/games/replay", json=record).json()
    assert [s["name"] for s in replay["seats"]] == ["Ann", "Computer (Greedy)"]
    assert record["players"][1]["name"] == "Computer (greedy)"


def test_a_cribbage_table_names_its_sides_by_the_computers_level_titles(client) -> None:
    created = client.post("/api/games", json={"game": "classic", "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "computer", "level": "easy"}]}).json()
    state = client.get(f"/api/games/{created['game_id']}").json()
    assert [side["name"] for side in state["sides"]] == ["Ann", "Computer (Beginner)"]
    game = client.app.state.hub.rooms[created["game_id"]].game.game
    assert game.names == ["Ann", "Computer (easy)"]  # the engine (and the record) as stored
