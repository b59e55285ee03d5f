"""The words and the notation a newcomer meets: the help explains the compact notation
of tiles and the words of hints and puzzles; a hint's table says where, and its headers
are never cut in 80 columns."""

from __future__ import annotations

import io

from rich.console import Console

from kingscrib.terminal.controllers.classic import ClassicSession
from kingscrib.terminal.controllers.kings import Help, Hints, Seat, Session
from kingscrib.terminal.views.kings import render_message
from kingscrib.terminal.views.replies import plain_text


def test_the_help_explains_the_notation_and_the_words_of_hints():
    session = Session.new([Seat("You"), Seat("Computer", "computer", "greedy")], seed=9)
    reply = session.handle("help")
    assert any(isinstance(m, Help) for m in reply.messages)
    text = plain_text(reply)
    assert "7A7A" in text and "T (ten)" in text
    for word in ("equity", "leave", "reply", "play-out"):
        assert any(line.split()[:1] == [word] for line in text.splitlines()), word


def test_hint_headers_are_whole_in_80_columns_and_point_to_the_words():
    session = Session.new([Seat("You"), Seat("Computer", "computer", "greedy")], seed=9)
    reply = session.handle("hint")
    hints = next(m for m in reply.messages if isinstance(m, Hints))
    console = Console(width=70, file=io.StringIO(), record=True)  # the help box at 80x24
    console.print(render_message(hints))
    shown = console.export_text()
    header = next(line for line in shown.splitlines() if line.split()[:1] == ["option"])
    assert header.split() == ["option", "points", "leave", "reply", "equity"]
    assert "…" not in shown and "F1 (help)" in shown


def test_the_equity_the_hint_shows_is_what_its_caption_and_the_help_say():
    """The caption's and the help's formula, read as written, gives each row's equity
    from the row's own points, leave and reply."""
    import re

    session = Session.new([Seat("You"), Seat("Computer", "computer", "greedy")], seed=9)
    reply = session.handle("hint")
    hints = next(m for m in reply.messages if isinstance(m, Hints))
    console = Console(width=100, file=io.StringIO(), record=True)
    console.print(render_message(hints))
    rows = console.export_text().splitlines()
    caption = next(line for line in rows if line.startswith("equity ="))
    help_text = " ".join(plain_text(session.handle("help"), width=200).split())
    shares = set()
    for text in (caption, help_text, plain_text(reply, width=200)):
        found = re.search(r"leave - ([0-9.]+) x (the )?reply|kept - ([0-9.]+) x", text)
        assert found, text
        shares.add(float(found.group(1) or found.group(3)))
    assert len(shares) == 1
    share = shares.pop()
    checked = 0
    for row in rows:
        numbers = re.findall(r"\s([+-]?\d+(?:\.\d)?)(?=\s|$)", row)
        if len(numbers) >= 4 and not row.startswith("equity"):
            points, leave, reply_, equity = map(float, numbers[-4:])
            assert abs(points + leave - share * reply_ - equity) <= 0.11, row
            checked += 1
    assert checked == len(hints.options)


CRIBBAGE_WORDS = ("expected", "hand", "crib", "pegging", "chance to win")


def test_the_cribbage_help_has_the_words_of_its_hints():
    reply = ClassicSession.new(seed=3, level="easy").handle("help")
    assert any(isinstance(m, Help) for m in reply.messages)
    lines = plain_text(reply, width=78).splitlines()
    for word in CRIBBAGE_WORDS:
        said = [line for line in lines if line.strip().startswith(word + " ")]
        assert said and len(said[0].split()) > len(word.split()) + 3, word  # with what it means
    entries = [li.split()[0] for li in lines if li.startswith("  ") and li[2] != " "]
    assert entries[-1] == "quit"  # quit stays the last line


def test_cribbage_hints_and_the_coach_point_to_the_words():
    session = ClassicSession.new(seed=1, level="easy")  # the person lays away first
    assert session.game.phase == "discard" and session.game.to_act == 0
    for command in ("hint", "coach"):
        text = plain_text(session.handle(command), width=78)
        assert "F1 (help)" in text, command
        for word in CRIBBAGE_WORDS:
            assert word in text.split("F1 (help)")[1], (command, word)


def test_the_message_line_uses_the_rows_a_tall_terminal_leaves():
    import asyncio

    from rich.text import Text

    from kingscrib.terminal.kings_app import KingsApp

    session = Session.new([Seat("You"), Seat("Computer", "computer", "greedy")], seed=9)
    app = KingsApp(session, lambda reply: [])
    long = [Text(f"part {n} " + "word " * 20) for n in range(12)]

    async def run():
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            message = app.query_one("#message")
            assert message.size.height > 10  # not 2 rows above 20 empty ones
            from kingscrib.terminal.widgets.message import message_line
            shown = message_line(long, message.size.width, message.size.height)
            assert "part 11" in shown.plain and "…" not in shown.plain

    asyncio.run(asyncio.wait_for(run(), 60))


def guided_app():
    from kingscrib.terminal.kings_app import KingsApp
    session = Session.new([Seat("You"), Seat("Computer", "computer", "greedy")], seed=9)
    return KingsApp(session, lambda reply: [], first_move_guide=True)


def test_a_newcomer_s_first_game_shows_the_first_move_guide_once(tmp_path, monkeypatch):
    import asyncio

    from kingscrib.terminal.screens.info import InfoScreen
    monkeypatch.setenv("KINGSCRIB_DATA_DIR", str(tmp_path))

    async def run(first: bool):
        app = guided_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.2)
            assert isinstance(app.screen, InfoScreen) == first
            if first:
                text = " ".join(str(app.screen.query_one("Static").render()).split())
                assert "Your first move" in text and "G7 across 7 8" in text
                await pilot.press("space")  # any key puts it away
                await pilot.pause(0.1)
                assert not isinstance(app.screen, InfoScreen)

    asyncio.run(asyncio.wait_for(run(True), 60))
    asyncio.run(asyncio.wait_for(run(False), 60))  # not shown again


def test_the_first_move_guide_snapshot(snap_compare, tmp_path, monkeypatch):
    monkeypatch.setenv("KINGSCRIB_DATA_DIR", str(tmp_path))
    assert snap_compare(guided_app(), terminal_size=(80, 24))


def test_the_cribbage_discard_hints_title_and_headers_are_whole():
    from kingscrib.terminal.controllers.classic import DiscardHints
    from kingscrib.terminal.views.classic import discard_hints_table

    session = ClassicSession.new(seed=1, level="easy")
    hints = next(m for m in session.handle("hint").messages if isinstance(m, DiscardHints))
    console = Console(width=70, file=io.StringIO(), record=True)  # the help box at 80x24
    console.print(discard_hints_table(hints))
    shown = console.export_text().splitlines()
    assert shown[0].strip() == "Best discards (expected points)"
    assert shown[1].split() == ["lay", "away", "hand", "crib"]
