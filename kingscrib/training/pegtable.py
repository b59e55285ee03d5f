"""Building the table of what four kept cards are worth in the play.

What the table says and how the expert reads it: :mod:`kingscrib.players.classic.pegtable`,
which loads what :func:`save` writes (``data/peg_table.json``). Each entry is the play
searched to its end with both hands known (:func:`~kingscrib.players.classic.pegsearch.solve`),
over opponent hands drawn by :func:`~kingscrib.players.classic.reader.keep_ratios`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence

from kingscrib.players.classic import pegtable
from kingscrib.players.classic.pegsearch import Ranks, solve
from kingscrib.players.classic.reader import RANKS, keep_ratios, kept_hands


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
    """Write the table where the players load it from."""
    pegtable.TABLE_FILE.parent.mkdir(exist_ok=True)
    data = {"command": command,
            "about": "a kept hand's expected points pegged less the opponent's, by seat,"
                     " the play searched with both hands known",
            **{seat: {"-".join(map(str, h)): round(v, 3) for h, v in rows.items()}
               for seat, rows in table.items()}}
    pegtable.TABLE_FILE.write_text(json.dumps(data, indent=0) + "\n")


__all__ = ["build", "save"]
