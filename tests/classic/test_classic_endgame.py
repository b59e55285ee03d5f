"""The coach's chance to win next to 121 counts the deal's points in the order they score:
his heels, the play, the pone's hand, then the dealer's."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kingscrib.classic.cards import parse_cards
from kingscrib.classic.discard import unseen_cards
from kingscrib.cli.classic import classic
from kingscrib.players.classic import winprob
from kingscrib.players.classic.expert import rank_discards

HAND = parse_cards("5H 6S 7C 8D 9H JS")  # one jack held: 3 of the 46 starters are jacks


def _wins(me: int, opponent: int, i_deal: bool) -> dict[tuple, float]:
    return {c.discard: c.win for c in rank_discards(HAND, i_deal, me, opponent)}


def _first_play_point_is_the_dealers() -> float:
    """Over the sampled plays, how often the dealer pegs the play's first point."""
    deals = winprob.shipped_phases()
    return sum(1 for d in deals if d[3] < 0) / len(deals)


def test_the_dealer_on_120_against_120_wins_on_a_jack_starter_or_the_first_point():
    jacks = sum(1 for c in unseen_cards(HAND) if c.rank == 11)
    assert jacks == 3
    # Whoever scores first wins. A jack starter gives the dealer his heels before
    # anything else; otherwise the play's first point decides (someone always pegs at
    # least the last card): the hands are never counted.
    expected = jacks / 46 + (1 - jacks / 46) * _first_play_point_is_the_dealers()
    for win in _wins(120, 120, i_deal=True).values():
        assert win == pytest.approx(expected, abs=1e-9)
        assert win >= 3 / 46
    for win in _wins(120, 120, i_deal=False).values():
        assert win == pytest.approx(1 - expected, abs=1e-9)


def test_the_command_says_so():
    result = CliRunner().invoke(classic, ["discard", "--coach", "--json", "--dealer",
                                          "--scores", "120,120", *map(str, HAND)])
    assert result.exit_code == 0, result.output
    assert all(o["win"] >= 3 / 46 for o in json.loads(result.output)["options"])


@pytest.mark.parametrize("i_deal", [True, False])
def test_a_higher_own_score_never_lowers_the_chance(i_deal):
    for opponent in (100, 112, 117, 119, 120):
        before = _wins(105, opponent, i_deal)
        for me in range(106, 121):
            now = _wins(me, opponent, i_deal)
            assert all(now[k] >= before[k] - 1e-9 for k in now), (me, opponent)
            before = now
    # and one point more next to the end is worth something: 120 is not 119
    assert min(_wins(120, 119, i_deal).values()) > max(_wins(119, 119, i_deal).values())


@pytest.mark.parametrize("i_deal", [True, False])
def test_a_higher_score_of_the_opponent_never_raises_the_chance(i_deal):
    for me in (100, 112, 119, 120):
        before = _wins(me, 105, i_deal)
        for opponent in range(106, 121):
            now = _wins(me, opponent, i_deal)
            assert all(now[k] <= before[k] + 1e-9 for k in now), (me, opponent)
            before = now
