"""The Bradley-Terry fit against an independent maximum of the likelihood, and its intervals."""

from __future__ import annotations

import itertools
import math

import pytest
from scipy.optimize import minimize

from kingscrib.arena.ratings import ELO, Match, bootstrap, fit


def _negative_log_likelihood(x, names, matches, prior):
    """Written out anew: a game of a against b is won with 1 / (1 + exp(r_b - r_a))."""
    r = dict(zip(names, x))
    total = 0.0
    for m in matches:
        p = 1.0 / (1.0 + math.exp(r[m.b] - r[m.a]))
        total -= (m.points + prior / 2) * math.log(p)
        total -= (m.games - m.points + prior / 2) * math.log(1.0 - p)
    return total


SYNTHETIC = [Match("a", "b", 14.0, 20), Match("b", "c", 11.5, 20), Match("a", "c", 15.0, 20),
             Match("c", "d", 9.0, 20), Match("a", "d", 18.0, 20), Match("b", "d", 12.0, 20)]
NAMES = ["a", "b", "c", "d"]


@pytest.mark.parametrize("prior", [0.0, 1.0])
def test_the_fit_is_the_likelihoods_maximum_found_otherwise(prior):
    ratings = fit(NAMES, SYNTHETIC, prior=prior)
    found = minimize(_negative_log_likelihood, [0.0] * 4, args=(NAMES, SYNTHETIC, prior),
                     method="Nelder-Mead", options={"xatol": 1e-9, "fatol": 1e-12,
                                                    "maxiter": 20000})
    x = found.x - found.x.mean()  # the likelihood is the same for every shift
    for name, value in zip(NAMES, x):
        assert ratings[name] == pytest.approx(value * ELO, abs=0.05)
    assert abs(sum(ratings.values())) < 1e-6


def test_a_brute_force_grid_finds_no_likelier_ratings():
    """Every rating within 30 Elo of the fit, on a grid of 5 Elo, is less likely."""
    ratings = fit(NAMES, SYNTHETIC, prior=0.0, anchor="d")
    best = -_negative_log_likelihood([ratings[n] / ELO for n in NAMES], NAMES, SYNTHETIC, 0.0)
    steps = [-30, -15, -5, 0, 5, 15, 30]
    for da, db, dc in itertools.product(steps, repeat=3):
        if da == db == dc == 0:
            continue
        x = [(ratings["a"] + da) / ELO, (ratings["b"] + db) / ELO,
             (ratings["c"] + dc) / ELO, 0.0]
        assert -_negative_log_likelihood(x, NAMES, SYNTHETIC, 0.0) < best


def test_two_agents_have_the_log_odds_of_their_score():
    r = fit(["x", "y"], [Match("x", "y", 24.0, 32)], prior=0.0, anchor="y")
    assert r == {"x": pytest.approx(ELO * math.log(24 / 8)), "y": 0.0}


def test_a_clean_sweep_stays_finite_with_the_prior():
    r = fit(["x", "y"], [Match("x", "y", 10.0, 10)], prior=1.0, anchor="y")
    assert r["x"] == pytest.approx(ELO * math.log(10.5 / 0.5))


def test_the_interval_holds_the_rating_and_narrows_with_more_pairs():
    few = [Match("a", "b", 6.0, 10, (2.0, 1.0, 1.0, 1.0, 1.0))]
    many = [Match("a", "b", 60.0, 100, (2.0, 1.0, 1.0, 1.0, 1.0) * 10)]
    (a_few, _), (a_many, _) = (bootstrap(["a", "b"], m, samples=300, prior=0.0, anchor="b")
                               for m in (few, many))
    for r in (a_few, a_many):
        assert r.name == "a" and r.low <= r.rating <= r.high
        assert r.rating == pytest.approx(ELO * math.log(6 / 4))
    assert a_many.high - a_many.low < (a_few.high - a_few.low) / 2
    assert a_few.points == 6.0 and a_few.games == 10
