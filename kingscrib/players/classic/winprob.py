"""The chance to win a two-player game of classic Cribbage from any pair of scores.

``W[x][y]`` is the chance that the pone (the player who does not deal) wins when a deal
starts with the pone on ``x`` points and the dealer on ``y``. It is computed by dynamic
programming over a sample of whole deals played by two computer players: each deal is
kept as its scoring in the order it is pegged (heels, the play, then the pone's hand,
the dealer's hand, the crib), so a deal that takes one player to 121 before the other
decides the game, and any other deal leads to the next one with the deal passed on::

    W[x][y] = mean over the deals of   1                    if the pone reaches 121 first
                                       0                    if the dealer does
                                       1 - W[y + d][x + p]  otherwise (p, d: the deal's points)

Every deal scores at least one point (the last card), so the cells a deal leads to have a
larger total and the table is filled from the highest totals down. The sample and the
table are shipped in ``data/``; ``kingscrib classic train-expert`` rebuilds both
(:mod:`kingscrib.training.winprob`).

>>> round(win_probability(0, 0, i_deal=True), 2) > 0.5   # the first dealer is ahead
True
>>> win_probability(121, 40, i_deal=False)
1.0
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from kingscrib.classic.rules import WINNING_SCORE

DATA = Path(__file__).with_name("data")
TABLE_FILE = DATA / "winprob.json"
DEALS_FILE = DATA / "deals.json"
PHASES_FILE = DATA / "deal_phases.json"
GOAL = WINNING_SCORE

# A deal is a list of signed points in the order they were pegged: + the pone, - the dealer.
Deal = list[int]


@cache
def shipped_phases() -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(d) for d in json.loads(PHASES_FILE.read_text())["deals"])


@cache
def shipped_table() -> tuple[tuple[float, ...], ...]:
    data = json.loads(TABLE_FILE.read_text())
    return tuple(tuple(row) for row in data["W"])


def shipped_deals() -> list[Deal]:
    return [[int(x) for x in deal] for deal in json.loads(DEALS_FILE.read_text())["deals"]]


def pone_wins(pone: int, dealer: int) -> float:
    """The chance that the pone wins from these scores at the start of a deal."""
    if pone >= GOAL:
        return 1.0
    if dealer >= GOAL:
        return 0.0
    return shipped_table()[max(0, pone)][max(0, dealer)]


def win_probability(me: int, opponent: int, i_deal: bool) -> float:
    """My chance to win from these scores when a deal starts (``i_deal``: I deal it)."""
    if me >= GOAL:
        return 1.0
    if opponent >= GOAL:
        return 0.0
    return 1.0 - pone_wins(opponent, me) if i_deal else pone_wins(me, opponent)


def after_deal(me: int, opponent: int, i_dealt: bool) -> float:
    """My chance to win once a deal I dealt (or not) has left these scores: the next
    deal passes to the other player."""
    return win_probability(me, opponent, i_deal=not i_dealt)


__all__ = ["DEALS_FILE", "Deal", "GOAL", "PHASES_FILE", "TABLE_FILE", "after_deal", "pone_wins",
           "shipped_deals", "shipped_phases", "shipped_table", "win_probability"]
