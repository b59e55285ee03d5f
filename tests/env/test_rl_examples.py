"""The MaskablePPO examples run, act only legally and learn; the learning-curve helpers
measure what they say."""

from __future__ import annotations

import runpy
from pathlib import Path

import numpy as np
import pytest

from kingscrib.env.cribbage import GO
from kingscrib.env.curves import curve_table, win_rate
from kingscrib.env.flat import FlatObservation
from kingscrib.env.single import CribbageSingleEnv

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
TINY = ["--steps", "64", "--checkpoints", "1", "--eval", "2", "--n-steps", "32",
        "--batch-size", "32"]


def example(name: str) -> dict:
    return runpy.run_path(str(EXAMPLES / f"maskable_ppo_{name}.py"), run_name="example")


@pytest.mark.parametrize("name", ["cribbage", "kings"])
def test_the_example_trains_and_prints_its_learning_curve(name, capsys):
    points = example(name)["main"](TINY)
    assert [p.steps for p in points] == [0, 64]
    for p in points:
        assert set(p.win_rates) == {"random", "easy"}
        assert all(0.0 <= r <= 1.0 for r in p.win_rates.values())
        assert p.illegal == 0  # the mask keeps every action legal
    assert points[1].cpu_seconds > 0 and points[1].steps_per_second > 0
    out = capsys.readouterr().out
    assert "| training steps | wins v `random` | wins v `easy` |" in out
    assert "| 64 |" in out


def test_maskable_ppo_learns_kings_against_random():
    """A thousand steps are enough to learn that index 32 (a best-scoring play) wins."""
    module = example("kings")
    points = module["main"](["--steps", "1024", "--checkpoints", "1", "--eval", "20"])
    before, after = points[0].win_rates["random"], points[1].win_rates["random"]
    assert after >= before + 0.2, (before, after)


def make_cribbage(seat: int) -> FlatObservation:
    return FlatObservation(CribbageSingleEnv(opponent="random", seat=seat))


def test_win_rate_counts_illegal_games_as_lost():
    rate, illegal = win_rate(lambda obs, mask: GO, make_cribbage, games=4, seed=1)
    assert (rate, illegal) == (0.0, 4)


def test_win_rate_of_a_fixed_policy_repeats_and_lies_between_0_and_1():
    def first_legal(obs, mask):
        return int(np.flatnonzero(mask)[0])

    first = win_rate(first_legal, make_cribbage, games=6, seed=3)
    assert first == win_rate(first_legal, make_cribbage, games=6, seed=3)
    assert 0.0 <= first[0] <= 1.0 and first[1] == 0


def test_the_curve_table_has_a_row_a_checkpoint():
    from kingscrib.env.curves import Checkpoint

    table = curve_table([Checkpoint(0, 0.0, {"random": 0.5}, 0),
                         Checkpoint(1000, 4.0, {"random": 0.75}, 0)], ["random"])
    assert table.splitlines()[2:] == ["| 0 | 50.0% | 0 |  |", "| 1,000 | 75.0% | 4 | 250 |"]
