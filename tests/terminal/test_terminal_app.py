"""The full-screen game driven by Textual's pilot: whole games, the keyboard, the mouse,
the hot seat, keys typed while the computer thinks, at 80x24 and 160x50."""

from __future__ import annotations

import asyncio
import io
import json
import threading

import pytest
from rich.console import Console
from rich.text import Text

from kingscrib.kings.board import square_name
from kingscrib.kings.notation import format_play
from kingscrib.terminal import storage
from kingscrib.terminal.controllers.kings import HANDOVER, MOVE, OVER, THINKING, Seat, Session
from kingscrib.terminal.kings_app import KingsApp
from kingscrib.terminal.screens.handover import HandoverScreen
from kingscrib.terminal.widgets.message import message_line

SMALL, LARGE = (80, 24), (160, 50)


@pytest.fixture
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("KINGSCRIB_DATA_DIR", str(tmp_path))
    return tmp_path


def screen_text(app: KingsApp) -> str:
    """What the terminal shows now, as plain text."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", record=True, legacy_windows=False)
    console.print(app.screen._compositor.render_update(
        full=True, screen_stack=app._background_screens))
    return console.export_text(styles=False)


def vs_greedy(seed: int = 9, **kw) -> Session:
    return Session.new([Seat("You"), Seat("Computer", "computer", "greedy")], seed=seed, **kw)


def saving(session: Session):
    return lambda reply: storage.keep_what_a_reply_asks(session, reply)


async def settle(app: KingsApp, pilot) -> None:
    """Wait until no computer is thinking."""
    for _ in range(400):
        await pilot.pause(0.02)
        if not app.thinking and app.session.state != THINKING:
            return
    raise AssertionError("the computer never finished its turn")


async def until(pilot, ready) -> None:
    """Wait (a while at most) until ``ready()``: screens change after a refresh."""
    for _ in range(300):
        if ready():
            await pilot.pause(0.05)  # and drawn
            return
        await pilot.pause(0.01)
    raise AssertionError("the screen never got there")


def best_line(session: Session) -> str:
    """A legal line for the person to move: the top-scoring play, else exchange or pass."""
    game = session.game
    plays = game.legal_moves()
    if plays:
        return format_play(plays[0].play, game.board)
    if game.can_exchange(1):
        return f"x {game.racks[game.turn][0]}"
    return "pass"


async def type_line(pilot, text: str) -> None:
    await pilot.press(*[{" ": "space"}.get(ch, ch) for ch in text], "enter")


@pytest.mark.parametrize("size, whole", [(SMALL, True), (LARGE, False)])
def test_a_game_against_the_computer_on_one_screen(data, size, whole):
    session = vs_greedy(seed=9)
    app = KingsApp(session, saving(session))

    async def run():
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            first = screen_text(app)
            lines = first.splitlines()
            assert len(lines) == size[1]
            for needed in ("Kings Cribbage", "tiles in the bag", "You", "Computer",
                           "Your rack:", "Draw for first play", " A  B  C"):
                assert needed in first, needed
            if size == LARGE:
                assert "Moves" in first
            moves = 0
            while session.state != OVER and (whole or moves < 4):
                assert session.state == MOVE
                line = best_line(session)
                await type_line(pilot, line)
                await settle(app, pilot)
                moves += 1
                screen = screen_text(app)
                assert len(screen.splitlines()) == size[1]  # never scrolls
                if session.state == MOVE:
                    game = session.game
                    assert f"{game.tiles_in_bags} tile" in screen
                    assert "Last turn" in screen or "Since your last turn" in screen
                    rack_codes = " ".join(sorted(
                        ("6/9" + t.colour) if t.is_six_nine else str(t)
                        for t in game.racks[0]))
                    shown = [ln for ln in screen.splitlines() if ln.startswith("Your rack:")]
                    rack_line = shown[0].split("│")[0].rstrip()  # left of the history
                    assert shown and sorted(rack_line.split("   ")[-1].split()) == \
                        sorted(rack_codes.split())
                    for name, score in zip(("You", "Computer"), game.final_scores):
                        assert any(name in ln and f" {score} " in ln
                                   for ln in screen.splitlines()), (name, score)
                if size == LARGE and session.game.history:
                    assert "1. You:" in screen or "1. Computer:" in screen
            if not whole:
                return
            assert moves > 5
            end = screen_text(app)  # the result over the board
            winners = [session.seats[w].name for w in session.game.winners()]
            assert "Game over:" in end and any(f"{w}" in end for w in winners)
            assert "Press any key to go on." in end
            await pilot.press("space")
            assert "The game is over" in screen_text(app)
            # the finished game's record was kept and the autosave removed
            assert not storage.autosave_path().exists()
            records = list((data / "games").glob("*.json"))
            assert len(records) == 1
            record = json.loads(records[0].read_text())
            assert record["end"]["scores"] == session.finished[0]["end"]["scores"]

    asyncio.run(run())


def test_every_action_is_autosaved_and_resumes_exactly(data):
    session = vs_greedy(seed=9)
    app = KingsApp(session, saving(session))

    async def run():
        async with app.run_test(size=SMALL) as pilot:
            await settle(app, pilot)
            await type_line(pilot, best_line(session))
            await settle(app, pilot)
            saved = json.loads(storage.autosave_path().read_text())
            assert len(saved["game"]["turns"]) == 2
            await pilot.press("ctrl+q")
        resumed = Session.from_snapshot(saved)
        assert resumed.game.board == session.game.board
        assert resumed.game.racks == session.game.racks

    asyncio.run(run())


def test_keyboard_placement_with_live_preview(data):
    session = vs_greedy(seed=9)
    app = KingsApp(session, saving(session))
    expected = session.game.legal_moves()[0]

    async def run():
        async with app.run_test(size=SMALL) as pilot:
            await settle(app, pilot)
            await pilot.press("tab")
            assert app.focused is app.query_one("#board")
            squares = sorted(expected.play.placed)
            first = squares[0]
            # walk the cursor from G7 to the first square
            from kingscrib.kings.board import CENTRE, column_of, row_of
            dr, dc = row_of(first) - row_of(CENTRE), column_of(first) - column_of(CENTRE)
            await pilot.press(*(["down"] * dr if dr > 0 else ["up"] * -dr))
            await pilot.press(*(["right"] * dc if dc > 0 else ["left"] * -dc))
            if len(squares) > 1 and row_of(squares[0]) != row_of(squares[1]):
                await pilot.press("space")
            for i, square in enumerate(squares):
                tile = expected.play.placed[square]
                await pilot.press(str(tile)[0].lower())
                draft = app.draft.placed
                if draft[square].colour != tile.colour:
                    await pilot.press(tile.colour.lower())
                if i == 0:
                    assert square_name(square) in screen_text(app)
            screen = screen_text(app)
            assert f"= {expected.total}:" in screen  # the live preview
            await pilot.press("backspace")
            assert len(app.draft.placed) == len(squares) - 1
            last = squares[-1]
            await pilot.press(str(expected.play.placed[last])[0].lower())
            if app.draft.placed[last].colour != expected.play.placed[last].colour:
                await pilot.press(expected.play.placed[last].colour.lower())
            await pilot.press("enter")
            await settle(app, pilot)
            assert session.game.history[0].tiles == expected.play.placed
            assert session.game.history[0].score == expected.total

    asyncio.run(run())


def test_mouse_placement_click_a_rack_tile_then_a_square(data):
    session = vs_greedy(seed=9)
    app = KingsApp(session, saving(session))
    expected = session.game.legal_moves()[0]

    async def run():
        async with app.run_test(size=SMALL) as pilot:
            await settle(app, pilot)
            for square, tile in sorted(expected.play.placed.items()):
                left = sorted(app.draft.left_on_rack(session.game.racks[0]),
                              key=lambda t: (t.rank, t.colour))
                index = left.index(tile.held())
                assert any(ln.startswith("Your rack:") for ln in screen_text(app).splitlines())
                x = len("Your rack: ") + sum(len(f" {'6/9' if t.is_six_nine else 'x'} ") + 1
                                             for t in left[:index]) + 1
                await pilot.click("#rack", offset=(x, 0))
                assert app.draft.selected == index
                from kingscrib.kings.board import column_of, row_of
                await pilot.click("#board", offset=(4 + 3 * column_of(square) + 1,
                                                    1 + row_of(square)))
                placed = app.draft.placed[square]
                if placed.rank != tile.rank:  # a 6/9 laid as the other face: turn it
                    await pilot.press("slash")
                    assert app.draft.placed[square] == tile
            await pilot.press("enter")
            await settle(app, pilot)
            assert session.game.history[0].tiles == expected.play.placed

    asyncio.run(run())


class _Waiting:
    """A computer player that thinks until the test lets it go."""

    name = "waiting"

    def __init__(self, inner, go: threading.Event) -> None:
        self.inner, self.go = inner, go

    def choose(self, view):
        self.go.wait(10)
        return self.inner.choose(view)

    def claim(self, view, play):
        return self.inner.claim(view, play)

    def calls_joker(self, view, missed):
        return False


def test_keys_typed_while_the_computer_thinks_are_discarded(data):
    session = vs_greedy(seed=9)
    go = threading.Event()
    session.players[1] = _Waiting(session.players[1], go)
    app = KingsApp(session, saving(session))

    async def run():
        async with app.run_test(size=SMALL) as pilot:
            await settle(app, pilot)
            await type_line(pilot, best_line(session))
            await pilot.pause(0.05)
            assert app.thinking
            assert "thinking" in screen_text(app)
            await type_line(pilot, "pass")  # typed while the computer thinks
            await pilot.press("tab", "5", "enter")
            go.set()
            await settle(app, pilot)
            await pilot.pause(0.1)
            assert [t.player for t in session.game.history] == [0, 1]
            assert app.query_one("#command").value == ""
            assert not app.draft.placed

    asyncio.run(run())


def test_hot_seat_hands_over_on_a_blank_screen(data):
    session = Session.new([Seat("Ann"), Seat("Bob")], seed=0)
    app = KingsApp(session, saving(session))

    async def run():
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: isinstance(app.screen, HandoverScreen))
            screen = screen_text(app)
            assert "Pass the keyboard to" in screen
            assert "rack" not in screen and " A  B  C" not in screen
            await pilot.press("enter")
            assert session.state == MOVE
            mover = session.to_move.name
            assert f"{mover}'s rack:" in screen_text(app)
            await type_line(pilot, best_line(session))
            await until(pilot, lambda: isinstance(app.screen, HandoverScreen))
            assert session.state == HANDOVER
            screen = screen_text(app)
            assert "rack" not in screen and all(
                str(t) not in screen for t in session.game.racks[session.game.turn])
            await pilot.press("enter")
            assert f"{session.to_move.name}'s rack:" in screen_text(app)

    asyncio.run(run())


def test_no_colour_shows_light_and_dark_as_letters(data):
    session = vs_greedy(seed=9)
    app = KingsApp(session, saving(session), plain=True)

    async def run():
        async with app.run_test(size=SMALL) as pilot:
            await settle(app, pilot)
            await type_line(pilot, best_line(session))
            await settle(app, pilot)
            screen = screen_text(app)
            rows = screen.splitlines()[1:14]
            from kingscrib.kings.board import column_of, row_of
            for square, tile in session.game.board.items():
                cell = rows[row_of(square)][4 + 3 * column_of(square):][:3]
                assert cell[1:] == f"{str(tile)[0]}{tile.colour}", (square_name(square), cell)
            rack_line = next(ln for ln in screen.splitlines() if ln.startswith("Your rack:"))
            assert all(str(t.held()).replace("6", "6/9") in rack_line
                       for t in session.game.racks[0])

    asyncio.run(run())


def test_hint_help_and_errors_leave_the_board_in_place(data):
    session = vs_greedy(seed=9)
    app = KingsApp(session, saving(session))

    async def run():
        async with app.run_test(size=SMALL) as pilot:
            await settle(app, pilot)
            await type_line(pilot, "G7 across Z")
            screen = screen_text(app)
            assert "cannot read 'Z'" in screen and " A  B  C" in screen
            await type_line(pilot, "hint")
            assert "Best options by equity" in screen_text(app)
            await pilot.press("space")
            assert "Best options by equity" not in screen_text(app)
            assert " A  B  C" in screen_text(app)
            assert not session.game.history

    asyncio.run(run())


# ----- the draft: the rules of laying tiles with keys and clicks -------------------------

def _tiles(*codes):
    from kingscrib.kings.tiles import Tile
    return [Tile.parse(c) for c in codes]


def test_draft_cursor_stays_on_the_board_and_out_of_the_corner():
    from kingscrib.kings.board import PLAYABLE, parse_square
    from kingscrib.terminal.controllers.draft import Draft

    d = Draft()
    for _ in range(20):
        d.move(-1, -1)
        assert d.cursor in PLAYABLE
    d.cursor = parse_square("D1")
    d.move(0, -1)  # C1 is the corner patch: the cursor does not enter it
    assert d.cursor in PLAYABLE and square_name(d.cursor) != "C1"
    d.cursor = parse_square("M13")
    d.move(5, 5)
    assert square_name(d.cursor) == "M13"


def test_draft_lays_ranks_from_the_rack_and_says_what_it_is_worth():
    from kingscrib.kings.board import parse_square
    from kingscrib.kings.play import check_play
    from kingscrib.terminal.controllers.draft import Draft

    rack = _tiles("7L", "7D", "8D", "KL", "2L")
    d = Draft()
    assert d.place_rank("7", {}, rack) is None
    assert d.place_rank("8", {}, rack) is None
    assert d.place_rank("7", {}, rack) is None
    assert d.place_rank("7", {}, rack) == "there is no 7 left on your rack"
    assert d.placed[parse_square("G7")] == _tiles("7L")[0]  # the light one first
    assert d.recolour("L", rack) == "your rack has no 7L left"
    d.take_back()
    assert d.cursor == parse_square("I7") and len(d.placed) == 2
    d.place_rank("7", {}, rack)
    assert d.notation({}) == "G7 across 7L 8D 7D"
    total = check_play({}, d.placed).total
    assert d.preview({}).startswith(f"G7 across 7L 8D 7D = {total}:")
    assert d.recolour("L", rack) == "your rack has no 7L left"  # the 7L is on G7
    assert d.recolour("D", rack) is None  # already dark: nothing to do
    d.clear()
    assert d.preview({}) == "" and d.notation({}) is None


def test_draft_steps_over_tiles_on_the_board_and_refuses_taken_squares():
    from kingscrib.kings.board import parse_square
    from kingscrib.terminal.controllers.draft import Draft

    board = {parse_square("H7"): _tiles("8L")[0]}
    rack = _tiles("7L", "7D", "AL", "KD", "4L")
    d = Draft()
    d.place_rank("7", board, rack)
    assert square_name(d.cursor) == "I7"  # over the 8 on H7
    d.cursor = parse_square("H7")
    assert "H7 already holds 8L" in d.place_rank("A", board, rack)
    d.cursor = parse_square("I7")
    d.place_rank("7", board, rack)
    assert d.notation(board) == "G7 across 7L (8L) 7D"
    d.place(_tiles("4L")[0], board, parse_square("G9"))
    assert "one row or one column" in d.preview(board)


def test_joker_rule_a_play_laid_on_the_board_asks_for_the_claim(data):
    from kingscrib.kings.rules import RuleSet

    session = Session.new([Seat("You"), Seat("Computer", "computer", "greedy")],
                          RuleSet(joker=True), seed=9)
    app = KingsApp(session, saving(session))
    expected = session.game.legal_moves()[0]

    async def run():
        async with app.run_test(size=SMALL) as pilot:
            await settle(app, pilot)
            await type_line(pilot, format_play(expected.play, {}))
            assert "Claim how many points?" in screen_text(app)
            await type_line(pilot, str(expected.total))
            await settle(app, pilot)
            assert session.game.history[0].claimed == expected.total
            assert len(session.game.history) == 2

    asyncio.run(run())


def test_a_whole_hot_seat_game_never_shows_a_rack_on_the_handover_screen(data):
    session = Session.new([Seat("Ann"), Seat("Bob")], seed=0)
    app = KingsApp(session, saving(session))

    async def run():
        async with app.run_test(size=SMALL) as pilot:
            turns = 0
            while session.state != OVER and turns < 200:
                await until(pilot, lambda: isinstance(app.screen, HandoverScreen))
                assert session.state == HANDOVER
                screen = screen_text(app)
                assert "Pass the keyboard to" in screen and "rack" not in screen
                await pilot.press("enter")
                assert session.state == MOVE
                # the line is put in the command line whole (typing is tested above)
                app.query_one("#command").value = best_line(session)
                await pilot.press("enter")
                await until(pilot, lambda: session.state in (HANDOVER, OVER))
                turns += 1
            assert session.state == OVER and turns > 5
            assert not storage.autosave_path().exists()

    asyncio.run(run())


def test_between_the_games_of_a_match_the_next_one_starts_on_a_key(data):
    session = Session.new([Seat("You"), Seat("Computer", "computer", "greedy")], seed=9,
                          games=2)
    session.between_games = True  # as after the first game's end
    app = KingsApp(session, saving(session))

    async def run():
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: "Press Enter to start game 1 of 2" in screen_text(app))
            await pilot.press("enter")
            await settle(app, pilot)
            assert not session.between_games
            assert "game 1 of 2" in screen_text(app)

    asyncio.run(run())


def test_the_message_line_keeps_whole_parts_and_marks_what_is_left_out():
    short = [Text("Computer played E7 for 14."), Text("Your move.\nsecond line")]
    assert message_line(short, 80).plain == "Computer played E7 for 14.  Your move."
    # the coach's advice: three sentences of 70 characters on two rows of 80
    advice = [Text("a" * 10 + " " + "b" * 59) for _ in range(3)]
    line = message_line(advice, 80)
    assert line.plain == advice[0].plain + "  " + advice[1].plain + " …"
    # the first part is always shown, however long (the line wraps it)
    assert message_line([Text("x" * 300), Text("y")], 80).plain == "x" * 300 + " …"
    assert message_line([], 80).plain == ""
