"""The play's information-set search: play-outs equal the game engine played by the same
policy, holdings never hold a seen card, card values equal a plain enumeration."""

from __future__ import annotations

import math
import random
from collections import Counter
from itertools import combinations

from classic_stacked import (  # (the glicko2 package installs a "tests" of its own)
    deal_in_play,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kingscrib.classic.game import PlayerView
from kingscrib.classic.pegging import peg_score
from kingscrib.players.classic import expert
from kingscrib.players.classic.levels import lookahead_value, unseen_by
from kingscrib.players.classic.play_search import POLICIES, card_values, lookahead_rank, play_out
from kingscrib.players.classic.winprob import after_deal

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])




def sorted_ranks(cards) -> tuple[int, ...]:
    return tuple(sorted(c.rank for c in cards))


def rank_counts(cards) -> list[int]:
    out = [0] * 14
    for c in cards:
        out[c.rank] += 1
    return out


@SETTINGS
@given(seed=st.integers(0, 10**6), laid=st.integers(0, 6),
       policy=st.sampled_from(sorted(POLICIES)))
def test_play_out_equals_the_engine_played_by_the_same_policy(seed: int, laid: int,
                                                             policy: str) -> None:
    """The engine decides who lays and scores every card, and each seat's unseen cards
    come from its own view."""
    game = deal_in_play(seed, laid)
    if game.phase != "play":
        return
    lay = POLICIES[policy]
    me = game.to_act

    def engine_choice() -> int:
        view = game.view(game.to_act)
        return lay(sorted_ranks(view.hand), tuple(c.rank for c in view.pile), view.count,
                   rank_counts(unseen_by(view)), view.cards_left[1 - view.seat])

    hands = (sorted_ranks(game.hand(me)), sorted_ranks(game.hand(1 - me)))
    pile = tuple(c.rank for c in game.pile)
    unseen = (rank_counts(unseen_by(game.view(me))), rank_counts(unseen_by(game.view(1 - me))))
    first = engine_choice()
    before = list(game.scores)
    while game.phase == "play":
        rank = engine_choice()
        game.apply(next(a for a in game.legal_actions() if a.card.rank == rank))
    gained = (game.scores[me] - before[me], game.scores[1 - me] - before[1 - me])
    assert play_out(hands, pile, first, lay, unseen=unseen) == gained[0] - gained[1]
    # pegging out: the value is decided as soon as a player reaches what they need
    g0, g1 = gained
    assert play_out(hands, pile, first, lay, needs=(g0 + 1, g1 + 1), unseen=unseen) == g0 - g1
    if g0:
        assert play_out(hands, pile, first, lay, needs=(g0, g1 + 1), unseen=unseen) == 1.0
    if g1:
        assert play_out(hands, pile, first, lay, needs=(g0 + 1, g1), unseen=unseen) == 0.0


@SETTINGS
@given(seed=st.integers(0, 10**6), laid=st.integers(0, 6))
def test_lookahead_lays_a_card_expert_v1_values_most(seed: int, laid: int) -> None:
    game = deal_in_play(seed, laid)
    if game.phase != "play":
        return
    view = game.view(game.to_act)
    unseen = unseen_by(view)
    rank = lookahead_rank(sorted_ranks(view.hand), tuple(c.rank for c in view.pile),
                          view.count, rank_counts(unseen), view.cards_left[1 - view.seat])
    values = {a.card.rank: lookahead_value(view, a.card, unseen) for a in view.legal}
    assert math.isclose(values[rank], max(values.values()))


def test_the_search_takes_a_sure_fifteen_and_thirty_one() -> None:
    rng = random.Random(1)
    unseen = [r for r in range(1, 14) for _ in range(3)]
    values = card_values((10, 4, 2), (5,), unseen, 3, (), 0, rng)  # 10 on 5: fifteen
    assert max(values, key=values.get) == 10
    values = card_values((10, 3, 8), (10, 2, 9), unseen, 3, (), 0, rng)  # 21: 10 makes 31
    assert max(values, key=values.get) == 10


