"""``kingscrib tournament --swiss``: Swiss tournaments among computer players."""

from __future__ import annotations

import json
from itertools import combinations

import pytest
from click.testing import CliRunner

from kingscrib.cli.main import cli


def run_swiss(*args: str) -> dict:
    result = CliRunner().invoke(cli, ["tournament", "--workers", "1", "--json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.mark.parametrize("game", ["kings", "cribbage"])
def test_a_swiss_tournament_of_four_plays_fresh_pairings_and_adds_up(game):
    out = run_swiss("--swiss", "medium,greedy,easy,random" if game == "kings"
                    else "medium,baseline,easy,random", "--game", game, "--rounds", "3")
    met = [frozenset(p) for r in out["rounds"] for p in r["pairs"]]
    assert len(met) == len(set(met)) == 6, "three rounds of four: everyone meets once"
    results = [x for r in out["rounds"] for x in r["results"]]
    assert len(results) == 12, "each pairing is a mirrored pair of games"
    points = {s["player"]: s["points"] for s in out["standings"]}
    for player in points:  # an independent recount of the results
        assert points[player] == sum(p if a == player else 1 - p
                                     for a, b, p, _ in results if player in (a, b))
    assert [s["points"] for s in out["standings"]] == sorted(points.values(), reverse=True)


def test_an_odd_field_gives_each_player_one_bye():
    out = run_swiss("--swiss", "greedy,easy,random", "--rounds", "3")
    assert sorted(r["bye"] for r in out["rounds"]) == ["easy", "greedy", "random"]
    assert all(s["byes"] == 1 for s in out["standings"])
    assert sorted(frozenset(p) for r in out["rounds"] for p in r["pairs"]) == sorted(
        frozenset(p) for p in combinations(["greedy", "easy", "random"], 2))


def test_the_same_seed_gives_the_same_tournament():
    args = ("--swiss", "greedy,easy,random,medium", "--rounds", "2", "--seed", "5")
    assert run_swiss(*args) == run_swiss(*args)


@pytest.mark.parametrize("args, message", [
    (["--swiss", "easy,nobody"], "unknown player 'nobody'"),
    (["--swiss", "easy,easy"], "each player may be entered once"),
    (["--swiss", "easy"], "at least two players"),
    (["--swiss", "easy,medium", "--a", "easy"], "leave out --a and --b"),
    (["--a", "easy"], "name two players"),
])
def test_a_bad_field_is_refused_with_a_reason(args, message):
    result = CliRunner().invoke(cli, ["tournament", *args])
    assert result.exit_code == 2
    assert message in result.output
