"""What four kept cards are worth in the play: a table by their ranks and the seat.

For every multiset of four ranks a player may keep, as dealer and as pone, the points it
pegs less the points the other player pegs, on average over the hands the other player
keeps (drawn from the rest of the deck, weighed by :func:`.reader.keep_ratios`), the play
searched to its end with both hands known (:func:`.pegsearch.solve`). With both hands
known each side plays the other's cards perfectly, which makes kept hands differ more
than they do when neither sees the other's cards: the discard counts a share of the
table (``expert.PEG_SHARE``).

The table is shipped in ``data/peg_table.json``; ``kingscrib classic train-expert``
rebuilds it (:func:`build`).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

from kingscrib.players.classic.pegsearch import Ranks, solve
from kingscrib.players.classic.reader import deal_ways, keep_ratios, kept_hands

TABLE_FILE = Path(__file__).with_name("data") / "peg_table.json"
RANKS = range(1, 14)


def build(hands_each: int, seed: int, progress: Callable[[int, int], None] | None = None,
          kept: Sequence[Ranks] | None = None) -> dict[str, dict[Ranks, float]]:
    """The table, each entry over ``hands_each`` opponent hands: "dealer" and "pone" map a
    kept hand (every one, or those ``kept``) to its expected net pegging for that seat."""
    rng = random.Random(seed)
    out: dict[str, dict[Ranks, float]] = {"dealer": {}, "pone": {}}
    mine_all = list(kept) if kept is not None else kept_hands()
    done = 0
    for seat in ("dealer", "pone"):
        they_deal = seat == "pone"
        ratio = keep_ratios(they_deal)
        to_move = 1 if seat == "dealer" else 0  # the pone lays first; the searcher is 0
        for mine in mine_all:
            rest = [r for r in RANKS for _ in range(4 - mine.count(r))]
            pool = [tuple(sorted(rng.sample(rest, 4))) for _ in range(hands_each * 4)]
            theirs = rng.choices(pool, weights=[ratio[h] for h in pool], k=hands_each)
            out[seat][mine] = sum(solve((mine, h), (), to_move) for h in theirs) / hands_each
            done += 1
            if progress:
                progress(done, 2 * len(mine_all))
    return out


def save(table: dict[str, dict[Ranks, float]], command: str) -> None:
    TABLE_FILE.parent.mkdir(exist_ok=True)
    data = {"command": command,
            "about": "a kept hand's expected points pegged less the opponent's, by seat,"
                     " the play searched with both hands known",
            **{seat: {"-".join(map(str, h)): round(v, 3) for h, v in rows.items()}
               for seat, rows in table.items()}}
    TABLE_FILE.write_text(json.dumps(data, indent=0) + "\n")


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


__all__ = ["build", "kept_pegging", "save", "seat_pegging", "shipped_table"]
