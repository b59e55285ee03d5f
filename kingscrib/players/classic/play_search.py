"""Information-set search in the play: each card valued by play-outs that see no hand.

The expert's search (:mod:`.pegsearch`) solves the rest of the play for each holding the
opponent may have with both hands known, then averages: at its own later turns it is
credited with the card that is best against that one holding, a choice it could only make
seeing the other hand (strategy fusion), and the opponent is taken to reply seeing its
hand. Here each card this seat may lay is valued over the same holdings (drawn as
:func:`.pegsearch.opponent_holdings` draws them, weighed by the reader), but the rest of
the play is played out by a fixed policy that sees only its own cards and the pile, for
both players: neither is credited with knowing the other's hand.

Policies (``POLICY``):

- ``careful``: the card worth most now, less 1.5 for leaving a count of 5 or 21 (a
  ten-card makes 15 or 31), 0.2 for a count from 5 to 14 (a fifteen within reach) and 1
  for leading a 5, plus 0.01 a pip (low cards are kept for the end of a count): the
  ``hard`` level's play (:func:`.levels._heuristic`).
- ``greedy``: the card worth most now (ties: nearer to 15 while under it, then the higher
  rank), as the Monte-Carlo sparring partner lays its cards.
- ``lookahead``: ``expert-v1``'s play (:func:`.levels.lookahead_value`): the card worth most
  now less the other player's expected best reply from the cards this player has not
  seen, plus the chance they cannot reply. Each player reads its own unseen cards: this
  seat's are those it has not seen less what the opponent lays; the opponent's, this
  seat's cards (held and laid away) and the unseen ones less their holding, less what
  this seat lays (their own discard, unknown here, counts as unseen to them).

All are deterministic, so one play-out a holding and card is the value; a play-out is
a few microseconds of pure Python, so hundreds of holdings fit in a few milliseconds.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from math import comb
from typing import TYPE_CHECKING

from kingscrib.classic.pegging import MAX_COUNT, count_of
from kingscrib.counting import card_points
from kingscrib.players.classic.levels import expected_best_reply
from kingscrib.players.classic.pegsearch import (
    NEVER,
    HoldingOptions,
    Ranks,
    Value,
    net_points,
    opponent_holdings,
    peg_points,
)

if TYPE_CHECKING:
    from typing_extensions import Unpack

POLICY = "careful"
# policy(hand, pile, count, the ranks the mover has not seen by rank (a list of 14
# counts), how many cards the other player holds) -> the rank laid
Policy = Callable[[Ranks, Ranks, int, list[int], int], int]


def careful_rank(hand: Ranks, pile: Ranks, count: int, unseen: list[int] | None = None,
                 other_left: int = 0) -> int:
    """The rank the careful policy lays (``hand`` holds one that fits)."""
    best, best_value = -1, -1e9
    for r in hand:
        new = count + card_points(r)
        if new > MAX_COUNT:
            continue
        value = peg_points(pile + (r,)) + 0.01 * card_points(r)
        if new in (5, 21):
            value -= 1.5
        if 5 <= new <= 14:
            value -= 0.2
        if not pile and r == 5:
            value -= 1.0
        if value > best_value:
            best, best_value = r, value
    return best


def greedy_rank(hand: Ranks, pile: Ranks, count: int, unseen: list[int] | None = None,
                other_left: int = 0) -> int:
    """The rank the greedy policy lays (``hand`` holds one that fits)."""
    best, best_key = -1, None
    for r in hand:
        new = count + card_points(r)
        if new > MAX_COUNT:
            continue
        key = (peg_points(pile + (r,)), -abs(15 - new) if count < 15 else 0, r)
        if best_key is None or key > best_key:
            best, best_key = r, key
    return best


def lookahead_rank(hand: Ranks, pile: Ranks, count: int, unseen: list[int] | None = None,
                   other_left: int = 0) -> int:
    """The rank the look-ahead policy lays: ``unseen[r]`` cards of rank ``r`` the mover
    has not seen, of which the other player holds ``other_left``."""
    assert unseen is not None
    n_unseen = sum(unseen)
    best, best_value = -1, -1e9
    for r in hand:
        new = count + card_points(r)
        if new > MAX_COUNT or r == best:
            continue
        laid = pile + (r,)
        value = peg_points(laid) + 0.01 * card_points(r)
        if new < MAX_COUNT:
            if not other_left:
                value += 0.5
            else:
                value += _reply_value(laid, new, unseen, min(other_left, n_unseen), n_unseen)
        if value > best_value:
            best, best_value = r, value
    return best


def _reply_value(laid: Ranks, count: int, unseen: list[int], k: int, n_unseen: int) -> float:
    """The chance the other player is stuck less their expected best reply, holding ``k``
    of the ``n_unseen`` cards (as :func:`.levels.lookahead_value`)."""
    total = comb(n_unseen, k)
    if not total:
        return 0.0
    replies = []
    fits = 0
    for x in range(1, 14):
        m = unseen[x]
        if m and count + card_points(x) <= MAX_COUNT:
            replies.append((peg_points(laid + (x,)), m))
            fits += m
    return comb(n_unseen - fits, k) / total - expected_best_reply(replies, n_unseen, k)


POLICIES: dict[str, Policy] = {"careful": careful_rank, "greedy": greedy_rank,
                               "lookahead": lookahead_rank}


def _remove(hand: Ranks, r: int) -> Ranks:
    i = hand.index(r)
    return hand[:i] + hand[i + 1:]


def play_out(hands: tuple[Ranks, Ranks], pile: Ranks, first: int, policy: Policy,
             value: Value = net_points, needs: tuple[int, int] = (NEVER, NEVER),
             unseen: tuple[list[int], list[int]] | None = None) -> float:
    """Player 0 lays ``first`` on ``pile``, then both play on by ``policy`` to the end of
    the play (the go, 31 and the last card as the game scores them): ``value(points of
    player 0, points of player 1)``, or 1.0 / 0.0 as soon as one reaches ``needs``.
    ``unseen[i]``: the ranks player ``i`` has not seen (14 counts by rank), for a policy
    that reads them; each loses the ranks the other lays."""
    held = [tuple(hands[0]), tuple(hands[1])]
    if unseen is None:
        unseen = ([0] * 14, [0] * 14)
    else:
        unseen = (list(unseen[0]), list(unseen[1]))
    got = [0, 0]
    mover, r = 0, first
    count = count_of(pile)
    while True:
        held[mover] = _remove(held[mover], r)
        if unseen[1 - mover][r]:
            unseen[1 - mover][r] -= 1
        pile = pile + (r,)
        count += card_points(r)
        got[mover] += peg_points(pile)
        if got[mover] >= needs[mover]:
            return 1.0 if mover == 0 else 0.0
        last, other = mover, 1 - mover
        room = MAX_COUNT - count
        if any(card_points(x) <= room for x in held[other]):
            mover = other
        elif any(card_points(x) <= room for x in held[last]):
            mover = last
        else:
            if count < MAX_COUNT:  # the go, or the last card
                got[last] += 1
                if got[last] >= needs[last]:
                    return 1.0 if last == 0 else 0.0
            if not held[0] and not held[1]:
                return value(got[0], got[1])
            pile, count = (), 0
            mover = other if held[other] else last
        r = policy(held[mover], pile, count, unseen[mover], len(held[1 - mover]))


def card_values(mine: Sequence[int], pile: Sequence[int], unseen: Sequence[int], k: int,
                laid: Sequence[int], above: int, rng: random.Random,
                value: Value = net_points, needs: tuple[int, int] = (NEVER, NEVER),
                value_for: Callable[[Ranks], Value] | None = None,
                policy: str | None = None, my_discards: Sequence[int] = (),
                **holding_options: Unpack[HoldingOptions]) -> dict[int, float]:
    """For each rank this seat may lay now, the mean over the opponent's possible holdings
    (:func:`.pegsearch.opponent_holdings`, with ``holding_options``) of the play played
    out from it by ``policy`` (default ``POLICY``), as :func:`.pegsearch.card_values` but
    with neither player seeing the other's hand. ``my_discards``: the ranks this seat laid
    away (unseen by the opponent, for the look-ahead policy)."""
    lay = POLICIES[policy or POLICY]
    holdings = opponent_holdings(unseen, k, laid, above, rng, **holding_options)
    mine_t = tuple(sorted(mine))
    my_unseen = [0] * 14
    for r in unseen:
        my_unseen[r] += 1
    hidden_from_them = my_unseen.copy()  # less their holding, below
    for r in (*mine_t, *my_discards):
        hidden_from_them[r] += 1
    pile_t = tuple(pile)
    count = count_of(pile_t)
    ranks = sorted({r for r in mine_t if count + card_points(r) <= MAX_COUNT})
    totals = dict.fromkeys(ranks, 0.0)
    for theirs, w in holdings:
        leaf = value_for(theirs) if value_for is not None else value
        their_unseen = hidden_from_them.copy()
        for x in theirs:
            their_unseen[x] -= 1
        for r in ranks:
            totals[r] += w * play_out((mine_t, theirs), pile_t, r, lay, leaf, needs,
                                      (my_unseen, their_unseen))
    return totals


__all__ = ["POLICIES", "POLICY", "card_values", "careful_rank", "greedy_rank", "lookahead_rank",
           "play_out"]
