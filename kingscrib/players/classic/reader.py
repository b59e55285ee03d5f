"""Reading the other player's hand: what their discard and their plays say of it.

A player does not keep four random cards of their six: they keep the four that score
best with the starter, and lay away what suits the crib (good cards into their own, poor
ones into the opponent's). :func:`keep_ratios` says, for every multiset of four ranks,
how much likelier a player makes it their kept hand than the deal alone does: the chance
that the kept four are those ranks, over the chance that four cards dealt at random are.
The play's search weighs the hands the opponent may hold by it
(:func:`kingscrib.players.classic.pegsearch.opponent_holdings`).

It is worked out exactly over every deal of six ranks (suits aside: flushes and his nobs
rarely decide a discard), with a discarder that keeps the four of best expected show
over the starters plus or minus the crib's expected value of the two laid away; a
softmax over the options (``TEMPERATURE`` points) stands for the players who weigh the
options a little differently. The ratios are shipped in ``data/keep_ratios.json``;
``kingscrib classic train-expert`` rebuilds them (:mod:`kingscrib.training.keep_ratios`).

In the play, :func:`play_likelihood` says how likely the cards the opponent has laid
were with each holding (players take the points they see), and
:func:`holding_weigher` puts both together for the search.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations_with_replacement
from pathlib import Path

from kingscrib.classic.game import PlayerView
from kingscrib.classic.pegging import MAX_COUNT, count_of, peg_score
from kingscrib.counting import card_points

RATIOS_FILE = Path(__file__).with_name("data") / "keep_ratios.json"
Ranks = tuple[int, ...]
RANKS = range(1, 14)
TEMPERATURE = 0.5  # points: how sharply a discarder prefers its best option
GREED = 1.0  # how sharply a player in the play prefers the card that scores most at once


def kept_hands() -> list[Ranks]:
    """Every sorted multiset of four ranks (1,820)."""
    return list(combinations_with_replacement(RANKS, 4))


def deal_ways(ranks: Ranks) -> int:
    """How many sets of cards of a full pack have these ranks (a product of binomials)."""
    return math.prod(math.comb(4, m) for m in Counter(ranks).values())


@cache
def keep_ratios(dealer: bool) -> dict[Ranks, float]:
    """The shipped :func:`kingscrib.training.keep_ratios.compute_keep_ratios`
    (``data/keep_ratios.json``)."""
    data = json.loads(RATIOS_FILE.read_text())
    return {tuple(int(x) for x in key.split("-")): v
            for key, v in data["dealer" if dealer else "pone"].items()}


def opponent_turns(played: Sequence[tuple[int, int]], opponent: int) -> list[tuple[Ranks, int]]:
    """Each card the opponent laid in this deal's play: the ranks laid since the count
    was reset before it (the pile it was laid on) and its rank. ``played`` is every
    (seat, rank) laid so far, in order (two players: the count starts again at 31, or
    when the next card would take it over)."""
    out = []
    pile: list[int] = []
    for seat, rank in played:
        if count_of(pile) + card_points(rank) > MAX_COUNT:
            pile = []
        if seat == opponent:
            out.append((tuple(pile), rank))
        pile.append(rank)
        if count_of(pile) == MAX_COUNT:
            pile = []
    return out


def play_likelihood(turns: Sequence[tuple[Ranks, int]], holding: Ranks,
                    greed: float = GREED) -> float:
    """How likely the opponent laid what they did, had they held ``holding`` now: at each
    of their ``turns`` (:func:`opponent_turns`) they held the cards laid from then on and
    ``holding``, and chose among the ranks that fit with a chance that grows as
    ``exp(greed * points it scores at once)``: players take the points they see."""
    if not greed:
        return 1.0
    likelihood = 1.0
    for i, (pile, laid) in enumerate(turns):
        room = MAX_COUNT - count_of(pile)
        hand_then = list(holding) + [rank for _, rank in turns[i:]]
        options = {r for r in hand_then if card_points(r) <= room}
        weights = {r: math.exp(greed * peg_score(pile + (r,)).total) for r in options}
        likelihood *= weights[laid] / sum(weights.values())
    return likelihood


def holding_weigher(view: PlayerView, greed: float = GREED,
                    keep: bool = True) -> Callable[[Ranks], float]:
    """How much likelier than the deal alone makes it the opponent holds each multiset of
    ranks now (two players): their kept four (the holding and what they have laid) by
    :func:`keep_ratios`, times :func:`play_likelihood` of the cards they laid."""
    opponent = 1 - view.seat
    ratio = keep_ratios(view.dealer == opponent) if keep else None
    laid = tuple(c.rank for s, c in view.played if s == opponent)
    turns = opponent_turns([(s, c.rank) for s, c in view.played], opponent)

    def weigh(holding: Ranks) -> float:
        kept = tuple(sorted(laid + holding))
        prior = ratio.get(kept, 0.0) if ratio is not None else 1.0
        return prior * play_likelihood(turns, holding, greed)

    return weigh


__all__ = ["GREED", "RATIOS_FILE", "TEMPERATURE", "deal_ways", "holding_weigher", "keep_ratios",
           "kept_hands", "opponent_turns", "play_likelihood"]
