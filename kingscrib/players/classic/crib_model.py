"""What the other player throws to the crib, and the crib's value given it.

A player does not throw two random cards: into their own crib they lay cards that score
together (fives, pairs, touching cards), into their opponent's crib cards that do not.
Dealing random hands and recording the ranks that a strong discarder
(the exact hand and crib expectation of :func:`~kingscrib.classic.discard.analyse_discards`)
lays away, once as dealer and once as pone: the prior ``P(rank pair | whose crib)``
(:func:`kingscrib.training.crib_model.train_prior`). :func:`likely_crib` is then the crib's expected fifteens, pairs and runs when the other
two cards are drawn by that prior (and by what is still unseen), and the starter from
the rest. The prior is shipped in ``data/crib_prior.json``; ``kingscrib classic
train-expert`` rebuilds it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache, lru_cache
from math import comb
from pathlib import Path
from typing import Any

from kingscrib.classic.cards import Card
from kingscrib.classic.discard import expected_crib, rank_points
from kingscrib.counting import JACK

PRIOR_FILE = Path(__file__).with_name("data") / "crib_prior.json"
RANKS = range(1, 14)
Pair = tuple[int, int]


@cache
def deal_means() -> dict[str, Any]:
    return dict(json.loads(PRIOR_FILE.read_text())["means"])


@cache
def dealer_pegs_at_least(points: int) -> float:
    """How often the dealer pegs ``points`` or more in the play (self-play)."""
    dist = deal_means()["peg_dealer_dist"]
    return sum(float(p) for k, p in dist.items() if int(k) >= points)


@cache
def shipped_prior() -> dict[str, dict[Pair, float]]:
    data = json.loads(PRIOR_FILE.read_text())
    out = {}
    for key in ("own", "theirs"):
        table = {}
        for text, v in data[key].items():
            a, b = text.split("-")
            table[(int(a), int(b))] = float(v)
        out[key] = table
    return out


def likely_crib(thrown: Sequence[Card], unseen: Sequence[Card], owner_throws: str,
                prior: dict[str, dict[Pair, float]] | None = None) -> float:
    """The crib's expected points when it holds the two ``thrown`` cards and the other two
    are laid by a player whose crib it is (``owner_throws="own"``) or is not ("theirs"),
    drawn by the prior among the ``unseen`` cards; the starter from the rest.

    The fifteens, pairs and runs come from that draw; the nobs and flush are the uniform
    draw's (:func:`~kingscrib.classic.discard.expected_crib`), which the thrower's choice
    hardly changes.
    """
    table = (prior or shipped_prior())[owner_throws]
    counts = [0] * 14
    for c in unseen:
        counts[c.rank] += 1
    known = tuple(sorted(c.rank for c in thrown))
    weighted = _ranks_ev(known, tuple(counts), _frozen(table))
    uniform = _ranks_ev(known, tuple(counts), None)
    return expected_crib(thrown, unseen) + weighted - uniform


def crib_with_starter(thrown: Sequence[Card], starter: Card, unseen: Sequence[Card],
                      owner_throws: str, prior: dict[str, dict[Pair, float]] | None = None) -> float:
    """The crib's expected points once the starter is known (in the play): ``thrown`` are
    this player's two cards, the other two are drawn by the prior (as in
    :func:`likely_crib`) from ``unseen``, the cards this player has not seen and that may
    still be in the crib - not the starter, nor a card laid in the play."""
    table = (prior or shipped_prior())[owner_throws]
    by_rank: dict[int, list[Card]] = {}
    for c in unseen:
        by_rank.setdefault(c.rank, []).append(c)
    known = [c.rank for c in thrown] + [starter.rank]
    nobs_jack = Card(JACK, starter.suit)
    nob_thrown, nob_unseen = nobs_jack in thrown, nobs_jack in unseen
    total_w = total = 0.0
    for a in RANKS:
        for b in range(a, 14):
            ca, cb = len(by_rank.get(a, ())), len(by_rank.get(b, ()))
            ways = comb(ca, 2) if a == b else ca * cb
            w = ways * table.get((a, b), 0.0)
            if not w:
                continue
            pts: float = rank_points(tuple(sorted(known + [a, b])))
            if nob_thrown:
                pts += 1
            elif nob_unseen and JACK in (a, b):
                # the chance that a jack drawn at random among the unseen ones is his nob
                pts += (2 if a == b else 1) / len(by_rank[JACK])
            total_w += w
            total += w * pts
    expected = total / total_w if total_w else 0.0
    # a five-card flush: both thrown of the starter's suit and the other two as well
    # (as likely as for two cards drawn at random: the prior is over ranks)
    if all(c.suit == starter.suit for c in thrown):
        same = sum(1 for c in unseen if c.suit == starter.suit)
        expected += 5 * comb(same, 2) / comb(len(unseen), 2)
    return expected


_FROZEN: dict[int, tuple[dict[Pair, float], tuple[tuple[Pair, float], ...]]] = {}


def _frozen(table: dict[Pair, float]) -> tuple[tuple[Pair, float], ...]:
    """A prior as a hashable tuple, made once per table object (kept alive with it, so
    that its id is never reused)."""
    found = _FROZEN.get(id(table))
    if found is None:
        found = _FROZEN[id(table)] = (table, tuple(sorted(table.items())))
    return found[1]


@lru_cache(maxsize=4096)  # bounded: a long tournament sees ever new (crib, unseen) pairs
def _ranks_ev(known: tuple[int, ...], counts: tuple[int, ...],
              table: tuple[tuple[Pair, float], ...] | None) -> float:
    """Mean rank points of the crib ``known`` + a pair drawn by ``table`` (uniform when None)
    + a starter, each pair weighted by the ways to draw it from ``counts`` (per rank)."""
    weights = dict(table) if table is not None else None
    total_w = 0.0
    total = 0.0
    for a in RANKS:
        for b in range(a, 14):
            ways = comb(counts[a], 2) if a == b else counts[a] * counts[b]
            if not ways:
                continue
            w = ways * (weights.get((a, b), 0.0) if weights is not None else 1.0)
            if not w:
                continue
            left = list(counts)
            left[a] -= 1
            left[b] -= 1
            n = sum(left)
            crib = known + (a, b)
            ev = sum(left[s] * rank_points(tuple(sorted(crib + (s,)))) for s in RANKS if left[s]) / n
            total_w += w
            total += w * ev
    return total / total_w if total_w else 0.0


__all__ = ["PRIOR_FILE", "Pair", "crib_with_starter", "deal_means", "dealer_pegs_at_least",
           "likely_crib", "shipped_prior"]
