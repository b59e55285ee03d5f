"""What four kept cards are worth in the play: a table by their ranks and the seat.

For every multiset of four ranks a player may keep, as dealer and as pone, the points it
pegs less the points the other player pegs, on average over the hands the other player
keeps (drawn from the rest of the deck, weighed by :func:`.reader.keep_ratios`), the play
searched to its end with both hands known (:func:`.pegsearch.solve`). With both hands
known each side plays the other's cards perfectly, which makes kept hands differ more
than they do when neither sees the other's cards: the discard counts a share of the
table (``expert.PEG_SHARE``).

The table is shipped in ``data/peg_table.json``; ``kingscrib classic train-expert``
rebuilds it (:func:`kingscrib.training.pegtable.build`).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from kingscrib.players.classic.pegsearch import Ranks
from kingscrib.players.classic.reader import deal_ways, keep_ratios

TABLE_FILE = Path(__file__).with_name("data") / "peg_table.json"


@cache
def shipped_table() -> dict[str, dict[Ranks, float]]:
    data = json.loads(TABLE_FILE.read_text())
    return {seat: {tuple(int(x) for x in key.split("-")): float(v)
                   for key, v in data[seat].items()} for seat in ("dealer", "pone")}


def kept_pegging(keep: Ranks, dealer: bool) -> float:
    """The table's net pegging of four kept ranks (sorted) for the dealer or the pone."""
    return shipped_table()["dealer" if dealer else "pone"][keep]


@cache
def seat_pegging(dealer: bool) -> float:
    """The table's average over the hands a player keeps (by the deal and
    :func:`.reader.keep_ratios`): the seat's usual net pegging by this measure."""
    ratio = keep_ratios(dealer)
    total = norm = 0.0
    for hand, value in shipped_table()["dealer" if dealer else "pone"].items():
        w = deal_ways(hand) * ratio[hand]
        total += w * value
        norm += w
    return total / norm


__all__ = ["TABLE_FILE", "kept_pegging", "seat_pegging", "shipped_table"]
