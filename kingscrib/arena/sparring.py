"""A Monte-Carlo classic Cribbage player, built independently of our levels, to spar with.

It is not a shipped level: it exists so that every change to the ``expert`` is screened
against a player we did not tune against (``benchmarks/sparring.py``), and the arena
rates it as ``sparring``. Two players only. It plays as the open-source Monte-Carlo
cribbage programs do:

- **discard**: each possible keep is valued by ``rollouts`` play-outs of the whole deal:
  a starter and an opponent's six cards drawn from the unseen ones, the opponent's
  discard by a fixed rule (the keep with most points on its own), the play with both
  sides pegging greedily, then the show; the keep with the best mean of (own points less
  the opponent's) wins.
- **each card in the play**: ``rollouts`` play-outs of the rest of the play, the
  opponent's hidden cards drawn from the unseen ones and kept only if the opponent's
  discard rule, given the cards it has shown and the drawn ones, would have laid away
  two of the unseen cards (so the draw is consistent with its likely discard).

Nothing of our own players is used: it scores with the engine's counting only.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

from kingscrib.classic.cards import Card, deck
from kingscrib.classic.discard import rank_points
from kingscrib.classic.game import Action, Discard, Play, PlayerView
from kingscrib.classic.pegging import MAX_COUNT, peg_score
from kingscrib.classic.show import score_show
from kingscrib.counting import card_points
from kingscrib.players.classic.base import perfect_claim

ROLLOUTS = 100  # the arena's sparring partner: play-outs per choice

CONSISTENT_TRIES = 30  # draws tried for one consistent with the opponent's discard


def greedy_card(hand: Sequence[int], pile: list[int], count: int) -> int | None:
    """The rank that pegs most now (ties: the higher count, then the higher rank)."""
    best, key = None, None
    for r in set(hand):
        if count + card_points(r) > MAX_COUNT:
            continue
        k = (peg_score([*pile, r]).total, -abs(15 - count - card_points(r)) if count < 15
             else 0, r)
        if key is None or k > key:
            best, key = r, k
    return best


def peg_rest(hands: list[list[int]], to_play: int, pile: list[int], count: int,
             last: int | None, first_choice: int | None = None) -> list[int]:
    """Points each side pegs in the rest of the play, both playing ``greedy_card``;
    ``first_choice`` is the rank ``to_play`` lays now."""
    hands = [list(h) for h in hands]
    pile = list(pile)
    points = [0, 0]
    passed = [False, False]
    seat = to_play
    choice = first_choice
    while hands[0] or hands[1]:
        card = choice if choice is not None else greedy_card(hands[seat], pile, count)
        choice = None
        if card is None:
            passed[seat] = True
            other = 1 - seat
            if passed[other] or not hands[other]:
                if last is not None and count != MAX_COUNT:
                    points[last] += 1  # go
                pile, count, passed = [], 0, [False, False]
                seat = 1 - last if last is not None else other
                if not hands[seat]:
                    seat = 1 - seat
                continue
            seat = other
            continue
        hands[seat].remove(card)
        pile.append(card)
        count += card_points(card)
        points[seat] += peg_score(pile).total
        last = seat
        if count == MAX_COUNT:
            pile, count, passed = [], 0, [False, False]
        other = 1 - seat
        if hands[other] and not passed[other]:
            seat = other
        elif not hands[seat]:
            seat = other
    if last is not None and count not in (0, MAX_COUNT):
        points[last] += 1  # last card
    return points


def rule_keep(six: Sequence[Card], starter: Card | None = None) -> tuple[Card, ...]:
    """The opponent model's discard: the four cards with most points on their own."""
    def points(keep: tuple[Card, ...]) -> int:
        ranks = sorted(c.rank for c in keep)
        return _static_points(ranks) + (4 if len({c.suit for c in keep}) == 1 else 0)

    return max(combinations(six, 4), key=lambda k: (points(k), sum(c.rank for c in k)))


def _static_points(ranks: list[int]) -> int:
    return rank_points(tuple(ranks))


