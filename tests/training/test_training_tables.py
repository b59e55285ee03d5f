"""The table builders write what the players load, and the players never import them."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from kingscrib.players.classic import crib_model, pegtable, reader, winprob
from kingscrib.players.kings import leaves
from kingscrib.training import crib_model as train_crib
from kingscrib.training import expert
from kingscrib.training import leaves as train_leaves
from kingscrib.training import pegtable as train_pegging
from kingscrib.training import winprob as train_winprob

LOADERS = [winprob.shipped_table, winprob.shipped_phases, crib_model.shipped_prior,
           crib_model.deal_means, crib_model.dealer_pegs_at_least, pegtable.shipped_table,
           pegtable.seat_pegging, reader.keep_ratios]


@pytest.fixture
def data_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The classic tables in ``tmp_path`` (the keep ratios stay the shipped ones); the
    loaders' caches empty before and after."""
    for module, names in ((pegtable, ["TABLE_FILE"]),
                          (crib_model, ["PRIOR_FILE"]),
                          (winprob, ["TABLE_FILE", "DEALS_FILE", "PHASES_FILE"])):
        for name in names:
            monkeypatch.setattr(module, name, tmp_path / f"{module.__name__}.{name}.json")
    for load in LOADERS:
        load.cache_clear()
    yield tmp_path
    for load in LOADERS:
        load.cache_clear()


def test_runtime_players_do_not_import_training_or_the_arena() -> None:
    code = ("import sys, kingscrib.players.classic.expert, kingscrib.players.kings.expert,"
            " kingscrib.players.kings.analysis, kingscrib.players.classic.coach;"
            " print(sorted(m for m in sys.modules if m.startswith(('kingscrib.training',"
            " 'kingscrib.arena'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).parents[2])
    assert out.stdout.strip() == "[]"


def test_the_win_probability_table_is_loaded_as_built(data_in: Path) -> None:
    deals, table = train_winprob.train(2, seed=5)
    assert deals and len(table) == winprob.GOAL + 1
    train_winprob.save(deals, table, "a test")
    assert winprob.shipped_deals() == deals
    loaded = winprob.shipped_table()
    assert all(loaded[x][y] == round(table[x][y], 6) for x in (0, 60, 120) for y in (0, 90))
    phases = train_winprob.sample_phases(2, seed=5)
    train_winprob.save_phases(phases, "a test")
    assert winprob.shipped_phases() == tuple(tuple(p) for p in phases)


def test_the_crib_prior_and_means_are_loaded_as_built(data_in: Path) -> None:
    prior = train_crib.train_prior(20, seed=2)
    means = train_crib.train_means(2, seed=2)
    train_crib.save_prior(prior, means, "a test")
    loaded = crib_model.shipped_prior()
    assert set(loaded) == {"own", "theirs"}
    assert all(loaded[k][p] == pytest.approx(v, abs=5e-6) for k in prior
               for p, v in prior[k].items())
    assert crib_model.deal_means() == json.loads(json.dumps(means))


def test_the_pegging_table_is_loaded_as_built(data_in: Path) -> None:
    kept = [(1, 2, 3, 4), (5, 5, 10, 13)]
    built = train_pegging.build(30, seed=4, kept=kept)
    train_pegging.save(built, "a test")
    for hand in kept:
        for seat in ("dealer", "pone"):
            assert pegtable.kept_pegging(hand, seat == "dealer") == pytest.approx(
                built[seat][hand], abs=5e-4)


def test_train_expert_writes_every_table_and_says_so(data_in: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reader, "RATIOS_FILE", data_in / "keep_ratios.json")
    # the pegging of two kept hands stands for all 1,820 (minutes otherwise)
    monkeypatch.setattr(train_pegging, "build",
                        functools.partial(train_pegging.build, kept=[(1, 2, 3, 4), (5, 5, 5, 10)]))
    lines: list[str] = []
    options = expert.ExpertTraining(games=2, hands=5, means_games=2, peg_hands=3, seed=1)
    expert.train_expert(options, lines.append)
    written = sorted(p.name for p in data_in.iterdir())
    assert len(written) == 6 and len(lines) == 5  # the deals and their table: one line
    for path in data_in.iterdir():
        assert json.loads(path.read_text())["command"] == options.command
    assert options.command.startswith("kingscrib classic train-expert --games 2 ")
    assert len(reader.keep_ratios(True)) == len(reader.kept_hands())  # read from data_in


def test_the_leave_table_is_written_where_it_is_read(tmp_path: Path) -> None:
    table = train_leaves.train(games=10, seed=3, rounds=1, workers=1)
    path = train_leaves.write(table, tmp_path / "leaves.json")
    again = leaves.LeaveTable.from_json(json.loads(path.read_text()))
    assert again.weights == tuple(round(w, 4) for w in table.weights)
    assert again.meta["command"] == "kingscrib train-leaves --games 10 --rounds 1 --seed 3"
