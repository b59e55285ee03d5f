"""The computer's levels, from ``easy`` to ``expert``.

=========  ==========================================  =================================
level      discard                                     the play
=========  ==========================================  =================================
easy       one of the better third of the discards     one of the better half of the
           by the four cards as they stand (no         cards by what they score now:
           starter), at random                         it often misses the best
medium     best expected hand over the starters        the card that scores most now
hard       expected hand and crib (dealer or pone)     scores now, avoids giving 15/31
expert     expected hand and crib (dealer or pone)     looks ahead: what the opponent
                                                       may still hold and reply
=========  ==========================================  =================================

Every level counts its own hands perfectly. A player sees only its
:class:`~kingscrib.classic.game.PlayerView`: its own cards, the starter and
the cards laid so far, never another hand nor the order of the deck.
"""

from __future__ import annotations

import random
from collections import Counter
from math import comb

from kingscrib.classic.cards import Card, deck
from kingscrib.classic.discard import analyse_discards, expected_hand, rank_points
from kingscrib.classic.game import Action, Discard, Play, PlayerView
from kingscrib.classic.pegging import MAX_COUNT, peg_score
from kingscrib.counting import card_points
from kingscrib.players.classic.base import perfect_claim

LEVELS = ("easy", "medium", "hard", "expert")


def unseen_by(view: PlayerView) -> list[Card]:
    """Cards this seat has not seen: they may be in other hands, the crib or the stock."""
    seen = set(view.hand) | set(view.kept) | set(view.discards) | {c for _, c in view.played}
    if view.starter is not None:
        seen.add(view.starter)
    return [c for c in deck() if c not in seen]


def owns_crib(view: PlayerView) -> bool:
    """Whether the crib counts for this seat's side."""
    return view.rules.side_of(view.dealer) == view.side


class LevelPlayer:
    """A computer player of one level."""

    def __init__(self, level: str = "expert", seed: int | None = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}; choose from {', '.join(LEVELS)}")
        self.level = level
        self.name = level
        self.rng = random.Random(seed)

    # ------------------------------------------------------------ choose

    def choose(self, view: PlayerView) -> Action:
        if view.phase == "show":
            return perfect_claim(view)
        if view.phase == "discard":
            return self.choose_discard(view)
        return self.choose_play(view)

    def choose_discard(self, view: PlayerView) -> Discard:
        hand = list(view.hand)
        n = view.rules.discards
        if self.level == "easy":
            # A beginner's eye: the four cards as they stand, and often not the best four
            # (at random among the better third): it plays some 300 points under Casual.
            ranked = sorted(
                (a for a in view.legal if isinstance(a, Discard)),
                key=lambda a: (_static_value([c for c in hand if c not in a.cards]), self.rng.random()),
                reverse=True,
            )
            return self.rng.choice(ranked[: max(1, len(ranked) // 3)])
        if self.level == "medium":
            unseen = unseen_by(view)
            best = max(
                (a for a in view.legal if isinstance(a, Discard)),
                key=lambda a: (
                    expected_hand([c for c in hand if c not in a.cards], unseen),
                    self.rng.random(),
                ),
            )
            return best
        options = analyse_discards(hand, dealer=owns_crib(view), discards=n)
        return Discard(tuple(options[0].discard))

    def choose_play(self, view: PlayerView) -> Play:
        plays = [a for a in view.legal if isinstance(a, Play)]
        if len(plays) == 1:
            return plays[0]
        pile = [c.rank for c in view.pile]
        if self.level == "easy":  # one of the better half by what it scores now
            ranked = sorted(plays, key=lambda a: (peg_score(pile + [a.card.rank]).total,
                                                  self.rng.random()), reverse=True)
            return self.rng.choice(ranked[: (len(ranked) + 1) // 2])
        unseen = unseen_by(view) if self.level == "expert" else []

        def value(action: Play) -> float:
            if self.level == "expert":
                return lookahead_value(view, action.card, unseen)
            if self.level == "hard":
                return _heuristic(view, action.card)
            return float(peg_score(pile + [action.card.rank]).total)

        return max(plays, key=lambda a: (value(a), self.rng.random()))


def _static_value(keep: list[Card]) -> float:
    """Points of four cards on their own (fifteens, pairs, runs, a four-card flush)."""
    pts = rank_points(tuple(sorted(c.rank for c in keep)))
    if len({c.suit for c in keep}) == 1:
        pts += 4
    return pts


def _heuristic(view: PlayerView, card: Card) -> float:
    """Points now, less a penalty for counts that invite a fifteen or thirty-one."""
    pile = [c.rank for c in view.pile]
    value = float(peg_score(pile + [card.rank]).total)
    new_count = view.count + card_points(card.rank)
    if new_count in (5, 21):
        value -= 1.5  # a ten-card makes 15 or 31
    if new_count < 15 and new_count + 10 >= 15 and new_count + 1 <= 15:
        value -= 0.2
    if not pile and card.rank == 5:
        value -= 1.0
    value += 0.01 * card_points(card.rank)  # keep low cards for the end of a count
    return value


def _next_opponent(view: PlayerView) -> int | None:
    n = view.rules.players
    for step in range(1, n):
        seat = (view.seat + step) % n
        if view.cards_left[seat] and view.rules.side_of(seat) != view.side:
            return seat
    return None


def expected_best_reply(replies: list[tuple[int, int]], n_unseen: int, k: int) -> float:
    """The expected points of the best reply of a player holding ``k`` of the
    ``n_unseen`` cards, ``replies`` giving each rank's points and its unseen copies:
    each reply counts when the player holds it and none better."""
    total = comb(n_unseen, k)
    expected_best = 0.0
    excluded = 0
    p_none_before = 1.0
    for pts, m in sorted(replies, key=lambda t: -t[0]):
        excluded += m
        p_none_after = comb(n_unseen - excluded, k) / total
        expected_best += pts * (p_none_before - p_none_after)
        p_none_before = p_none_after
    return expected_best


def lookahead_value(view: PlayerView, card: Card, unseen: list[Card]) -> float:
    """Points now, less the opponent's expected best reply, plus the chance they are stuck.

    The next opponent holds ``k`` cards drawn from the unseen ones; the chance
    they hold none of a set of ranks is C(N - m, k) / C(N, k).
    """
    pile = [c.rank for c in view.pile] + [card.rank]
    now = peg_score(pile).total
    count = view.count + card_points(card.rank)
    value = float(now) + 0.01 * card_points(card.rank)
    if count == MAX_COUNT:
        return value
    opp = _next_opponent(view)
    if opp is None:
        return value + 0.5
    k = view.cards_left[opp]
    n_unseen = len(unseen)
    k = min(k, n_unseen)
    by_rank = Counter(c.rank for c in unseen)
    replies: list[tuple[int, int]] = []  # (points, cards of that rank unseen)
    fits = 0
    for rank, m in by_rank.items():
        if count + card_points(rank) <= MAX_COUNT:
            replies.append((peg_score(pile + [rank]).total, m))
            fits += m
    total = comb(n_unseen, k)
    if total == 0:
        return value
    expected_best = expected_best_reply(replies, n_unseen, k)
    p_stuck = comb(n_unseen - fits, k) / total
    # if the opponent is stuck, this side plays on and takes at least the go
    value += p_stuck * 1.0 - expected_best
    # keep a card that can answer: a pair or a fifteen on the likely reply
    return value