class MonteCarloPlayer:
    """The sparring partner: Monte-Carlo discards and play, ``rollouts`` each choice."""

    def __init__(self, rollouts: int = ROLLOUTS, seed: int | None = None) -> None:
        self.rollouts = rollouts
        self.rng = random.Random(seed)
        self.name = f"montecarlo-{rollouts}"

    def choose(self, view: PlayerView) -> Action:
        if view.rules.players != 2:
            raise ValueError("the sparring partner plays two-player games only")
        if view.phase == "show":
            return perfect_claim(view)
        if view.phase == "discard":
            return self._discard(view)
        plays = [a for a in view.legal if isinstance(a, Play)]
        if len(plays) <= 1:
            return plays[0] if plays else view.legal[0]
        return self._play(view, plays)

    # ------------------------------------------------------------ discard

    def _discard(self, view: PlayerView) -> Discard:
        hand = list(view.hand)
        unseen = [c for c in deck() if c not in hand]
        mine = view.is_dealer
        best, best_value = None, None
        options = [a for a in view.legal if isinstance(a, Discard)]
        for option in options:
            keep = [c for c in hand if c not in option.cards]
            total = 0.0
            for _ in range(self.rollouts):
                drawn = self.rng.sample(unseen, 7)
                starter, six = drawn[0], drawn[1:]
                their_keep = list(rule_keep(six))
                their_away = [c for c in six if c not in their_keep]
                crib = [*option.cards, *their_away]
                # The pone leads: seat 0 here is me, 1 the opponent.
                pegs = peg_rest([[c.rank for c in keep], [c.rank for c in their_keep]],
                                1 if mine else 0, [], 0, None)
                net = pegs[0] - pegs[1]
                net += score_show(keep, starter).total - score_show(their_keep, starter).total
                crib_points = score_show(crib, starter, crib=True).total
                net += crib_points if mine else -crib_points
                if starter.rank == 11 and mine:
                    net += 2  # his heels
                total += net
            value = total / self.rollouts
            if best_value is None or value > best_value:
                best, best_value = option, value
        assert best is not None
        return best

    # ------------------------------------------------------------ the play

    def _play(self, view: PlayerView, plays: list[Play]) -> Play:
        opponent = 1 - view.seat
        their_laid = [c for s, c in view.played if s == opponent]
        hidden = view.cards_left[opponent]
        seen = set(view.hand) | set(view.kept) | set(view.discards) | {c for _, c in view.played}
        if view.starter is not None:
            seen.add(view.starter)
        unseen = [c for c in deck() if c not in seen]
        my_ranks = [c.rank for c in view.hand]
        pile = [c.rank for c in view.pile]
        last = None
        if view.pile:
            last_seat = view.played[-1][0]
            last = 0 if last_seat == view.seat else 1
        totals = {p: 0.0 for p in plays}
        for _ in range(self.rollouts):
            theirs = self._consistent_draw(unseen, their_laid, hidden, view)
            for p in plays:
                pegs = peg_rest([my_ranks, [c.rank for c in theirs]], 0, pile, view.count,
                                last, first_choice=p.card.rank)
                totals[p] += pegs[0] - pegs[1]
        return max(plays, key=lambda p: (totals[p], -card_points(p.card.rank)))

    def _consistent_draw(self, unseen: list[Card], laid: list[Card], hidden: int,
                         view: PlayerView) -> list[Card]:
        """The opponent's hidden cards, drawn so that its discard rule on its six cards
        (laid + hidden + two more unseen) would lay those two away."""
        draw = self.rng.sample(unseen, hidden)
        for _ in range(CONSISTENT_TRIES):
            extra = self.rng.sample(unseen, hidden + 2)
            held, away = extra[:hidden], extra[hidden:]
            six = [*laid, *held, *away]
            if set(rule_keep(six)) == {*laid, *held}:
                return held
        return draw


__all__ = ["ROLLOUTS", "MonteCarloPlayer", "greedy_card", "peg_rest", "rule_keep"]
