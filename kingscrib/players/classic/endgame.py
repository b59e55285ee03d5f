"""The chance to win with a discard, the deal's points counted in the order they score.

Near 121 the order decides the game, not the totals: his heels come first (two to the
dealer when the starter is a jack), then the play (the pone leads; the points fall
as the cards do), then the pone's hand, and last the dealer's hand and crib. So the
dealer on 120 against 120 wins at once on a jack starter and whenever he pegs first,
though the pone's hand would take the pone past 121 later.

The play is a race drawn from self-play deals (:func:`winprob.shipped_phases`): for
what each player needs, how often the dealer pegs out first, how often the pone does,
and else how many points each pegged. The shows are each seat's hands in those deals
(the player's own: the exact show of the kept hand over the starters). A deal that
ends nobody's game leads to the next one, valued by the win-probability table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache

import numpy as np

from kingscrib.classic.rules import WINNING_SCORE
from kingscrib.players.classic import winprob

GOAL = WINNING_SCORE
HEELS = 2


def _vector(counts: Counter[int]) -> np.ndarray:
    """A distribution over 0, 1, 2, ... points from counts (negative points count 0)."""
    size = max(max(counts, default=0), 0) + 1
    out = np.zeros(size)
    for k, v in counts.items():
        out[max(k, 0)] += v
    out /= out.sum()
    return out


@cache
def shows(kind: str, shift: int = 0) -> np.ndarray:
    """The distribution of a seat's show in the sampled deals: ``pone`` (hand),
    ``dealer`` (hand) or ``dealer+crib``, moved by ``shift`` points."""
    counts: Counter[int] = Counter()
    for deal in winprob.shipped_phases():
        pone, dealer, crib = deal[:3]
        counts[(pone if kind == "pone" else dealer + (crib if kind == "dealer+crib" else 0))
               + shift] += 1
    return _vector(counts)


@cache
def mean_crib() -> float:
    deals = winprob.shipped_phases()
    return sum(d[2] for d in deals) / len(deals)


@cache
def most_pegged() -> int:
    """The most points one player pegged in a sampled play."""
    return max(max(sum(x for x in d[3:] if x > 0), -sum(x for x in d[3:] if x < 0))
               for d in winprob.shipped_phases())


def play_race(dealer_needs: int, pone_needs: int) -> tuple[float, float, np.ndarray]:
    """(the dealer pegs out first, the pone does, R) over the sampled plays: R[p, d] is
    how often neither does and the pone pegs p points and the dealer d."""
    cap = most_pegged() + 1  # needing more than any play gives is all one
    return _play_race(min(dealer_needs, cap), min(pone_needs, cap))


@cache
def _play_race(dealer_needs: int, pone_needs: int) -> tuple[float, float, np.ndarray]:
    deals = winprob.shipped_phases()
    dealer_first = pone_first = 0
    rest: Counter[tuple[int, int]] = Counter()
    for deal in deals:
        p = d = 0
        for x in deal[3:]:
            if x > 0:
                p += x
                if p >= pone_needs:
                    pone_first += 1
                    break
            else:
                d -= x
                if d >= dealer_needs:
                    dealer_first += 1
                    break
        else:
            rest[(p, d)] += 1
    n = len(deals)
    size = max([0, *(max(k) for k in rest)]) + 1
    table = np.zeros((size, size))
    for (p, d), v in rest.items():
        table[p, d] = v / n
    return dealer_first / n, pone_first / n, table


@cache
def _next_deal(i_dealt: bool) -> np.ndarray:
    """A[m, o]: my chance to win when a deal I dealt (or not) leaves me on m and the
    other player on o (121 and over: the game is decided)."""
    return np.array([[winprob.after_deal(m, o, i_dealt) for o in range(GOAL + 1)]
                     for m in range(GOAL + 1)])


def _spread(table: np.ndarray, dist: np.ndarray, axis: int) -> np.ndarray:
    """``table`` with the points along ``axis`` increased by a draw from ``dist``."""
    shape = list(table.shape)
    shape[axis] += len(dist) - 1
    out = np.zeros(shape)
    for k, w in enumerate(dist):
        if w:
            index = [slice(None), slice(None)]
            index[axis] = slice(k, k + table.shape[axis])
            out[tuple(index)] += w * table
    return out


def _after_play(table: np.ndarray, me: int, opponent: int, mine: np.ndarray,
                theirs: np.ndarray, i_deal: bool) -> float:
    """My chance to win from the play's end (``table[m, o]``: how often I pegged m and
    they o) through the shows, the pone's first."""
    both = _spread(_spread(table, mine, 0), theirs, 1)
    m = np.minimum(me + np.arange(both.shape[0]), GOAL)[:, None]
    o = np.minimum(opponent + np.arange(both.shape[1]), GOAL)[None, :]
    value = _next_deal(i_deal)[m, o]
    if i_deal:  # the pone (they) count first
        value = np.where(o >= GOAL, 0.0, np.where(m >= GOAL, 1.0, value))
    else:
        value = np.where(m >= GOAL, 1.0, np.where(o >= GOAL, 0.0, value))
    return float((both * value).sum())


def discard_win(me: int, opponent: int, i_deal: bool, my_shows: Sequence[int],
                jacks: Sequence[bool], extra: float, theirs: np.ndarray) -> float:
    """My chance to win a deal with this discard. ``my_shows[i]``: my kept hand's show
    with the i-th unseen card as the starter (``jacks[i]``: it is a jack, his heels);
    ``extra``: my points added to the show (the crib if I deal, how much better than
    usual this hand pegs); ``theirs``: the distribution of their show (and crib)."""
    total = 0.0
    n = len(my_shows)
    for heels in (False, True):
        group = [round(h + extra) for h, j in zip(my_shows, jacks) if j == heels]
        if not group:
            continue
        weight = len(group) / n
        me_now = me + (HEELS if heels and i_deal else 0)
        them_now = opponent + (HEELS if heels and not i_deal else 0)
        if me_now >= GOAL:
            total += weight
            continue
        if them_now >= GOAL:
            continue
        dealer_needs, pone_needs = ((GOAL - me_now, GOAL - them_now) if i_deal
                                    else (GOAL - them_now, GOAL - me_now))
        dealer_first, pone_first, rest = play_race(dealer_needs, pone_needs)
        mine_first = dealer_first if i_deal else pone_first
        table = rest.T if i_deal else rest  # [my points, their points]
        value = mine_first + _after_play(table, me_now, them_now, _vector(Counter(group)),
                                         theirs, i_deal)
        total += weight * value
    return total


__all__ = ["discard_win", "mean_crib", "play_race", "shows"]
