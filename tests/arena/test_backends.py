"""The Ray backend gives the same results as local processes for the same seeds.

Ray runs on this machine (``ray.init(num_cpus=2)``), started once for the module."""

from __future__ import annotations

import json

import pytest
import ray  # the rl extra, which the test extra installs
from click.testing import CliRunner

from kingscrib.cli.main import cli as main
from kingscrib.common.backends import Backend, run_jobs, use_backend


def test_no_cluster_at_the_address_is_a_plain_error(monkeypatch):
    """Runs first in this file, before the module's Ray is started."""
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    assert not ray.is_initialized()
    result = CliRunner().invoke(main, ["tournament", "--a", "greedy", "--b", "random",
                                       "--pairs", "1", "--backend", "ray", "--address", "auto"])
    assert result.exit_code == 1
    assert "cannot start or join the Ray cluster at 'auto'" in result.output
    assert "Traceback" not in result.output


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def _cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def test_kings_tournament_is_the_same_on_ray(local_ray):
    args = ["tournament", "--a", "greedy", "--b", "random", "--pairs", "4", "--seed", "5",
            "--json"]
    local = json.loads(_cli(*args, "--workers", "2"))
    on_ray = json.loads(_cli(*args, "--backend", "ray"))
    assert local == on_ray
    assert local["games"] == 8 and local["a_wins"] >= 6  # greedy beats random


def test_classic_tournament_is_the_same_on_ray(local_ray):
    args = ["classic", "tournament", "--a", "hard", "--b", "random", "--pairs", "6",
            "--seed", "3", "--json"]
    local = json.loads(_cli(*args, "--workers", "1"))
    on_ray = json.loads(_cli(*args, "--backend", "ray"))
    assert local == on_ray
    assert local["games"] == 12


def test_the_arena_is_the_same_on_ray(local_ray):
    args = ["arena", "--game", "cribbage", "--agents", "random,lowest-index,baseline",
            "--pairs", "3", "--seed", "4", "--samples", "20", "--json"]
    local = json.loads(_cli(*args, "--workers", "2"))
    on_ray = json.loads(_cli(*args, "--backend", "ray"))
    local.pop("seconds"), on_ray.pop("seconds")
    assert local == on_ray
    assert sum(r["games"] for r in local["ratings"]) == 3 * 3 * 2 * 2


def test_train_leaves_is_the_same_on_ray(local_ray, tmp_path):
    a, b = tmp_path / "local.json", tmp_path / "ray.json"
    _cli("train-leaves", "--games", "10", "--rounds", "1", "--seed", "2", "--workers", "2",
         "--out", str(a))
    _cli("train-leaves", "--games", "10", "--rounds", "1", "--seed", "2", "--backend", "ray",
         "--out", str(b))
    assert a.read_text() == b.read_text()
    assert json.loads(a.read_text())["meta"]["samples_last_round"] > 0


def test_results_come_back_in_job_order(local_ray):
    jobs = [-k if k % 3 else k for k in range(200)]
    seen: list[int] = []
    with use_backend(Backend("ray")):
        got = run_jobs(abs, jobs, on_result=seen.append)
    assert got == seen == list(range(200))
    assert run_jobs(abs, jobs, Backend(workers=2)) == got


def test_options_that_clash_are_refused():
    result = CliRunner().invoke(main, ["tournament", "--a", "greedy", "--b", "random",
                                       "--address", "auto"])
    assert result.exit_code == 2
    assert "--address names a Ray cluster: use it with --backend ray" in result.output
    with pytest.raises(ValueError, match="backend must be one of local, ray"):
        Backend("dask")
