"""The end of a game in both full-screen games: who won in good grammar, where the record
was saved, no prompt to move, and a rematch by the key the footer names; snapshots of the
end at 80x24 and 120x40 (looked at and accepted)."""

from __future__ import annotations

import asyncio
import copy
import shutil
from pathlib import Path

import pytest
from rich.console import Console

from kingscrib.classic.game import ClassicGame
from kingscrib.classic.rules import RuleSet
from kingscrib.cli.classic import after_reply
from kingscrib.terminal import storage
from kingscrib.terminal.classic_app import ClassicApp
from kingscrib.terminal.controllers.classic import ClassicSession
from kingscrib.terminal.controllers.kings import MOVE, OVER, THINKING, Seat, Session
from kingscrib.terminal.kings_app import KingsApp

SNAPSHOT_DATA = Path("/tmp/kingscrib-end")  # the path the snapshots show


@pytest.fixture(autouse=True)
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("KINGSCRIB_DATA_DIR", str(tmp_path))
    monkeypatch.setattr(storage.time, "strftime", lambda _: "20261127-120000")
    return tmp_path


def ends_after(session, line: str) -> bool:
    trial = copy.deepcopy(session)
    trial.handle(line)
    while trial.state == THINKING:
        trial.computer_turn()
    return trial.state == OVER


def kings_one_move_from_the_end():
    """Seed 9, You passing every turn: the computer plays the game out."""
    session = Session.new([Seat("You"), Seat("Computer", "computer", "greedy")], seed=9)
    while True:
        if session.state == THINKING:
            session.computer_turn()
        elif ends_after(session, "pass"):
            return session, "pass"
        else:
            session.handle("pass")


def a_legal_line(session) -> str:
    discard = session.game.phase == "discard"
    for k in range(1, 7):
        line = f"#{k} #{k + 1}" if discard else f"#{k}"
        trial = copy.deepcopy(session)
        before = (len(trial.game.events), trial.game.phase, trial.game.to_act)
        trial.handle(line)
        if (len(trial.game.events), trial.game.phase, trial.game.to_act) != before:
            return line
    raise AssertionError(session.prompt())


def classic_one_move_from_the_end(players=2):
    session = ClassicSession.new(players=players, seed=3, level="easy")
    while True:
        if session.state == THINKING:
            session.computer_turn()
            continue
        line = a_legal_line(session)
        if ends_after(session, line):
            return session, line
        session.handle(line)


def screen_text(app) -> str:
    console = Console(width=app.size.width, record=True, color_system=None,
                      file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(app.screen._compositor.render_update(
        full=True, screen_stack=app._background_screens))
    return console.export_text(styles=False)


async def settle(pilot) -> None:
    app = pilot.app
    app.query_one("#command").cursor_blink = False
    for _ in range(500):
        await pilot.pause(0.01)
        if not app.thinking and app.session.state != THINKING:
            return


def typed(line: str):
    async def run(pilot) -> None:
        await settle(pilot)
        await pilot.press(*[{" ": "space", "#": "number_sign"}.get(c, c) for c in line],
                          "enter")
        await settle(pilot)
        await pilot.press("escape")  # the result over the board goes
        await pilot.pause(0.2)
    return run


def kings_app():
    session, last = kings_one_move_from_the_end()
    return KingsApp(session, lambda reply: storage.keep_what_a_reply_asks(session, reply)), last


def classic_app():
    session, last = classic_one_move_from_the_end()
    return ClassicApp(session, lambda reply: after_reply(session, reply)), last


async def end_then_rematch(make, data) -> None:
    app, last = make()
    async with app.run_test(size=(80, 24)) as pilot:
        await typed(last)(pilot)
        assert app.session.state == OVER
        screen = screen_text(app)
        saved = sorted((data / "games").glob("*.json"))
        assert len(saved) == 1
        assert "The game is over: Ctrl+R a rematch · Ctrl+Q leave." in screen
        assert f"Record saved: {saved[0]}" in screen
        assert "your move" not in screen.lower() and " wins!" not in screen.replace(
            "computer wins!", "").replace("Computer wins", "")
        assert screen.rstrip().splitlines()[-1].startswith("Ctrl+R a rematch")
        seed = app.session.game.seed
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert app.session.state == MOVE and app.session.game.seed != seed
        screen = screen_text(app)
        assert "The game is over" not in screen and "record saved" not in screen


@pytest.mark.parametrize("make", [kings_app, classic_app], ids=["kings", "cribbage"])
def test_the_end_says_where_the_record_is_and_ctrl_r_starts_a_rematch(make, fixed_data):
    asyncio.run(asyncio.wait_for(end_then_rematch(make, fixed_data), 120))


def test_the_winner_is_said_in_good_grammar():
    def winner(names, players, side):
        game = ClassicGame(RuleSet(players=players), seed=1, names=names)
        game._add(side, 121, "peg", "")
        return game.events[-1].text
    assert winner(["you", "computer"], 2, 0) == "you win"
    assert winner(["you", "computer"], 2, 1) == "computer wins"
    assert winner(["you", "computer 1", "computer 2", "computer 3"], 4, 1) == \
        "computer 1 & computer 3 win"


@pytest.fixture
def fixed_data(monkeypatch):
    shutil.rmtree(SNAPSHOT_DATA, ignore_errors=True)
    monkeypatch.setenv("KINGSCRIB_DATA_DIR", str(SNAPSHOT_DATA))
    yield SNAPSHOT_DATA
    shutil.rmtree(SNAPSHOT_DATA, ignore_errors=True)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize("make", [kings_app, classic_app], ids=["kings", "cribbage"])
def test_the_end_of_a_game_snapshot(snap_compare, fixed_data, make, size):
    app, last = make()
    assert snap_compare(app, terminal_size=size, run_before=typed(last))


def four_players() -> ClassicApp:
    session = ClassicSession.new(players=4, seed=3, level="easy")
    return ClassicApp(session, lambda reply: after_reply(session, reply))


def test_a_four_player_board_tells_partners_apart():
    from kingscrib.terminal.views.classic import peg_board
    game = ClassicSession.new(players=4, seed=3, level="easy").game
    rows = peg_board(game, [0, 0]).plain.splitlines()
    # you sit with computer 2, against computer 1 and computer 3 (seats 0 2 and 1 3)
    assert rows[0].split()[0] == "you" and rows[1].lstrip().startswith("& comp 2 ")
    assert rows[2].lstrip().startswith("comp 1 ") and rows[3].lstrip().startswith("& comp 3 ")
    assert all(len(row) <= 80 for row in rows)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_a_four_player_table_snapshot(snap_compare, size):
    async def run(pilot) -> None:
        await settle(pilot)
        await pilot.pause(0.1)
    assert snap_compare(four_players(), terminal_size=size, run_before=run)
