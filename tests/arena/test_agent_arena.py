"""The arena of agents: its baselines against the environments' masks, and a whole run."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from kingscrib.arena.agents import UnknownAgent, make_cribbage_agent, spec_of
from kingscrib.arena.baselines import (
    CribbageLowestIndex,
    KingsIndex32,
    KingsLowestIndex,
    KingsUniform,
)
from kingscrib.arena.league import jobs_for, play_pair, run_arena
from kingscrib.classic.game import ClassicGame
from kingscrib.classic.rules import RuleSet
from kingscrib.cli.main import cli as main
from kingscrib.env.cribbage import action_index
from kingscrib.env.kings_actions import turn_actions
from kingscrib.kings.game import Game


class Stubborn:
    """An agent from outside the registry (module:Class): the first legal action."""

    name = "stubborn"

    def __init__(self, seed=None):
        self.seed = seed

    def choose(self, view):
        return view.legal[0]


STUBBORN = f"{__name__}:Stubborn"  # this module, as pytest imported it


def test_cribbage_lowest_index_takes_the_lowest_index_of_the_mask():
    rng = random.Random(3)
    agent = CribbageLowestIndex()
    checked = 0
    for seed in range(4):
        game = ClassicGame(RuleSet(players=2), seed=seed)
        while game.phase != "over":
            view = game.view(game.to_act)
            if view.phase != "show":
                indexes = [action_index(a) for a in view.legal]
                assert action_index(agent.choose(view)) == min(indexes)
                checked += 1
            game.apply(rng.choice(view.legal) if view.phase != "show"
                       else agent.choose(view))
    assert checked > 100


def test_kings_index_rules_take_the_masks_indexes():
    rng = random.Random(5)
    uniform = KingsUniform(1)
    for seed in range(2):
        game = Game.new(["a", "b"], seed=seed)
        for _ in range(10):
            if game.is_over:
                break
            view = game.view(game.turn)
            actions = turn_actions(game)
            legal = [int(i) for i in actions.mask.nonzero()[0]]
            assert KingsLowestIndex().choose(view) == actions.action(legal[0])
            expected = actions.action(32) if actions.mask[32] else actions.action(legal[0])
            assert KingsIndex32().choose(view) == expected
            if game.board and actions.all_plays == len(actions.plays):  # under the cap
                mask_actions = {actions.action(i) for i in legal}
                assert {uniform.choose(view) for _ in range(8)} <= mask_actions
            game.play(actions.action(rng.choice(legal)))


def test_names_and_module_class_resolve_and_bad_ones_say_why():
    assert spec_of("cribbage", "hard") == "level:hard"
    assert spec_of("cribbage", STUBBORN) == STUBBORN
    assert make_cribbage_agent(STUBBORN, 4).seed == 4
    with pytest.raises(UnknownAgent, match="choose from"):
        spec_of("kings", "nobody")
    with pytest.raises(UnknownAgent, match="cannot load"):
        make_cribbage_agent("tests.arena.nowhere:Nothing", 1)


def test_a_pair_plays_one_seed_with_the_seats_swapped():
    """Against itself an agent scores exactly one game of the pair's two, whoever it is."""
    (job,) = jobs_for("cribbage", ["random", "lowest-index"], 1, 7)
    assert play_pair(("cribbage", "x", "level:easy", "y", "level:easy", 7)) == 1.0
    assert play_pair(job) == play_pair(job)  # fixed seeds repeat


def test_a_tiny_arena_runs_end_to_end_on_the_command_line(tmp_path):
    out = tmp_path / "table.md"
    agents = f"random,lowest-index,easy,{STUBBORN}"
    result = CliRunner().invoke(main, ["arena", "--game", "cribbage", "--agents", agents,
                                       "--pairs", "2", "--workers", "1", "--samples", "30",
                                       "--out", str(out), "--json", "--anchor", "random"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    ratings = {r["agent"]: r for r in data["ratings"]}
    assert ratings["random"]["rating"] == 0.0
    assert all(r["games"] == 3 * 2 * 2 for r in data["ratings"])  # 3 matches of 2 pairs
    assert sum(r["points"] for r in data["ratings"]) == 6 * 2 * 2  # every game one winner
    for r in data["ratings"]:
        assert r["ci95"][0] <= r["rating"] <= r["ci95"][1]
    table = out.read_text()
    assert table.startswith("| rank | agent | rating |") and "`easy`" in table
    again = run_arena("cribbage", agents.split(","), 2, samples=30, anchor="random")
    assert {r.name: round(r.rating, 1) for r in again.ratings} == {
        n: r["rating"] for n, r in ratings.items()}


def test_an_unknown_agent_is_refused_before_any_game():
    result = CliRunner().invoke(main, ["arena", "--game", "kings", "--agents", "greedy,nobody"])
    assert result.exit_code == 2 and "unknown kings agent 'nobody'" in result.output
