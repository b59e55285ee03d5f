"""The terminal's layers: the session cores answer in plain data, and the views draw it."""

from __future__ import annotations

import subprocess
import sys

from rich.table import Table
from rich.text import Text

from kingscrib.terminal.controllers.classic import ClassicSession, PegBoard
from kingscrib.terminal.controllers.kings import (
    HELP_LINES,
    KingsRules,
    Seat,
    Session,
    TurnSaid,
)
from kingscrib.terminal.controllers.reply import ERROR, QUIET, STRONG, Help, Line, Reply
from kingscrib.terminal.views.lines import TONE_STYLE, line_text
from kingscrib.terminal.views.replies import plain_text, render_message, render_messages


def test_the_session_cores_import_neither_rich_nor_textual():
    code = ("import sys\n"
            "import kingscrib.terminal.controllers.kings, kingscrib.terminal.controllers.classic\n"
            "import kingscrib.terminal.controllers.draft\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'rich', 'textual'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_a_line_keeps_its_runs_and_tones_and_is_drawn_in_their_styles():
    line = Line.of("You played ").then("G7 across 78", STRONG).then(" (undo)", QUIET)
    assert line.plain == "You played G7 across 78 (undo)"
    drawn = line_text(line)
    assert drawn.plain == line.plain
    styles = {drawn.plain[s.start:s.end]: str(s.style) for s in drawn.spans}
    assert styles == {"G7 across 78": TONE_STYLE[STRONG], " (undo)": TONE_STYLE[QUIET]}
    error = Reply()
    error.error("no such square")
    [said] = error.messages
    assert said == Line.of("✗ no such square", ERROR)
    assert line_text(said).style == TONE_STYLE[ERROR]


def test_kings_replies_are_data_the_views_draw():
    session = Session.new([Seat("You"), Seat("Ann")], seed=3)
    assert session.handle("help").messages == [Help(HELP_LINES)]
    rules = session.handle("rules").messages
    assert rules == [KingsRules(session.game.rules)]
    [table] = render_messages(session.handle("rules"))
    assert isinstance(table, Table)
    assert "pass" in plain_text(session.handle("help"))
    session.handle("")  # the first player takes the keyboard
    name = session.to_move.name
    reply = session.handle("pass")
    said = [m for m in reply.messages if isinstance(m, TurnSaid)]
    assert len(said) == 1 and said[0].turn.action == "pass"
    assert f"{name} passed." in plain_text(reply)


def test_the_classic_peg_board_is_data_drawn_by_the_view(tmp_path, monkeypatch):
    monkeypatch.setenv("KINGSCRIB_DATA_DIR", str(tmp_path))
    session = ClassicSession.new(seed=5)
    board = session.peg_board()
    assert isinstance(board, PegBoard) and board.back == tuple(session.back_pegs)
    drawn = render_message(board)
    assert isinstance(drawn, Text) and "/121" in drawn.plain
