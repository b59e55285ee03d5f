"""The classic ``expert``: discards by expected points, pegging by search over what the
opponent's discard and plays say they hold, decided by win probability near
the end of a game (two players; with three or four it plays as ``expert-v1``).

Discards: for each of the 15 ways to lay away two cards,

- the kept hand's exact expected show over the 46 starters;
- the crib's expected value with the other player's two cards drawn as a real player
  throws them (:mod:`.crib_model`), counted for or against the player;
- the pegging value of the four kept, from a table by their ranks and the seat
  (:mod:`.pegtable`: the play searched with both hands known against the hands a
  player keeps), of which ``PEG_SHARE`` counts.

Far from the end the option with the most expected points is laid away. Once either
player is on ``NEAR_END`` or more, each option's chance to win is worked out from the
distribution of what the kept hand scores over the starters, the other player's likely
deal (from self-play deals) and the win-probability table for the next deal, with the
deal's points in the order they score (:mod:`.endgame`: his heels, the play, the pone's
hand, the dealer's), and the best chance wins.

Pegging: :func:`.pegsearch.card_values` over the opponent's possible holdings, each as
likely as the deal, their discard and their plays make it (:mod:`.reader`), valued in
points pegged (mine less theirs), or near the end in the chance to win: pegging out ends
the game at once, and at the end of the play the shows are counted in order (the pone's
hand first) before the table takes over. With ``PLAY_SEARCH`` on (off as shipped: it did
not gain, docs/benchmarks.md), the play is valued instead by play-outs in which neither
player sees the other's hand (:mod:`.play_search`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from itertools import combinations

from kingscrib.classic.cards import Card
from kingscrib.classic.discard import expected_hand, rank_points, unseen_cards
from kingscrib.classic.game import Action, Discard, Play, PlayerView
from kingscrib.classic.pegging import MAX_COUNT, peg_score
from kingscrib.classic.rules import WINNING_SCORE
from kingscrib.classic.show import score_show
from kingscrib.counting import JACK, card_points
from kingscrib.players.classic import endgame, play_search, winprob
from kingscrib.players.classic.base import perfect_claim
from kingscrib.players.classic.crib_model import (
    crib_with_starter,
    likely_crib,
)
from kingscrib.players.classic.levels import LevelPlayer, unseen_by
from kingscrib.players.classic.pegsearch import (
    CardSearch,
    HoldingOptions,
    Ranks,
    Value,
    card_values,
)
from kingscrib.players.classic.pegtable import kept_pegging, seat_pegging
from kingscrib.players.classic.reader import GREED, holding_weigher

NEAR_END = 81  # from this score (either player) choices are made by the chance to win
PEG_SHARE = 0.5  # the share of the pegging table a discard counts (docs/classic.md: why)
PLAY_SAMPLES = 96  # holdings the play searches when there are too many to search all
HOLDING_POOL = 8  # they are drawn by the reader from 8x as many dealt
PLAY_SEARCH = 0  # 1: the play by information-set play-outs (:mod:`.play_search`), not minimax
SEARCH_SAMPLES = 192  # holdings the play-outs take (one play-out a holding and card)


@dataclass(frozen=True)
class DiscardChoice:
    """One way to lay away two cards, with what it is expected to bring."""

    discard: tuple[Card, ...]
    keep: tuple[Card, ...]
    hand: float  # expected show of the kept hand over the 46 starters
    crib: float  # expected crib, + when it is the player's, - when it is the opponent's
    pegging: float  # expected points pegged, the player's less the opponent's (estimate)
    win: float  # chance to win the game with this discard

    @property
    def points(self) -> float:
        return self.hand + self.crib + self.pegging


@dataclass(frozen=True)
class PlayChoice:
    """One card to lay in the play."""

    card: Card
    points_now: int  # what laying it scores at once
    value: float  # points pegged from here (mine less theirs), or the chance to win
    by_win: bool  # whether ``value`` is a chance to win


def near_end(me: int, opponent: int) -> bool:
    return max(me, opponent) >= NEAR_END


# ----- discards --------------------------------------------------------------------
def rank_discards(hand: Sequence[Card], i_deal: bool, me: int = 0, opponent: int = 0,
                  rng: random.Random | None = None,
                  peg_share: float | None = None) -> list[DiscardChoice]:
    """Every way to lay away two of six cards (two players), best first: by the chance to
    win near the end of a game, by expected points otherwise. (``rng`` is not used: the
    choice is exact; it is kept for callers that pass one.)"""
    if peg_share is None:
        peg_share = PEG_SHARE
    hand = sorted(hand)
    if len(hand) != 6 or len(set(hand)) != 6:
        raise ValueError("give six different cards")
    unseen = unseen_cards(hand)
    thrower = "theirs" if i_deal else "own"  # whose crib it is, seen by the other player
    sign = 1.0 if i_deal else -1.0
    out = []
    for throw in combinations(hand, 2):
        keep = tuple(c for c in hand if c not in throw)
        hand_ev = expected_hand(keep, unseen)
        crib = sign * likely_crib(throw, unseen, thrower)
        peg = peg_share * kept_pegging(tuple(sorted(c.rank for c in keep)), i_deal)
        # the chance to win takes the seat's usual pegging from the deals (``means``)
        above_usual = peg - peg_share * seat_pegging(i_deal)
        win = _discard_win(me, opponent, i_deal, keep, unseen, abs(crib), above_usual)
        out.append(DiscardChoice(throw, keep, hand_ev, crib, peg, win))
    if near_end(me, opponent):
        out.sort(key=lambda c: (-c.win, -c.points))
    else:
        out.sort(key=lambda c: (-c.points, -c.win))
    return out


def show_by_starter(keep: Sequence[Card], unseen: Sequence[Card]) -> list[int]:
    """The kept hand's show with each unseen card as the starter (as ``score_show``)."""
    ranks = [c.rank for c in keep]
    suit = keep[0].suit
    flush = all(c.suit == suit for c in keep)
    jacks = {c.suit for c in keep if c.rank == JACK}
    out = []
    for s in unseen:
        pts = rank_points(tuple(sorted(ranks + [s.rank])))
        if flush:
            pts += 5 if s.suit == suit else 4
        if s.suit in jacks:
            pts += 1
        out.append(pts)
    return out


