"""Friendly computer levels where people choose them: titles and one line each in the
--help texts, titles accepted as the technical names are, a gentle default opponent,
and the goal of the game on the terminal's first screen."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kingscrib.cli.classic import autosave_path, classic
from kingscrib.cli.play import play
from kingscrib.players.level_names import GENTLE_DEFAULT, NAMES
from kingscrib.terminal.controllers.kings import Session, make_seats
from kingscrib.terminal.views import kings as kings_view


@pytest.fixture
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("KINGSCRIB_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("COLUMNS", "100")
    return tmp_path


def levels_saved(data) -> list[str | None]:
    saved = json.loads((data / "autosave-kings.json").read_text())
    return [p.get("level") for p in saved["game"]["players"]]


def test_the_help_texts_list_each_level_by_title_with_its_line():
    for command, args, game in ((play, ["--help"], "kings"),
                                (classic, ["play", "--help"], "cribbage")):
        text = CliRunner().invoke(command, args).output
        shown = [name for name in NAMES[game] if f"{name.title} ({name.level}): " in text]
        assert shown and all(name.line in text for name in shown)
        assert "Beginner (easy): " in text
        assert "gentle first opponent" in text


@pytest.mark.parametrize(("args", "levels"), [
    ([], [None, GENTLE_DEFAULT]),  # nobody chose: the gentle one
    (["--level", "Strong"], [None, "hard"]),
    (["--level", "planner"], [None, "equity"]),
    (["--level", "sim"], [None, "sim"]),  # the technical names stay accepted
    (["--seat", "human", "--seat", "Casual", "--seat", "greedy"], [None, "medium", "greedy"]),
])
def test_titles_are_accepted_as_the_technical_names_are(data, args, levels):
    result = CliRunner().invoke(play, [*args, "--line", "--seed", "3"], input="quit\n")
    assert result.exit_code == 0, result.output
    assert levels_saved(data) == levels


def test_an_unknown_level_is_refused_with_the_titles(data):
    result = CliRunner().invoke(play, ["--level", "grandmaster", "--line"], input="quit\n")
    assert result.exit_code == 2
    assert "unknown level 'grandmaster'" in result.output and "Beginner (easy)" in result.output
    assert not (data / "autosave-kings.json").exists()
    result = CliRunner().invoke(classic, ["play", "--level", "Greedy", "--line"], input="quit\n")
    assert result.exit_code == 2 and "Casual (medium)" in result.output


def test_the_classic_game_takes_a_title_and_defaults_to_the_gentle_level(data):
    for args, level in (([], GENTLE_DEFAULT), (["--level", "Expert"], "expert")):
        result = CliRunner().invoke(classic, ["play", *args, "--line", "--seed", "2"],
                                    input="quit\n")
        assert result.exit_code == 0, result.output
        saved = json.loads(autosave_path().read_text())
        assert saved["level"] == level
        autosave_path().unlink()


def test_the_first_screen_says_the_goal_until_the_first_move():
    session = Session.new(make_seats(["human", "computer"]), seed=9)
    assert session.seats[1].level == GENTLE_DEFAULT
    side = kings_view.side_panel(session)
    text = " ".join(getattr(part, "plain", "") for part in side.renderables)
    assert "Goal:" in text and "kingscrib learn" in text
    session.handle("d1 across 4 5 6 k k")
    text = " ".join(getattr(part, "plain", "")
                    for part in kings_view.side_panel(session).renderables)
    assert "Goal:" not in text


def test_the_cribbage_first_screen_says_the_goal(data):
    from kingscrib.terminal.controllers.classic import ClassicSession
    from kingscrib.terminal.views.replies import plain_text

    text = plain_text(ClassicSession.new(seed=3).intro())
    assert "Cut for deal" in text and "Goal:" in text and "121" in text
    result = CliRunner().invoke(classic, ["play", "--line", "--seed", "3"], input="quit\n")
    assert "Goal: score from your cards" in result.output
