"""``kingscrib play`` end to end through click's CliRunner, with a temporary data folder."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kingscrib.cli.play import play
from kingscrib.kings.record import check_record

AUTOSAVE = "autosave-kings.json"


@pytest.fixture
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("KINGSCRIB_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("COLUMNS", "100")
    return tmp_path


def run(args, text):
    result = CliRunner().invoke(play, args, input=text)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def autosave(data):
    return json.loads((data / AUTOSAVE).read_text())


HOT_SEAT = ["--seat", "human", "--seat", "human", "--names", "Ann,Bob", "--seed", "0"]


def test_help_documents_the_options():
    result = CliRunner().invoke(play, ["--help"])
    assert result.exit_code == 0
    for option in ("--players", "--seat", "--names", "--level", "--seed", "--rules", "--joker",
                   "--servant", "--solitaire", "--when-stuck", "--reduced-first-bonus",
                   "--games", "--resume", "--new", "--record"):
        assert option in result.output
    assert "greedy" in result.output


@pytest.mark.parametrize("args, message", [
    (["--seat", "nobody"], "neither human nor a computer level"),
    (["--level", "nobody"], "unknown level"),
    (["--solitaire", "--players", "3"], "solitaire option is for two seats"),
    (["--rules", '{"jokers": true}'], "unknown rule 'jokers'"),
    (["--seat", "human", "--seat", "human", "--seat", "human", "--players", "2"], "3 seats"),
    (["--resume", "--new"], "do not go together"),
])
def test_bad_options_are_refused(data, args, message):
    result = CliRunner().invoke(play, args, input="quit\n")
    assert result.exit_code == 2
    assert message in result.output
    assert not (data / AUTOSAVE).exists()


def test_quit_saves_and_resume_continues(data):
    result = run(HOT_SEAT, "\npass\n\nquit\n")
    assert result.exit_code == 0
    assert "Pass the keyboard to" in result.output
    assert "Ann passed." in result.output or "Bob passed." in result.output
    assert "kingscrib play --resume" in result.output
    saved = autosave(data)
    assert len(saved["game"]["turns"]) == 1
    assert [p["kind"] for p in saved["game"]["players"]] == ["human", "human"]

    # Starting again without --resume never overwrites the unfinished game.
    result = run([], "q\n")
    assert "An unfinished game is saved" in result.output
    assert "--resume" in result.output and "--new" in result.output
    assert autosave(data) == saved

    result = run(["--resume", "--joker", "--seat", "greedy"], "\npass\nquit\n")
    assert result.exit_code == 0
    assert "Resumed: turn 2" in result.output
    assert "--seat, --joker ignored" in result.output
    assert autosave(data)["game"]["rules"]["joker"] is False
    assert len(autosave(data)["game"]["turns"]) == 2


def test_new_keeps_the_unfinished_game(data):
    run(HOT_SEAT, "\npass\nquit\n")
    old = autosave(data)
    result = run(["--new"] + HOT_SEAT, "quit\n")
    assert "was kept as" in result.output
    kept = list((data / "games").glob("unfinished-*.json"))
    assert len(kept) == 1 and json.loads(kept[0].read_text()) == old
    assert autosave(data)["game"]["turns"] == []


def test_end_of_input_keeps_the_game(data):
    result = run(HOT_SEAT, "\npass\n")
    assert result.exit_code == 0
    assert "kingscrib play --resume" in result.output
    assert len(autosave(data)["game"]["turns"]) == 1


def test_resume_without_a_saved_game(data):
    result = run(["--resume"], "")
    assert result.exit_code == 1
    assert "no saved game" in result.output


def test_an_unreadable_autosave_is_moved_aside(data):
    (data / AUTOSAVE).write_text("{not json")
    result = run(HOT_SEAT, "quit\n")
    assert "could not be read" in result.output
    assert len(list((data / "games").glob("unfinished-*.json"))) == 1


def test_a_finished_game_is_saved_and_the_autosave_removed(data, tmp_path):
    out = tmp_path / "mine.json"
    # Six passes in a row: three scoreless rounds end the game (RULES.md).
    result = run(HOT_SEAT + ["--record", str(out)], "\npass\n" * 6)
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output
    assert "Game record saved to" in result.output
    assert not (data / AUTOSAVE).exists()
    saved = list((data / "games").glob("*.json"))
    assert len(saved) == 1
    record = json.loads(saved[0].read_text())
    assert record["end"]["reason"] == "scoreless"
    # Nobody scored, so the rack penalties alone decide the standings shown.
    final = record["end"]["scores"]
    assert final == [-p for p in record["end"]["penalties"]]
    tied = final[0] == final[1]
    assert ("share the win" in result.output) == tied
    assert ("wins" in result.output) != tied
    assert json.loads(out.read_text()) == record
    check_record(record)


def test_a_match_of_two_games(data, tmp_path):
    out = tmp_path / "match.json"
    result = run(HOT_SEAT + ["--games", "2", "--servant", "--record", str(out)],
                 "\npass\n" * 6 + "\n" + "\npass\n" * 6)
    assert result.exit_code == 0, result.output
    assert "Press Enter to start game 2 of 2" in result.output
    assert "Match: 2 of 2 games played" in result.output
    assert len(list((data / "games").glob("*.json"))) == 2
    match = json.loads(out.read_text())
    assert match["format"] == "kingscrib-match/1" and len(match["games"]) == 2
    assert [g["seed"] for g in match["games"]] == [0, 1]
    assert not (data / AUTOSAVE).exists()


def test_against_the_computer_with_the_joker_rule(data):
    # seed 9: you play first with KL KD 6D 4L 5L; KL KD at G7-H7 is worth 12.
    result = run(["--seed", "9", "--joker", "--no-color"],
                 "G7 across KL KD\n-1\n10\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "count it yourself" in out
    assert "Claim how many points?" in out
    assert "cannot be negative" in out
    assert "You missed 2 points" in out
    assert "Joker! Computer takes the 2 missed points" in out
    assert "Computer played" in out
    saved = autosave(data)
    turns = saved["game"]["turns"]
    assert turns[0]["claimed"] == 10 and turns[0]["joker"] == {"caller": 1, "points": 2}
    assert saved["game"]["players"][1] == {"name": "Computer", "kind": "computer",
                                           "level": "greedy"} or \
        saved["game"]["players"][1]["kind"] == "computer"


def test_board_and_help_at_the_prompt(data):
    result = run(["--seed", "0"], "help\nboard\nhello\nquit\n")
    out = result.output
    assert "A  B  C  D  E  F  G  H  I  J  K  L  M" in out
    assert "KINGS" in out and "Your rack:" in out
    assert "exchange 7L KD" in out
    assert "unknown command 'hello'" in out
    assert out.count("Your rack:") == 2  # drawn at the start and on `board`


def test_an_unreadable_autosave_is_never_moved_aside_silently(data, monkeypatch):
    # Before a full-screen game, which would hide the message, the player is asked.
    import kingscrib.cli.play as play_module

    monkeypatch.setattr(play_module, "full_screen_possible", lambda: True)

    def full_screen(*args):
        raise AssertionError("the full-screen game started and hid the message")

    monkeypatch.setattr(play_module, "_run_full_screen", full_screen)
    (data / AUTOSAVE).write_text("{not json")
    result = run([], "q\n")
    assert result.exit_code == 0
    kept = list((data / "games").glob("unfinished-*.json"))
    assert len(kept) == 1 and kept[0].read_text() == "{not json"
    assert "could not be read" in result.output
    assert str(kept[0]) in result.output.replace("\n", "")
    assert "Start a new game (n) or quit (q)?" in result.output
    assert not (data / AUTOSAVE).exists()  # quitting started nothing


def test_two_undos_in_a_row_then_quit_resume_and_analyze(data, tmp_path):
    from kingscrib.cli.ai_commands import analyze

    result = run(["--seed", "1", "--seat", "human", "--seat", "greedy"],
                 "pass\npass\nundo\nundo\nquit\n")
    assert result.output.count("Took back your last turn") == 2
    saved = autosave(data)
    assert saved["game"]["turns"] == []
    result = run(["--resume"], "pass\nquit\n")
    assert result.exit_code == 0 and "cannot be read" not in result.output
    assert "You passed." in result.output
    assert len(autosave(data)["game"]["turns"]) == 2
    result = CliRunner().invoke(analyze, [str(data / AUTOSAVE)])
    assert result.exit_code == 0, result.output
