"""The pegging search equals brute force on small endings: the game engine itself tried
card by card, and a plain enumeration of the opponent's possible holdings."""

from __future__ import annotations

import copy
import math
import random
from itertools import combinations

from classic_stacked import (  # (the glicko2 package installs a "tests" of its own)
    deal_in_play,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kingscrib.classic.cards import deck
from kingscrib.classic.pegging import peg_score
from kingscrib.players.classic.pegsearch import card_values, move_values, opponent_holdings, solve

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def engine_minimax(game, me: int) -> int:
    """Brute force with the game engine: every legal card at every turn, to the end of the
    play; ``me`` maximises, the other minimises (points pegged by me - by the other)."""
    if game.phase != "play":
        return 0
    best = None
    for action in game.legal_actions():
        child = copy.deepcopy(game)
        before = list(child.scores)
        child.apply(action)
        gained = (child.scores[me] - before[me]) - (child.scores[1 - me] - before[1 - me])
        v = gained + engine_minimax(child, me)
        if best is None or (game.to_act == me and v > best) or (game.to_act != me and v < best):
            best = v
    return best




def ranks(cards) -> tuple[int, ...]:
    return tuple(sorted(c.rank for c in cards))


@SETTINGS
@given(seed=st.integers(0, 10**6), laid=st.integers(3, 6))
def test_solve_equals_the_engine_tried_card_by_card(seed: int, laid: int) -> None:
    game = deal_in_play(seed, laid)
    if game.phase != "play":
        return
    me = game.to_act
    hands = (ranks(game.hand(me)), ranks(game.hand(1 - me)))
    pile = tuple(c.rank for c in game.pile)
    assert solve(hands, pile, 0) == engine_minimax(game, me)
    # and each card's value: its points, then the rest of the play
    by_rank = move_values(hands, pile)
    for action in game.legal_actions():
        child = copy.deepcopy(game)
        before = list(child.scores)
        child.apply(action)
        gained = (child.scores[me] - before[me]) - (child.scores[1 - me] - before[1 - me])
        assert by_rank[action.card.rank] == gained + engine_minimax(child, me)


def plain_minimax(mine, theirs, pile, mover) -> int:
    """A second brute force, written from the rules without the engine: points pegged by
    player 0 less player 1 from here (mover must hold a card that fits)."""
    hands = [list(mine), list(theirs)]
    count = sum(min(r, 10) for r in pile)
    values = []
    for r in sorted(set(hands[mover])):
        if count + min(r, 10) > 31:
            continue
        rest = list(hands[mover])
        rest.remove(r)
        new = [rest, hands[1]] if mover == 0 else [hands[0], rest]
        new_pile = list(pile) + [r]
        pts = peg_score(new_pile).total
        total = count + min(r, 10)
        sign = 1 if mover == 0 else -1
        value = sign * pts
        fits = [any(total + min(x, 10) <= 31 for x in h) for h in new]
        if total == 31 or not (fits[0] or fits[1]):
            if total != 31:
                value += sign  # the go, or the last card
            if new[0] or new[1]:
                nxt = 1 - mover if new[1 - mover] else mover
                value += plain_minimax(new[0], new[1], [], nxt)
        else:
            nxt = 1 - mover if fits[1 - mover] else mover
            value += plain_minimax(new[0], new[1], new_pile, nxt)
        values.append(value)
    return max(values) if mover == 0 else min(values)


@SETTINGS
@given(seed=st.integers(0, 10**6))
def test_card_values_average_the_opponents_every_holding(seed: int) -> None:
    """With the opponent's last one or two cards unknown, the search over holdings equals
    the mean, over every pair of unseen cards (each equally likely), of the brute force."""
    rng = random.Random(seed)
    cards = deck()
    rng.shuffle(cards)
    k = rng.choice([1, 2])
    mine = [c.rank for c in cards[:rng.choice([1, 2, 3])]]
    pool = cards[4:4 + rng.randrange(6, 14)]  # the cards they may hold
    pile = []
    count = 0
    for c in cards[40:]:
        if count + min(c.rank, 10) < 31 and len(pile) < 2 and rng.random() < 0.6:
            pile.append(c.rank)
            count += min(c.rank, 10)
    if not any(count + min(r, 10) <= 31 for r in mine):
        return
    got = card_values(mine, pile, [c.rank for c in pool], k, laid=(), above=0,
                      rng=random.Random(0), discard_weight=0.0)
    combos = list(combinations(pool, k))
    for r in set(mine):
        if count + min(r, 10) > 31:
            assert r not in got
            continue
        total = 0.0
        for held in combos:
            rest = list(mine)
            rest.remove(r)
            total += move_values_by_plain(rest, [c.rank for c in held], pile, r)
        assert abs(got[r] - total / len(combos)) < 1e-9


def move_values_by_plain(rest, theirs, pile, r) -> int:
    """Player 0 lays ``r`` on ``pile``, then plain_minimax brute-forces the rest."""
    new_pile = list(pile) + [r]
    total = sum(min(x, 10) for x in new_pile)
    value = peg_score(new_pile).total
    fits = [any(total + min(x, 10) <= 31 for x in h) for h in (rest, theirs)]
    if total == 31 or not (fits[0] or fits[1]):
        if total != 31:
            value += 1  # the go, or the last card
        if rest or theirs:
            value += plain_minimax(rest, theirs, [], 1 if theirs else 0)
    else:
        value += plain_minimax(rest, theirs, new_pile, 1 if fits[1] else 0)
    return value


def test_holdings_weights_count_the_ways_the_deal_gives_them() -> None:
    unseen = [5, 5, 5, 10, 10, 13]
    got = dict(opponent_holdings(unseen, 2, laid=(), above=0, rng=random.Random(0),
                                 discard_weight=0.0))
    # C(6, 2) = 15 pairs: 5-5 three ways, 5-10 six, 5-K three, 10-10 one, 10-K two
    assert got == {(5, 5): 3 / 15, (5, 10): 6 / 15, (5, 13): 3 / 15, (10, 10): 1 / 15,
                   (10, 13): 2 / 15}
    # a go at 25 showed they hold nothing worth 6 or less
    assert dict(opponent_holdings(unseen, 2, (), above=6, rng=random.Random(0),
                                  discard_weight=0.0)) == {(10, 10): 1 / 3, (10, 13): 2 / 3}
    # players keep good hands: a holding's weight grows with the points of the hand it
    # makes with the cards they laid (here a 5 laid: 5 10 10 = 6 points, 5 10 K = 4)
    got = dict(opponent_holdings(unseen, 2, laid=(5,), above=6, rng=random.Random(0),
                                 discard_weight=0.5))
    a, b = 1 * math.exp(0.5 * 6), 2 * math.exp(0.5 * 4)
    assert abs(got[(10, 10)] - a / (a + b)) < 1e-12 and abs(got[(10, 13)] - b / (a + b)) < 1e-12
