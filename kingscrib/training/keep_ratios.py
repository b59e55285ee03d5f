"""Computing how much likelier a player makes each kept hand than the deal does.

What the ratios are and how the players read them: :mod:`kingscrib.players.classic.reader`,
which loads what :func:`save_keep_ratios` writes (``data/keep_ratios.json``). It is worked
out exactly over every deal of six ranks, with a discarder that keeps the four of best
expected show plus or minus the crib's expected value of the two laid away, softened by
a softmax (``TEMPERATURE`` points).
"""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from itertools import combinations, combinations_with_replacement

from kingscrib.classic.cards import SUITS, Card
from kingscrib.classic.discard import expected_crib, rank_points
from kingscrib.players.classic import reader
from kingscrib.players.classic.reader import RANKS, TEMPERATURE, Ranks, deal_ways, kept_hands


def crib_by_pair() -> dict[tuple[int, int], float]:
    """A thrown rank pair's expected crib (two more cards and the starter drawn from the
    rest of the deck), with suits chosen to make no flush."""
    out = {}
    for a, b in combinations_with_replacement(RANKS, 2):
        thrown = (Card(a, SUITS[0]), Card(b, SUITS[1]))
        unseen = [Card(r, s) for r in RANKS for s in SUITS if Card(r, s) not in thrown]
        out[(a, b)] = expected_crib(thrown, unseen)
    return out


def hand_ev(keep: Ranks, left: list[int]) -> float:
    """A kept hand's expected rank points over the starters left (``left``: by rank)."""
    n = sum(left)
    return sum(left[s] * rank_points(tuple(sorted(keep + (s,)))) for s in RANKS if left[s]) / n


def save_keep_ratios(command: str) -> None:
    """Write :func:`compute_keep_ratios` for both seats where the players load them."""
    data = {"command": command,
            "about": "how much likelier than the deal a player keeps four ranks, by seat",
            "temperature": TEMPERATURE,
            **{seat: {"-".join(map(str, k)): v
                      for k, v in compute_keep_ratios(seat == "dealer").items()}
               for seat in ("dealer", "pone")}}
    reader.RATIOS_FILE.write_text(json.dumps(data, indent=0) + "\n")


def compute_keep_ratios(dealer: bool, temperature: float = TEMPERATURE) -> dict[Ranks, float]:
    """For each sorted multiset of four ranks: P(a player kept it) / P(four cards dealt at
    random make it), the player dealing (the crib theirs) or not (a few seconds)."""
    crib = crib_by_pair()
    sign = 1.0 if dealer else -1.0
    kept: defaultdict[Ranks, float] = defaultdict(float)
    for six in combinations_with_replacement(RANKS, 6):
        counts = Counter(six)
        if max(counts.values()) > 4:
            continue
        p_six = deal_ways(six)
        left = [4 - counts.get(r, 0) for r in range(14)]
        left[0] = 0
        options: dict[Ranks, float] = {}
        for idx in combinations(range(6), 2):
            throw = (six[idx[0]], six[idx[1]])
            keep = tuple(r for i, r in enumerate(six) if i not in idx)
            value = hand_ev(keep, left) + sign * crib[throw]
            options[keep] = max(options.get(keep, -math.inf), value)
        best = max(options.values())
        weights = {k: math.exp((v - best) / temperature) for k, v in options.items()}
        norm = sum(weights.values())
        for k, w in weights.items():
            kept[k] += p_six * w / norm
    total_six = sum(kept.values())
    out = {}
    for four in kept_hands():
        p_four = deal_ways(four) / math.comb(52, 4)
        out[four] = (kept[four] / total_six) / p_four
    return out


__all__ = ["compute_keep_ratios", "crib_by_pair", "hand_ev", "save_keep_ratios"]
