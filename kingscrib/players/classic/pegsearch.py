"""Pegging by search: the rest of the play solved exactly for each hand the opponent may hold.

Only ranks matter in the play, so a state is the ranks each player still holds, the ranks
laid since the count was reset and who is to lay a card. :func:`solve` searches a state
with both hands known to the end of the play (every legal card, the go, 31 and the last
card exactly as :mod:`kingscrib.classic.game` scores them), the searcher maximising and
the opponent minimising a value of the points both peg from there on (by default the
difference; near the end of a game, the chance to win).

:func:`card_values` is the search over what the opponent may hold (two players): every
rank multiset of their unseen cards, drawn from the cards this seat has not seen, minus
those the play has ruled out (a "go" at a count shows they held nothing that fits),
weighted by how likely the deal made it (hypergeometric) and by how good a hand it makes
with the cards they have already laid (players keep good hands), or by what a reader
(:mod:`kingscrib.players.classic.reader`) makes of their discard and plays. With few
unseen cards every multiset is searched, otherwise a sample of them.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING, Protocol, TypedDict

from kingscrib.classic.pegging import MAX_COUNT, count_of, peg_score
from kingscrib.counting import card_points

if TYPE_CHECKING:
    from typing_extensions import Unpack

Ranks = tuple[int, ...]
# value(points pegged by the searcher, points pegged by the opponent) at the end of the play
Value = Callable[[int, int], float]
NEVER = 10**6  # "needs" for a game that cannot end in this play

DISCARD_WEIGHT = 0.15  # how strongly a hand's own points make it likelier (see card_values)
EXACT_LIMIT = 100  # search every rank multiset when there are at most this many (k <= 2)
SAMPLES = 48  # otherwise this many draws


class HoldingOptions(TypedDict, total=False):
    """The options of :func:`opponent_holdings` that the searches pass on to it."""

    exact_limit: int
    samples: int
    discard_weight: float
    weigh: Callable[[Ranks], float] | None
    pool: int


class CardSearch(Protocol):
    """A search of the play from this seat (:func:`card_values` or
    :func:`.play_search.card_values`, their other options bound): for each rank this seat
    may lay now, the value of the play after it."""

    def __call__(self, mine: Sequence[int], pile: Sequence[int], unseen: Sequence[int],
                 k: int, laid: Sequence[int], above: int, rng: random.Random, *,
                 needs: tuple[int, int] = ...,
                 value_for: Callable[[Ranks], Value] | None = ...) -> dict[int, float]: ...


@lru_cache(maxsize=1 << 16)
def peg_points(pile: Ranks) -> int:
    """What the last card laid on ``pile`` scores in the play (cached: searches ask often)."""
    return peg_score(pile).total


def net_points(mine: int, theirs: int) -> float:
    return float(mine - theirs)


class _Search:
    """The search of one position's play with both hands known (memoised)."""

    def __init__(self, value: Value, needs: tuple[int, int]) -> None:
        self.value = value
        self.needs = needs
        self.memo: dict[tuple[Ranks | int, ...], float] = {}
        # Counting points only, a state's value is the points pegged so far plus what is
        # to come, which does not depend on them: memoise that, whatever the path.
        self.additive = value is net_points and needs == (NEVER, NEVER)

    def node(self, h0: Ranks, h1: Ranks, pile: Ranks, count: int, mover: int, g0: int,
             g1: int) -> float:
        """``mover`` lays one of their cards that fit; g0, g1: points pegged so far."""
        key = (h0, h1, pile, mover) if self.additive else (h0, h1, pile, mover, g0, g1)
        found = self.memo.get(key)
        if found is not None:
            return found + (g0 - g1 if self.additive else 0)
        hand = h0 if mover == 0 else h1
        best = -math.inf if mover == 0 else math.inf
        last = None
        for i, r in enumerate(hand):  # hands are sorted: once a card is too big, so are the rest
            if count + card_points(r) > MAX_COUNT:
                break
            if r == last:
                continue
            last = r
            rest = hand[:i] + hand[i + 1:]
            v = self.lay(h0 if mover else rest, rest if mover else h1, pile + (r,),
                         count + card_points(r), mover, g0, g1)
            if (mover == 0 and v > best) or (mover == 1 and v < best):
                best = v
        self.memo[key] = best - (g0 - g1 if self.additive else 0)
        return best

    def lay(self, h0: Ranks, h1: Ranks, pile: Ranks, count: int, last: int, g0: int,
            g1: int) -> float:
        """The value once ``last`` has laid the last rank of ``pile``: its points, then who
        lays the next card (as the game decides: the other player, else the same one, else
        one for the go or the last card and the count starts again)."""
        got = peg_points(pile)
        needs = self.needs
        if last == 0:
            g0 += got
            if g0 >= needs[0]:
                return 1.0
        else:
            g1 += got
            if g1 >= needs[1]:
                return 0.0
        hands = (h0, h1)
        other = 1 - last
        if count < MAX_COUNT:
            room = MAX_COUNT - count
            if hands[other] and card_points(hands[other][0]) <= room:  # its lowest card fits
                return self.node(h0, h1, pile, count, other, g0, g1)
            if hands[last] and card_points(hands[last][0]) <= room:
                return self.node(h0, h1, pile, count, last, g0, g1)
            if last == 0:
                g0 += 1
                if g0 >= needs[0]:
                    return 1.0
            else:
                g1 += 1
                if g1 >= needs[1]:
                    return 0.0
        if not h0 and not h1:
            return self.value(g0, g1)
        return self.node(h0, h1, (), 0, other if hands[other] else last, g0, g1)


