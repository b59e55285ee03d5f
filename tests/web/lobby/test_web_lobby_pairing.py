"""Play now's store call (kingscrib.web.lobby.seeks.pair): the oldest compatible seek's seat in
one call, with what its game is made of when that seat fills it."""

from __future__ import annotations

from pathlib import Path

import pytest

from kingscrib.web.db.storage import Store, hash_secret
from kingscrib.web.lobby import seeks


def person(name: str) -> seeks.Person:
    return seeks.Person(name, None, hash_secret(f"{name}'s browser secret"))


def wish(who: seeks.Person, players: int = 2) -> seeks.Wish:
    return seeks.check_wish("classic", players, {}, False, 300, None, False, None, None, who)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    s = Store(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    yield s
    s.close()


def test_pair_takes_the_oldest_compatible_seek_and_reads_its_game(store: Store) -> None:
    ann, bob, cid = person("Ann"), person("Bob"), person("Cid")
    older = seeks.post(store, wish(ann), ann, True, now=1000.0).seek["seek"]["id"]
    seeks.post(store, wish(bob), bob, True, now=2000.0)
    seeks.post(store, wish(bob, players=3), bob, True, now=500.0)  # other wishes: not it

    seated = seeks.pair(store, wish(cid), cid)

    assert seated is not None and seated.full and seated.seat == 1
    assert seated.seek["seek"]["id"] == older
    assert seated.start == seeks.start_of(store, older)
    assert [s["name"] for s in seated.start["seats"]] == ["Ann", "Cid"]
    assert seated.start["seats"][1]["ticket_hash"] == hash_secret(seated.ticket)
    assert seated.start["clock_seconds"] == 300


def test_pair_finds_nothing_for_ones_own_seek_or_other_wishes(store: Store) -> None:
    ann = person("Ann")
    seeks.post(store, wish(ann), ann, True)
    assert seeks.pair(store, wish(ann), ann) is None
    assert seeks.pair(store, wish(person("Bob"), players=4), person("Bob")) is None


def test_a_seat_that_does_not_fill_the_seek_has_no_start(store: Store) -> None:
    ann, bob = person("Ann"), person("Bob")
    seek_id = seeks.post(store, wish(ann, players=3), ann, True).seek["seek"]["id"]
    seated = seeks.pair(store, wish(bob, players=3), bob)
    assert seated is not None and not seated.full and seated.start is None
    assert [s["name"] for s in seated.seek["seek"]["seats"]] == ["Ann", "Bob"]
    assert seated.seek["seek"]["id"] == seek_id
