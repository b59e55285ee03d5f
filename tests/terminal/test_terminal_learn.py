"""`kingscrib learn` in the terminal: snapshots at 80x24 (looked at and accepted), a
lesson played through by the keys, and the progress file."""

from __future__ import annotations

import asyncio
import json

import pytest

from kingscrib.cli import learn as learn_command
from kingscrib.learn import lessons
from kingscrib.learn import progress as learn_progress
from kingscrib.terminal.learn_app import LearnApp


@pytest.fixture(autouse=True)
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("KINGSCRIB_DATA_DIR", str(tmp_path))
    return tmp_path


def app_of(game: str = "kings") -> LearnApp:
    saved, problem = learn_command.read_progress()
    return LearnApp(game, saved, None if problem else learn_command.write_progress,
                    notice=problem)


async def typed(pilot, line: str) -> None:
    await pilot.press(*[{" ": "space"}.get(c, c) for c in line], "enter")
    await pilot.pause()


def test_the_lesson_list(snap_compare):
    assert snap_compare(app_of(), terminal_size=(80, 24))


def test_a_kings_lesson_answered(snap_compare):
    async def run(pilot) -> None:
        await pilot.press("down", "enter")
        await pilot.pause()
        await typed(pilot, "I7 across 3 3")
    assert snap_compare(app_of(), terminal_size=(80, 24), run_before=run)


def test_a_cribbage_count_answered_wrong(snap_compare):
    async def run(pilot) -> None:
        await pilot.press("enter")
        await pilot.pause()
        await typed(pilot, "4")
    assert snap_compare(app_of("cribbage"), terminal_size=(80, 24), run_before=run)


def test_a_lesson_played_through_is_remembered(data):
    asyncio.run(asyncio.wait_for(play_the_first_lesson(data), 60))


async def play_the_first_lesson(data) -> None:
    first = lessons("kings")[0]
    app = app_of()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        await typed(pilot, "H7 across 6 6")  # refused: the K scores nothing
        assert "scores nothing" in str(app.screen.query_one("#said").render())
        assert not (data / learn_command.PROGRESS_NAME).exists()
        for step in first.steps:
            await typed(pilot, step.intended)
            await typed(pilot, "")  # Enter: on to the next step, or back to the list
        assert type(app.screen).__name__ == "LessonList"
    saved = json.loads((data / learn_command.PROGRESS_NAME).read_text())
    assert saved["kings"] == [first.id] and saved["format"] == learn_progress.FORMAT
    again = app_of()
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "✓ 1. A valid hand" in str(again.screen.query_one("#lessons")
                                          .get_option_at_index(0).prompt)


def test_an_unreadable_progress_file_is_said_and_left_alone(data):
    asyncio.run(asyncio.wait_for(keep_the_unreadable_file(data), 60))


async def keep_the_unreadable_file(data) -> None:
    path = data / learn_command.PROGRESS_NAME
    path.write_text('{"kings": "not a list"}')
    app = app_of()
    assert app.save is None and "cannot be read" in app.notice
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        for step in lessons("kings")[0].steps:
            await typed(pilot, step.intended)
            await typed(pilot, "")
    assert path.read_text() == '{"kings": "not a list"}'


def kings_game():
    from test_terminal_snapshots import kings
    return kings()


async def rules_shown(pilot) -> None:
    from test_terminal_snapshots import settle
    await settle(pilot)
    await typed(pilot, "rules")
    await pilot.pause(0.2)


def test_the_rules_screen_at_80x24_shows_that_it_scrolls(snap_compare):
    assert snap_compare(kings_game(), terminal_size=(80, 24), run_before=rules_shown)


def test_the_rules_screen_scrolled_to_its_end(snap_compare):
    async def run(pilot) -> None:
        await rules_shown(pilot)
        await pilot.press("end")
        await pilot.pause(0.2)
    assert snap_compare(kings_game(), terminal_size=(80, 24), run_before=run)


def test_the_lessons_line_by_line_through_a_pipe(data):
    from click.testing import CliRunner
    answers = "H7 across 6 6\nhint\nH7 across 6 9 K\nF7 J\nskip\nG8 8\nquit\n"
    result = CliRunner().invoke(learn_command.learn, [], input=answers)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Lesson 1: A valid hand" in out and "crossword" in out
    assert "✗ Not allowed" in out and "scores nothing" in out
    assert "Hint: Your two 6/9 tiles" in out
    assert "K69K = 4 (fifteens 2, pairs 2)" in out and "5L" in out  # tiles as codes
    assert "Lesson 2: Laying a hand on the board" in out
    saved = json.loads((data / learn_command.PROGRESS_NAME).read_text())
    assert saved["kings"] == ["valid-hands"]  # lesson 2 had a step skipped: not finished