def greedy_lays(hand, pile, count) -> int:
    """The greedy policy written again: the most points now, then nearer 15, then higher."""
    fits = [r for r in set(hand) if count + min(r, 10) <= 31]
    return max(fits, key=lambda r: (peg_score(list(pile) + [r]).total,
                                    -abs(15 - count - min(r, 10)) if count < 15 else 0, r))


def plain_play(mine, theirs, pile, first) -> int:
    """The rest of the play by the greedy policy for both, written from the rules: points
    of player 0 less player 1 once player 0 lays ``first``."""
    hands = [list(mine), list(theirs)]
    pile = list(pile)
    net, mover, card, last = 0, 0, first, 0
    while True:
        hands[mover].remove(card)
        pile.append(card)
        total = sum(min(r, 10) for r in pile)
        net += (1 if mover == 0 else -1) * peg_score(pile).total
        last = mover
        fits = [any(total + min(x, 10) <= 31 for x in h) for h in hands]
        if fits[1 - mover]:
            mover = 1 - mover
        elif not fits[mover]:
            if total != 31:
                net += 1 if last == 0 else -1
            if not hands[0] and not hands[1]:
                return net
            pile = []
            mover = 1 - last if hands[1 - last] else last
        card = greedy_lays(hands[mover], pile, sum(min(r, 10) for r in pile))


def test_card_values_equal_the_mean_over_every_holding() -> None:
    """Few unseen cards: every holding of two is searched, each as likely as the deal
    makes it; the values are the weighted means of the play written out plainly."""
    rng = random.Random(5)
    for _ in range(20):
        cards = rng.sample(range(1, 14), 6)
        unseen = [r for r in cards for _ in range(rng.choice((1, 2)))]
        mine = tuple(sorted(rng.sample(range(1, 14), 2)))
        pile = (rng.choice((1, 2, 3)),)
        values = card_values(mine, pile, unseen, 2, (), 0, rng, policy="greedy",
                             weigh=lambda holding: 1.0)
        pairs = list(combinations(unseen, 2))  # each pair of cards equally likely
        for r in set(mine):
            expected = sum(plain_play(mine, sorted(p), pile, r) for p in pairs) / len(pairs)
            assert math.isclose(values[r], expected)


def test_holdings_played_out_never_hold_a_seen_card() -> None:
    seen_holdings = []
    rng = random.Random(3)
    unseen = [1, 1, 2, 5, 9, 9, 13]

    def weigh(holding):
        seen_holdings.append(holding)
        return 1.0

    card_values((4, 6), (), unseen, 3, (), 0, rng, weigh=weigh, samples=40, exact_limit=0)
    assert seen_holdings
    for holding in seen_holdings:
        assert not Counter(holding) - Counter(unseen)  # drawn from the unseen cards only


def expert_view(seed: int, scores: tuple[int, int]) -> PlayerView:
    """The first view in the play of a deal where the seat to lay has two or more cards
    that fit."""
    rng = random.Random(seed)
    while True:
        game = deal_in_play(rng.randrange(10**6), rng.randrange(0, 4))
        if game.phase != "play":
            continue
        game.scores = list(scores)
        view = game.view(game.to_act)
        if len(view.legal) > 1:
            return view


def test_the_expert_uses_the_search_when_set(monkeypatch) -> None:
    """With ``PLAY_SEARCH`` on, the expert's values are the play-outs' (by points, and
    by the chance to win near the end: between 0 and 1)."""
    monkeypatch.setattr(expert, "PLAY_SEARCH", 1)
    view = expert_view(11, (0, 0))
    choices = expert.play_choices(view)
    assert {c.card.rank for c in choices} == {a.card.rank for a in view.legal}
    near = expert_view(12, (110, 112))
    for choice in expert.play_choices(near):
        assert choice.by_win and 0.0 <= choice.value <= 1.0
    assert 0.0 < after_deal(110, 112, True) < 1.0  # the table the leaves are valued by
