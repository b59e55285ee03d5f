"""The `kingscrib classic` commands, driven through click's test runner."""

from __future__ import annotations

import json

import pytest
from classic_reference import ref_score
from click.testing import CliRunner

from kingscrib.classic.cards import parse_cards
from kingscrib.classic.record import replay
from kingscrib.cli.classic import classic


@pytest.fixture()
def runner():
    return CliRunner()


def test_score_text_and_json(runner):
    out = runner.invoke(classic, ["score", "5H", "5S", "5C", "JD", "5D"])
    assert out.exit_code == 0
    assert out.output.startswith("29: fifteen two, fifteen four")
    out = runner.invoke(classic, ["score", "--json", "5H", "5S", "5C", "JD", "5D"])
    assert json.loads(out.output) == {
        "total": 29, "fifteens": 16, "pairs": 12, "runs": 0, "flush": 0, "nobs": 1}
    out = runner.invoke(classic, ["score", "--json", "10H", "5S", "5C", "4H", "6D"])
    assert json.loads(out.output)["total"] == 16


def test_score_crib_flush(runner):
    hand = ["2H", "4H", "6H", "8H", "KC"]
    assert runner.invoke(classic, ["score", *hand]).output == "4: a flush is four\n"
    assert json.loads(runner.invoke(classic, ["score", "--json", *hand]).output)["flush"] == 4
    assert json.loads(runner.invoke(classic, ["score", "--json", "--crib", *hand]).output)["flush"] == 0


def test_score_from_standard_input(runner):
    lines = ["5H 5S 5C JD 5D", "", "AH 2S 3C 4D 5C", "2h 4h 6h 8h kc"]
    out = runner.invoke(classic, ["score", "--json", "-"], input="\n".join(lines) + "\n")
    assert out.exit_code == 0
    totals = [json.loads(x)["total"] for x in out.output.splitlines()]
    want = []
    for line in lines:
        if line:
            *h, s = parse_cards(line)
            want.append(ref_score(h, s))
    assert totals == want


@pytest.mark.parametrize(
    "args, stdin, message",
    [
        (["score", "5H", "5S", "5C", "JD"], None, "give 5 cards"),
        (["score", "5H", "5S", "5C", "JD", "5H"], None, "given twice"),
        (["score", "5H", "5S", "5C", "JD", "1D"], None, "rank '1'"),
        (["score", "-"], "5H 5S 5C JD 5D\n5H 5S ZZ JD 5D\n", "line 2"),
        (["discard", "5H", "5S", "5C"], None, "exactly 6 cards"),
        (["selfplay", "--a", "nobody"], None, "unknown player"),
    ],
)
def test_bad_input_gets_a_precise_message(runner, args, stdin, message):
    out = runner.invoke(classic, args, input=stdin)
    assert out.exit_code != 0
    assert message in out.output
    assert "Traceback" not in out.output


def test_stats_json(runner):
    out = runner.invoke(classic, ["stats", "--json"])
    data = json.loads(out.output)
    assert data["hand"]["29"] == 4 and data["hand"]["28"] == 76 and data["hand"]["19"] == 0
    assert sum(data["hand"].values()) == sum(data["crib"].values()) == 12_994_800
    assert data["mean"]["hand"] == pytest.approx(4.7692, abs=1e-4)


def test_discard_json(runner):
    out = runner.invoke(classic, ["discard", "--json", "--dealer", "5H", "5S", "5C", "JD", "6D", "9C"])
    data = json.loads(out.output)
    assert data["dealer"] is True
    assert len(data["options"]) == 15
    totals = [o["total"] for o in data["options"]]
    assert totals == sorted(totals, reverse=True)
    assert data["options"][0]["discard"] == ["6D", "9C"]
    text = runner.invoke(classic, ["discard", "5H 5S 5C JD 6D 9C"])
    assert "their crib" in text.output and len(text.output.splitlines()) == 16


def test_selfplay_same_seed_same_game(runner):
    one = runner.invoke(classic, ["selfplay", "--json", "--seed", "9", "--a", "hard", "--b", "baseline"])
    two = runner.invoke(classic, ["selfplay", "--json", "--seed", "9", "--a", "hard", "--b", "baseline"])
    assert one.exit_code == 0 and one.output == two.output
    record = json.loads(one.output)
    assert record["game"] == "classic" and record["format"] == "kingscrib-game/1"
    assert [p["name"] for p in record["players"]] == ["hard", "baseline"]
    assert replay(record).record() == record


def test_selfplay_three_and_four_players(runner):
    for players in (3, 4):
        out = runner.invoke(classic, ["selfplay", "--json", "--players", str(players),
                                      "--a", "medium", "--b", "easy", "--games", "2"])
        records = [json.loads(x) for x in out.output.splitlines()]
        assert len(records) == 2
        assert all(r["rules"]["players"] == players for r in records)


def test_tournament_json(runner):
    out = runner.invoke(classic, ["tournament", "--a", "medium", "--b", "random", "--pairs", "3",
                                  "--workers", "1", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output.strip().splitlines()[-1])
    assert data["a_wins"] + data["b_wins"] + data["draws"] == data["games"] == 6
    low, high = data["ci95"]
    assert low <= data["a_win_rate"] <= high
    assert 0 <= data["first_player_win_rate"] <= 1


def test_terminal_game_with_autosave_and_resume(runner, tmp_path, monkeypatch):
    monkeypatch.setenv("KINGSCRIB_DATA_DIR", str(tmp_path))
    save = tmp_path / "classic-autosave.json"
    # a discard, a bad card, a card, then the input runs out: the game is saved
    out = runner.invoke(classic, ["play", "--seed", "3", "--level", "easy"], input="9 9\n#1 #2\nXX\n#1\n")
    assert out.exit_code == 0
    assert "holds no 9, and 9 is no place in it" in out.output
    assert "'XX' is not a card" in out.output
    assert save.exists()
    saved = json.loads(save.read_text())
    assert saved["record"]["deals"][0]["discards"][saved["humans"][0]] is not None
    # resume and play to the end with the lowest card every time
    out = runner.invoke(classic, ["play", "--resume"], input="#1 #2\n#1\n" * 400)
    assert out.exit_code == 0, out.output
    assert "Resumed against the computer at" in out.output
    assert "you win!" in out.output or "computer wins!" in out.output
    assert "121/121" in out.output
    assert not save.exists()
    out = runner.invoke(classic, ["play", "--resume"])
    assert out.exit_code != 0 and "no saved game" in out.output


def test_terminal_game_muggins_hot_seat(runner, tmp_path, monkeypatch):
    monkeypatch.setenv("KINGSCRIB_DATA_DIR", str(tmp_path))
    # three players, two humans; each claims 0 points, so the next player takes them all
    answers = "1\n1\n0\n" * 600
    out = runner.invoke(classic, ["play", "--players", "3", "--humans", "2", "--muggins",
                                  "--seed", "5", "--level", "easy"], input=answers)
    assert out.exit_code == 0, out.output
    assert "muggins!" in out.output
    assert " win" in out.output or (tmp_path / "classic-autosave.json").exists()


def test_resume_refuses_a_corrupt_save(runner, tmp_path, monkeypatch):
    monkeypatch.setenv("KINGSCRIB_DATA_DIR", str(tmp_path))
    (tmp_path / "classic-autosave.json").write_text("{\"record\": {\"format\": 3}}")
    out = runner.invoke(classic, ["play", "--resume"])
    assert out.exit_code != 0 and "cannot be resumed" in out.output
