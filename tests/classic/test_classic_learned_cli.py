"""The learned player from the command line: by name in self-play and matches, as a
terminal level, for two players only."""

from __future__ import annotations

import json

from click.testing import CliRunner

from kingscrib.cli.classic import classic


def test_selfplay_and_matches_take_the_learned_player():
    result = CliRunner().invoke(classic, ["selfplay", "--a", "learned", "--b", "hard", "--seed",
                                          "4", "--json"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert [p["name"] for p in record["players"]] == ["learned", "hard"]
    assert max(record["end"]["scores"]) == 121
    result = CliRunner().invoke(classic, ["tournament", "--a", "learned", "--b", "random",
                                          "--pairs", "1", "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["a"] == "learned" and summary["games"] == 2


def test_the_learned_player_is_refused_for_more_than_two_players(tmp_path, monkeypatch):
    monkeypatch.setenv("KINGSCRIB_DATA_DIR", str(tmp_path))
    result = CliRunner().invoke(classic, ["tournament", "--a", "learned", "--b", "random",
                                          "--pairs", "1", "--players", "3"])
    assert result.exit_code == 2 and "two-player game only" in result.output
    result = CliRunner().invoke(classic, ["play", "--level", "learned", "--players", "3",
                                          "--line"], input="quit\n")
    assert result.exit_code == 2 and "two-player game only" in result.output
    assert not list(tmp_path.glob("*autosave*"))


def test_the_terminal_game_takes_the_learned_level(tmp_path, monkeypatch):
    monkeypatch.setenv("KINGSCRIB_DATA_DIR", str(tmp_path))
    result = CliRunner().invoke(classic, ["play", "--level", "Learned", "--line", "--seed", "2"],
                                input="quit\n")
    assert result.exit_code == 0, result.output
    saved = json.loads(next(tmp_path.glob("*autosave*")).read_text())
    assert saved["level"] == "learned"