def _discard_win(me: int, opponent: int, i_deal: bool, keep: Sequence[Card],
                 unseen: Sequence[Card], crib: float, peg: float) -> float:
    """The chance to win with this discard (:func:`.endgame.discard_win`: the deal's
    points in the order they score). My show is the kept hand's with each starter, plus
    the crib if I deal and half of how much this option's ``peg`` is above the seat's
    usual; theirs is their seat's show in the sampled deals, moved the other way by that
    half and, when the crib is theirs, by how this crib differs from the average."""
    extra = peg / 2 + (crib if i_deal else 0.0)
    if i_deal:
        theirs = endgame.shows("pone", round(-peg / 2))
    else:
        theirs = endgame.shows("dealer+crib", round(-peg / 2 + crib - endgame.mean_crib()))
    return endgame.discard_win(me, opponent, i_deal, show_by_starter(keep, unseen),
                               [s.rank == JACK for s in unseen], extra, theirs)


# ----- the play --------------------------------------------------------------------
def go_floor(view: PlayerView) -> int:
    """What a "go" in this deal showed of the opponent's cards: every card they hold is
    worth more than this (0 when they have said no go). Two players."""
    opp = 1 - view.seat
    left = 4
    count = 0
    floor = 0
    played = list(view.played)
    for i, (seat, card) in enumerate(played):
        if seat == opp:
            left -= 1
        count += card_points(card.rank)
        nxt = played[i + 1] if i + 1 < len(played) else None
        if count == MAX_COUNT:
            count = 0
            continue
        reset = nxt is not None and count + card_points(nxt[1].rank) > MAX_COUNT
        if nxt is None:
            reset = not view.pile  # the count has started again since this card
        by_me_again = seat == view.seat and (nxt is None or nxt[0] == view.seat)
        if left and (reset or by_me_again):
            floor = max(floor, MAX_COUNT - count)
        if reset:
            count = 0
    return floor


