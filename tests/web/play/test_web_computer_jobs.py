"""What a game of computers only sends to its worker process for each move: the seat's
view, its player and a function named by reference; never the whole session, nor the
shipped leave table's cache of every leave seen so far in the server."""

from __future__ import annotations

import pickle

import pytest

from kingscrib.players.kings.leaves import LeaveTable, shipped
from kingscrib.web.play.computers import computer_move as _computer_move
from kingscrib.web.play.games.cribbage import CRIBBAGE
from kingscrib.web.play.games.kings import KINGS


def played(game, level: str, turns: int):  # noqa: ANN001, ANN201
    session = game.create(game.check_rules({}, 2), 5, ["A", "B"])
    players = [game.make_player(level, 5), game.make_player(level, 6)]
    for _ in range(turns):
        seat = session.waiting()[0]
        session.apply(seat, session.computer_action(seat, players[seat],
                                                    session.computer_input(seat)))
    return session, players


def test_the_shipped_leave_table_travels_by_name_without_its_cache() -> None:
    table = shipped()
    played(KINGS, "expert", 2)  # the expert fills the shared table's cache
    assert len(table._cache) > 100
    sent = pickle.dumps(table)
    assert len(sent) < 200
    assert pickle.loads(sent) is table  # the receiving process's own shipped table


def test_another_leave_table_travels_whole_and_values_the_same() -> None:
    table = LeaveTable(tuple(0.5 + i / 10 for i in range(len(shipped().weights))),
                       {"trained": True}, (("55", 1.25),))
    copy = pickle.loads(pickle.dumps(table))
    assert copy is not table and copy == table
    key = ((5, "red"), (5, "blue"))
    assert copy.value_key(key) == table.value_key(key)


@pytest.mark.parametrize("game", [KINGS, CRIBBAGE], ids=["kings", "classic"])
def test_a_computers_move_job_carries_no_session(game) -> None:  # noqa: ANN001
    session, players = played(game, "expert", 3)
    seat = session.waiting()[0]
    job = (_computer_move, session.computer_action, seat, players[seat],
           session.computer_input(seat))
    sent = pickle.dumps(job)
    assert len(pickle.dumps(session.computer_action)) < 200
    assert len(sent) < 20_000  # the view and the player only (a session is far larger)
    fn, act, *args = pickle.loads(sent)
    action, _player = fn(act, *args)
    session.apply(seat, action)  # what came back is a legal move of this game
