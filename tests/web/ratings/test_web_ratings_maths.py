"""The rating maths (kingscrib.web.ratings.maths): Glicko-2 as Glickman's paper works it
out, checked against a plain transcription of the paper written here; Plackett-Luce
for more sides; properties every update must have."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kingscrib.web.ratings.maths import (
    MIN_DEVIATION,
    PERIOD,
    START_DEVIATION,
    Rating,
    aged,
    glicko2_period,
    rate,
)


def paper_glicko2(player: Rating, games: list[tuple[Rating, float]], tau: float = 0.5
                  ) -> Rating:
    """Glickman, "Example of the Glicko-2 system" (2013), steps 2 to 8, line by line."""
    q = 173.7178
    mu, phi, sigma = (player.rating - 1500) / q, player.deviation / q, player.volatility
    opp = [((o.rating - 1500) / q, o.deviation / q, s) for o, s in games]

    def g(p: float) -> float:
        return 1 / math.sqrt(1 + 3 * p * p / math.pi ** 2)

    def e(m: float, mj: float, pj: float) -> float:
        return 1 / (1 + math.exp(-g(pj) * (m - mj)))

    v = 1 / sum(g(pj) ** 2 * e(mu, mj, pj) * (1 - e(mu, mj, pj)) for mj, pj, _ in opp)
    delta = v * sum(g(pj) * (s - e(mu, mj, pj)) for mj, pj, s in opp)
    a = math.log(sigma ** 2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta ** 2 - phi ** 2 - v - ex) / (2 * (phi ** 2 + v + ex) ** 2)
                - (x - a) / tau ** 2)

    big_a = a
    if delta ** 2 > phi ** 2 + v:
        big_b = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    fa, fb = f(big_a), f(big_b)
    while abs(big_b - big_a) > 1e-6:
        c = big_a + (big_a - big_b) * fa / (fb - fa)
        fc = f(c)
        if fc * fb <= 0:
            big_a, fa = big_b, fb
        else:
            fa /= 2
        big_b, fb = c, fc
    new_sigma = math.exp(big_a / 2)
    phi_star = math.sqrt(phi ** 2 + new_sigma ** 2)
    new_phi = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)
    new_mu = mu + new_phi ** 2 * sum(g(pj) * (s - e(mu, mj, pj)) for mj, pj, s in opp)
    return Rating(1500 + q * new_mu, q * new_phi, new_sigma)


def test_glickmans_worked_example() -> None:
    player = Rating(1500, 200, 0.06)
    games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    new = glicko2_period(player, games)
    # The paper prints 1464.06 / 151.52 / 0.05999, rounding its steps as it goes.
    assert new.rating == pytest.approx(1464.06, abs=0.02)
    assert new.deviation == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=1e-5)  # (0.059996 unrounded)


ratings = st.builds(Rating, st.floats(700, 2500), st.floats(MIN_DEVIATION, START_DEVIATION),
                    st.floats(0.03, 0.12))


@settings(max_examples=150, deadline=None)
@given(ratings, st.lists(st.tuples(ratings, st.sampled_from([0.0, 0.5, 1.0])),
                         min_size=1, max_size=6))
def test_the_package_computes_the_papers_glicko2_for_any_rating(player, games) -> None:
    """Away from 1500 too (the package alone squares the rating in the volatility step)."""
    ours, paper = glicko2_period(player, games), paper_glicko2(player, games)
    assert ours.rating == pytest.approx(paper.rating, abs=1e-4)
    assert ours.deviation == pytest.approx(paper.deviation, abs=1e-4)
    assert ours.volatility == pytest.approx(paper.volatility, rel=1e-4)


def test_an_upset_moves_the_volatility_as_the_paper_says_far_from_1500() -> None:
    """A sure 2200 losing to a sure 1400 four times: the package's own volatility step
    (rating squared for deviation squared) gives a visibly different answer here."""
    player = Rating(2200, 50, 0.06)
    games = [(Rating(1400, 50), 0.0)] * 4
    assert glicko2_period(player, games).volatility == pytest.approx(
        paper_glicko2(player, games).volatility, rel=1e-5)


@settings(max_examples=150, deadline=None)
@given(ratings, ratings, st.sampled_from([(0, 1), (1, 0), (0, 0)]))
def test_two_players_winner_never_drops_loser_never_rises(a, b, places) -> None:
    [[new_a], [new_b]] = rate([[a], [b]], list(places))
    if places == (0, 1):
        assert new_a.rating >= a.rating and new_b.rating <= b.rating
    elif places == (1, 0):
        assert new_a.rating <= a.rating and new_b.rating >= b.rating
    for new in (new_a, new_b):
        assert MIN_DEVIATION <= new.deviation <= START_DEVIATION


@settings(max_examples=100, deadline=None)
@given(st.floats(900, 2300), st.floats(900, 2300), st.floats(MIN_DEVIATION, START_DEVIATION),
       st.sampled_from([(0, 1), (1, 0), (0, 0)]))
def test_two_players_of_equal_deviation_conserve_the_sum(r1, r2, rd, places) -> None:
    a, b = Rating(r1, rd), Rating(r2, rd)
    [[new_a], [new_b]] = rate([[a], [b]], list(places))
    assert new_a.rating + new_b.rating == pytest.approx(r1 + r2, abs=0.01)


@settings(max_examples=100, deadline=None)
@given(st.lists(ratings, min_size=3, max_size=4), st.data())
def test_many_players_first_never_drops_last_never_rises(players, data) -> None:
    places = data.draw(st.permutations(range(len(players))))
    new = rate([[p] for p in players], list(places))
    first, last = places.index(0), places.index(len(players) - 1)
    assert new[first][0].rating >= players[first].rating
    assert new[last][0].rating <= players[last].rating


@settings(max_examples=100, deadline=None)
@given(st.lists(ratings, min_size=4, max_size=4), st.booleans())
def test_partners_move_together(players, first_wins) -> None:
    teams = [players[:2], players[2:]]
    new = rate(teams, [0, 1] if first_wins else [1, 0])
    winners, losers = (0, 1) if first_wins else (1, 0)
    assert all(n.rating >= o.rating for n, o in zip(new[winners], teams[winners]))
    assert all(n.rating <= o.rating for n, o in zip(new[losers], teams[losers]))


@settings(max_examples=60, deadline=None)
@given(st.floats(900, 2300), st.floats(900, 2300), st.floats(MIN_DEVIATION, START_DEVIATION),
       st.sampled_from([0, 1]))
def test_plackett_luce_conserves_the_sum_for_equal_deviations(r1, r2, rd, first) -> None:
    """Three players, two of equal deviation and the third far off: the two together."""
    players = [Rating(r1, rd), Rating(r2, rd), Rating(1500, rd)]
    places = [first, 1 - first, 2]
    new = rate([[p] for p in players], places)
    total = sum(n[0].rating for n in new)
    assert total == pytest.approx(r1 + r2 + 1500, abs=0.5)


def test_a_game_needs_two_sides_with_players() -> None:
    with pytest.raises(ValueError, match="two or more sides"):
        rate([[Rating()]], [0])
    with pytest.raises(ValueError, match="two or more sides"):
        rate([[Rating()], []], [0, 1])


# ----- how a finished game places its sides (each game's ``standing``) --------------------
def test_kings_standing_ties_share_a_place_and_a_resigner_is_last() -> None:
    from types import SimpleNamespace

    from kingscrib.web.play.games.kings import standing

    game = SimpleNamespace(final_scores=[40, 55, 40, 12])
    assert [s["place"] for s in standing(game, None)] == [1, 0, 1, 3]
    resigned = {"reason": "resigned", "seat": 1, "losers": [1], "scores": [40, 55, 40, 12]}
    assert [s["place"] for s in standing(game, resigned)] == [0, 3, 0, 2]
    overtime = {"reason": "overtime", "seat": None, "losers": [], "scores": [40, 35, 40, 12]}
    assert [s["place"] for s in standing(game, overtime)] == [0, 2, 0, 3]


def test_cribbage_standing_partners_and_three_players() -> None:
    from types import SimpleNamespace

    from kingscrib.classic.rules import RuleSet
    from kingscrib.web.play.games.cribbage import standing

    three = SimpleNamespace(rules=RuleSet(players=3), scores=[100, 90, 121], winner=2)
    assert [(s["seats"], s["place"]) for s in standing(three, None)] == [
        ([0], 1), ([1], 2), ([2], 0)]
    four = SimpleNamespace(rules=RuleSet(players=4), scores=[80, 95], winner=None)
    resigned = {"winner_sides": [0], "losers": [1, 3]}
    assert [(s["seats"], s["place"]) for s in standing(four, resigned)] == [
        ([0, 2], 0), ([1, 3], 1)]
    three_resigned = {"winner_sides": [0], "losers": [2]}
    assert [s["place"] for s in standing(three, three_resigned)] == [0, 1, 2]


def test_a_kings_game_waiting_for_a_joker_call_is_not_final_yet() -> None:
    from types import SimpleNamespace

    from kingscrib.web.play.games.kings import KINGS

    open_call = SimpleNamespace(final_scores=[30, 20], joker_open=lambda: True)
    session = SimpleNamespace(game=open_call)
    assert KINGS.standing(session, None) is None  # the last play's Joker may still come
    closing = KINGS.standing(session, None, closing=True)  # its chance has passed
    assert [s["place"] for s in closing] == [0, 1]
    done = SimpleNamespace(game=SimpleNamespace(final_scores=[30, 20], joker_open=lambda: False))
    assert [s["place"] for s in KINGS.standing(done, None)] == [0, 1]


@given(st.floats(45, 350), st.floats(0.03, 0.09), st.integers(0, 2000),
       st.floats(0, 0.999))
def test_a_rating_widens_once_a_whole_day_by_glicko2s_idle_step(deviation, volatility,
                                                                  days, part) -> None:
    held = Rating(1612.0, deviation, volatility)
    after = aged(held, (days + part) * PERIOD)
    phi, sigma = deviation / 173.7178, volatility
    for _ in range(days):  # step 6 of the paper, once per period without games
        phi = math.sqrt(phi ** 2 + sigma ** 2)
    assert after.deviation == pytest.approx(min(START_DEVIATION, phi * 173.7178))
    assert after.rating == held.rating and after.volatility == held.volatility
    assert aged(held, -5 * PERIOD) == held  # a clock set back never narrows it