def play_choices(view: PlayerView, rng: random.Random | None = None,
                 samples: int = PLAY_SAMPLES, read: bool = True, greed: float = GREED,
                 keep: bool = True) -> list[PlayChoice]:
    """Each card this seat may lay now, best first (two players)."""
    rng = rng or random.Random(0)
    plays = [a.card for a in view.legal if isinstance(a, Play)]
    pile = tuple(c.rank for c in view.pile)
    opp = 1 - view.seat
    laid = tuple(c.rank for s, c in view.played if s == opp)
    unseen = [c.rank for c in unseen_by(view)]
    me, them = view.scores[view.side], view.scores[1 - view.side]
    by_win = near_end(me, them)
    mine = tuple(c.rank for c in view.hand)
    holding: HoldingOptions = {"samples": SEARCH_SAMPLES if PLAY_SEARCH else samples,
                               "pool": HOLDING_POOL}
    if read:
        holding["weigh"] = holding_weigher(view, greed, keep)
    search: CardSearch = (
        partial(play_search.card_values, my_discards=tuple(c.rank for c in view.discards),
                **holding)
        if PLAY_SEARCH else partial(card_values, **holding))
    if by_win:
        values = win_values(view, mine, pile, unseen, laid, rng, search)
    else:
        values = search(mine, pile, unseen, view.cards_left[opp], laid, go_floor(view), rng)
    out = [PlayChoice(c, peg_score(pile + (c.rank,)).total, values[c.rank], by_win)
           for c in plays]
    out.sort(key=lambda p: (-p.value, -p.points_now, p.card))
    return out


def win_values(view: PlayerView, mine: Ranks, pile: Ranks, unseen: list[int], laid: Ranks,
                rng: random.Random, search: CardSearch = card_values) -> dict[int, float]:
    """For each rank this seat may lay, the chance to win once it is laid (see
    :func:`play_choices`; ``search``: :func:`.pegsearch.card_values` or
    :func:`.play_search.card_values`, with their options)."""
    assert view.starter is not None
    me, them = view.scores[view.side], view.scores[1 - view.side]
    i_deal = view.is_dealer
    my_show = score_show(view.kept, view.starter).total
    crib = round(crib_in_play(view))
    starter = view.starter.rank
    needs = (WINNING_SCORE - me, WINNING_SCORE - them)

    def value_for(holding: Ranks) -> Value:
        """The chance to win at the end of the play, the opponent holding ``holding``:
        their show is that of the hand it makes with what they laid (ranks only)."""
        kept = tuple(sorted(laid + holding))
        their_show = rank_points(tuple(sorted(kept + (starter,)))) if len(kept) == 4 else 0
        return _leaf(me, them, i_deal, my_show, their_show, crib)

    return search(mine, pile, unseen, view.cards_left[1 - view.seat], laid,
                  go_floor(view), rng, needs=needs, value_for=value_for)


def crib_in_play(view: PlayerView) -> float:
    """The crib's expected points during the play (two players), seen by this seat."""
    assert view.starter is not None
    return crib_with_starter(view.discards, view.starter, unseen_by(view),
                             "theirs" if view.is_dealer else "own")


def _leaf(me: int, them: int, i_deal: bool, my_show: int, their_show: int, crib: int) -> Value:
    goal = WINNING_SCORE

    def value(g_me: int, g_them: int) -> float:
        m, t = me + g_me, them + g_them
        if not i_deal:  # I count first
            if m + my_show >= goal:
                return 1.0
            if t + their_show + crib >= goal:
                return 0.0
            return winprob.after_deal(m + my_show, t + their_show + crib, False)
        if t + their_show >= goal:
            return 0.0
        if m + my_show + crib >= goal:
            return 1.0
        return winprob.after_deal(m + my_show + crib, t + their_show, True)

    return value


class ExpertPlayer:
    """The strongest classic player (see the module's docstring)."""

    name = "expert"

    def __init__(self, seed: int | None = None, samples: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.samples = PLAY_SAMPLES if samples is None else samples
        self.fallback = LevelPlayer("expert", seed)

    def choose(self, view: PlayerView) -> Action:
        if view.phase == "show":
            return perfect_claim(view)
        if view.rules.players != 2:
            return self.fallback.choose(view)
        me, them = view.scores[view.side], view.scores[1 - view.side]
        if view.phase == "discard":
            best = rank_discards(view.hand, view.is_dealer, me, them, self.rng)[0]
            return Discard(best.discard)
        plays = [a for a in view.legal if isinstance(a, Play)]
        if len(plays) == 1:
            return plays[0]
        return Play(play_choices(view, self.rng, self.samples)[0].card)


__all__ = ["NEAR_END", "DiscardChoice", "ExpertPlayer", "PlayChoice", "crib_in_play", "go_floor",
           "near_end", "play_choices", "rank_discards", "show_by_starter", "win_values"]
