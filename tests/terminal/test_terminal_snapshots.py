"""Snapshot tests of the main screens of both full-screen games (pytest-textual-snapshot).

The SVG files under ``__snapshots__`` were looked at and accepted; a change to what a
screen shows makes these fail until the new screens are looked at and accepted again
with ``pytest --snapshot-update``."""

from __future__ import annotations

import pytest

from kingscrib.cli.classic import after_reply
from kingscrib.terminal import storage
from kingscrib.terminal.classic_app import ClassicApp
from kingscrib.terminal.controllers.classic import ClassicSession
from kingscrib.terminal.controllers.kings import THINKING, Seat, Session
from kingscrib.terminal.kings_app import KingsApp


@pytest.fixture(autouse=True)
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("KINGSCRIB_DATA_DIR", str(tmp_path))
    return tmp_path


async def settle(pilot) -> None:
    """Wait for the computer; a steady cursor, so no snapshot catches it mid-blink."""
    app = pilot.app
    app.query_one("#command").cursor_blink = False
    for _ in range(500):
        await pilot.pause(0.01)
        if not app.thinking and app.session.state != THINKING:
            return


def kings(seats=None, seed=9, plain=False) -> KingsApp:
    seats = seats or [Seat("You"), Seat("Computer", "computer", "greedy")]
    session = Session.new(seats, seed=seed)
    return KingsApp(session, lambda reply: storage.keep_what_a_reply_asks(session, reply),
                    plain=plain)


def played(line: str):
    async def run(pilot) -> None:
        await settle(pilot)
        await pilot.press(*[{" ": "space"}.get(c, c) for c in line], "enter")
        await settle(pilot)
    return run


OPENING = "d1 across 4 5 6 k k"  # seed 9: the first play of You's rack 4L 5L 6/9D KD KL


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
def test_kings_against_the_computer(snap_compare, size):
    assert snap_compare(kings(), terminal_size=size, run_before=played(OPENING))


def test_kings_without_colour(snap_compare):
    assert snap_compare(kings(plain=True), run_before=played(OPENING))


def test_kings_laying_tiles_with_the_keyboard(snap_compare):
    async def run(pilot) -> None:
        await settle(pilot)
        await pilot.press("tab", "left", "4", "5", "6")
        await pilot.pause(0.1)
    assert snap_compare(kings(), run_before=run)


def test_kings_hot_seat_handover(snap_compare):
    assert snap_compare(kings([Seat("Ann"), Seat("Bob")], seed=0), run_before=settle)


def test_classic_in_the_play(snap_compare):
    session = ClassicSession.new(seed=3, level="easy", muggins=True)
    app = ClassicApp(session, lambda reply: after_reply(session, reply))

    async def run(pilot) -> None:
        await settle(pilot)
        for line in ("#1 #2", "#1", "#1"):  # places, as the card grammar writes them
            await pilot.press(*[{" ": "space", "#": "number_sign"}.get(c, c) for c in line],
                              "enter")
            await settle(pilot)
        await pilot.pause(0.1)
    assert snap_compare(app, run_before=run)
