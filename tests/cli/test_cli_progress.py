"""Long commands: progress with the time left on standard error (standard output stays the
result), and the Wilson interval wherever a win rate's interval is shown."""

from __future__ import annotations

import io
import json

from click.testing import CliRunner

from kingscrib.arena.intervals import wilson
from kingscrib.cli.main import _register, cli
from kingscrib.cli.progress import LineProgress, duration

_register()


def test_line_progress_estimates_the_time_left_from_the_pace_so_far():
    now = [0.0]
    out = io.StringIO()
    progress = LineProgress(out, every=30, clock=lambda: now[0])
    task = progress.add_task("games", total=200)
    for _ in range(200):
        now[0] += 0.5  # half a second a game: 100 s in all
        progress.advance(task)
    assert out.getvalue().splitlines() == [
        "games: 60/200 (30%), 30s so far, about 1m10s left",
        "games: 120/200 (60%), 1m00s so far, about 40s left",
        "games: 180/200 (90%), 1m30s so far, about 10s left",
        "games: 200/200 (100%), 1m40s so far",
    ]
    assert [duration(x) for x in (0.4, 59, 61, 3725)] == ["0s", "59s", "1m01s", "1h02m"]


def test_selfplay_progress_goes_to_standard_error_only_when_asked():
    args = ["selfplay", "--games", "2", "--a", "random", "--b", "random", "--seed", "3"]
    quiet = CliRunner().invoke(cli, args)
    assert quiet.exit_code == 0 and quiet.stderr == ""  # not a terminal: nothing
    shown = CliRunner().invoke(cli, [*args, "--progress"])
    assert shown.exit_code == 0
    assert shown.stdout == quiet.stdout and len(shown.stdout.splitlines()) == 2
    assert "self-play: 2/2 (100%)" in shown.stderr


def test_classic_selfplay_progress_keeps_json_lines_clean():
    args = ["classic", "selfplay", "--json", "--games", "2", "--a", "random", "--b", "random",
            "--progress"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert [json.loads(x)["format"] for x in result.stdout.splitlines()] == \
        ["kingscrib-game/1"] * 2
    assert "self-play: 2/2 (100%)" in result.stderr


def test_tournament_shows_the_wilson_interval():
    args = ["tournament", "--a", "greedy", "--b", "random", "--pairs", "2", "--workers", "1"]
    data = json.loads(CliRunner().invoke(cli, [*args, "--json"]).stdout)
    points = data["a_wins"] + data["draws"] / 2
    assert data["ci95"] == [round(x, 4) for x in wilson(points, 4)]
    low, high = data["ci95"]
    assert low < high  # never a point, even when A wins all four
    text = CliRunner().invoke(cli, args).stdout
    assert f"(95% CI {low:.1%} - {high:.1%})" in text