def solve(hands: tuple[Ranks, Ranks], pile: Ranks, to_move: int, value: Value = net_points,
          needs: tuple[int, int] = (NEVER, NEVER)) -> float:
    """The value of the rest of the play for player 0 (the searcher), both hands known.

    ``hands[i]`` are the ranks player ``i`` holds, ``pile`` the ranks laid since the count
    was reset and ``to_move`` who lays the next card (they must have one that fits).
    ``value(a, b)`` scores the end of the play from the points player 0 and player 1
    pegged in it; when a player's points reach ``needs[i]`` they win at once and the
    value is 1.0 (player 0) or 0.0 (player 1), so ``needs`` goes with a win-probability
    ``value``.
    """
    search = _Search(value, needs)
    h0, h1 = tuple(sorted(hands[0])), tuple(sorted(hands[1]))
    return search.node(h0, h1, tuple(pile), count_of(pile), to_move, 0, 0)


def move_values(hands: tuple[Ranks, Ranks], pile: Ranks, value: Value = net_points,
                needs: tuple[int, int] = (NEVER, NEVER)) -> dict[int, float]:
    """For each rank player 0 may lay now, the value of the play once it is laid (its own
    points included), both hands known."""
    search = _Search(value, needs)
    out: dict[int, float] = {}
    count = count_of(pile)
    mine, theirs = tuple(sorted(hands[0])), tuple(sorted(hands[1]))
    for i, r in enumerate(mine):
        if r in out or count + card_points(r) > MAX_COUNT:
            continue
        out[r] = search.lay(mine[:i] + mine[i + 1:], theirs, tuple(pile) + (r,),
                            count + card_points(r), 0, 0, 0)
    return out


# ----- the opponent's hand -------------------------------------------------------------
def opponent_holdings(unseen: Sequence[int], k: int, laid: Sequence[int], above: int,
                      rng: random.Random, exact_limit: int = EXACT_LIMIT,
                      samples: int = SAMPLES,
                      discard_weight: float = DISCARD_WEIGHT,
                      weigh: Callable[[Ranks], float] | None = None,
                      pool: int = 1) -> list[tuple[Ranks, float]]:
    """Rank multisets of ``k`` cards the opponent may hold, with weights summing to 1.

    ``unseen`` are the ranks of the cards this seat has not seen, ``laid`` the ranks the
    opponent has laid this deal, ``above``: every card they hold is worth more than this
    (from a go; 0 when none). A multiset's weight is the number of ways the deal gives it
    (a product of binomials) times ``exp(discard_weight * points)``, the points of the
    hand it makes with ``laid`` (fifteens, pairs, runs): players keep good hands. With
    ``weigh`` (:func:`kingscrib.players.classic.reader.holding_weigher`) that factor is
    ``weigh(multiset)`` instead: what the opponent's discard and plays say of it.

    When there are too many multisets to search them all, ``samples`` are searched: with
    ``pool`` above 1, ``pool`` times as many are dealt and ``samples`` drawn from them by
    their factor (so that the search goes to the likely holdings), else the factor
    weighs the ``samples`` dealt.
    """
    if k == 0:
        return [((), 1.0)]
    counts = Counter(r for r in unseen if card_points(r) > above)
    ranks = sorted(counts)
    if sum(counts.values()) < k:
        raise ValueError("fewer unseen cards than the opponent holds")

    def quality(multiset: Ranks) -> float:
        if weigh is not None:
            return weigh(multiset)
        kept = tuple(sorted(tuple(laid) + multiset))
        return math.exp(discard_weight * _hand_points(kept)) if discard_weight else 1.0

    def weight(multiset: Ranks) -> float:
        ways = 1
        for r, m in Counter(multiset).items():
            ways *= math.comb(counts[r], m)
        return ways * quality(multiset) if ways else 0.0

    total_multisets = math.comb(len(ranks) + k - 1, k)
    found: dict[Ranks, float] = {}
    if total_multisets <= exact_limit:
        for multiset in combinations_with_replacement(ranks, k):
            w = weight(multiset)
            if w:
                found[multiset] = w
    else:
        cards = [r for r in ranks for _ in range(counts[r])]
        # draws of cards are already as likely as the deal makes them: only the
        # hand-quality factor is applied as a weight
        dealt = [tuple(sorted(rng.sample(cards, k))) for _ in range(samples * pool)]
        factors = [quality(m) for m in dealt]
        if pool > 1 and any(factors):  # the factors are never negative
            dealt, factors = rng.choices(dealt, weights=factors, k=samples), [1.0] * samples
        for multiset, factor in zip(dealt, factors):
            found[multiset] = found.get(multiset, 0.0) + factor
    norm = sum(found.values())
    if not norm:  # every holding left is one no discarder keeps: fall back to the deal
        return opponent_holdings(unseen, k, laid, above, rng, exact_limit, samples, 0.0)
    return [(m, w / norm) for m, w in found.items()]


@lru_cache(maxsize=1 << 14)
def _hand_points(ranks: Ranks) -> int:
    from kingscrib.classic.discard import rank_points

    return rank_points(ranks) if len(ranks) >= 2 else 0


def card_values(mine: Sequence[int], pile: Sequence[int], unseen: Sequence[int], k: int,
                laid: Sequence[int], above: int, rng: random.Random,
                value: Value = net_points, needs: tuple[int, int] = (NEVER, NEVER),
                value_for: Callable[[Ranks], Value] | None = None,
                **holding_options: Unpack[HoldingOptions]) -> dict[int, float]:
    """For each rank this seat may lay now, the value of the play after it, averaged over
    the opponent's possible holdings (see :func:`opponent_holdings`). ``value_for``, when
    given, makes the end-of-play value depend on the holding (their show)."""
    holdings = opponent_holdings(unseen, k, laid, above, rng, **holding_options)
    totals: dict[int, float] = {}
    for theirs, w in holdings:
        leaf = value_for(theirs) if value_for is not None else value
        for r, v in move_values((tuple(mine), theirs), tuple(pile), leaf, needs).items():
            totals[r] = totals.get(r, 0.0) + w * v
    return totals


__all__ = ["CardSearch", "HoldingOptions", "card_values", "move_values", "net_points", "opponent_holdings", "peg_points", "solve"]
