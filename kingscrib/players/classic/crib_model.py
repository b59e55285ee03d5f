"""What the other player throws to the crib, and the crib's value given it.

A player does not throw two random cards: into their own crib they lay cards that score
together (fives, pairs, touching cards), into their opponent's crib cards that do not.
:func:`train_prior` deals random hands and records the ranks that a strong discarder
(the exact hand and crib expectation of :func:`~kingscrib.classic.discard.analyse_discards`)
lays away, once as dealer and once as pone: the prior ``P(rank pair | whose crib)``.
:func:`likely_crib` is then the crib's expected fifteens, pairs and runs when the other
two cards are drawn by that prior (and by what is still unseen), and the starter from
the rest. The prior is shipped in ``data/crib_prior.json``; ``kingscrib classic
train-expert`` rebuilds it.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from functools import cache, lru_cache
from math import comb
from pathlib import Path
from typing import Any

from kingscrib.classic.cards import Card, deck
from kingscrib.classic.discard import analyse_discards, expected_crib, rank_points
from kingscrib.counting import JACK

PRIOR_FILE = Path(__file__).with_name("data") / "crib_prior.json"
RANKS = range(1, 14)
Pair = tuple[int, int]


def train_prior(hands: int, seed: int) -> dict[str, dict[Pair, float]]:
    """The rank pairs laid away from ``hands`` random six-card hands, as dealer ("own") and
    as pone ("theirs": the crib is the opponent's), as frequencies over the deal's
    chance of giving that pair (so that the prior says how much likelier a thrower makes
    a pair than the deal alone)."""
    rng = random.Random(seed)
    thrown: dict[str, Counter[Pair]] = {"own": Counter(), "theirs": Counter()}
    dealt: Counter[Pair] = Counter()
    for _ in range(hands):
        cards = rng.sample(deck(), 6)
        ranks = sorted(c.rank for c in cards)
        for i in range(6):
            for j in range(i + 1, 6):
                dealt[(ranks[i], ranks[j])] += 1
        for key, dealer in (("own", True), ("theirs", False)):
            best = analyse_discards(cards, dealer=dealer)[0]
            a, b = sorted(c.rank for c in best.discard)
            thrown[key][(a, b)] += 1
    out: dict[str, dict[Pair, float]] = {}
    for key, counts in thrown.items():
        # how much likelier than a pair picked at random from the six: thrown / dealt, scaled
        ratio = {p: counts[p] * 15 / dealt[p] for p in dealt}
        out[key] = ratio
    return out


def save_prior(prior: dict[str, dict[Pair, float]], means: dict[str, Any],
               command: str) -> None:
    PRIOR_FILE.parent.mkdir(exist_ok=True)
    data = {"command": command,
            "about": "how much likelier than chance a rank pair is laid away, by whose crib;"
                     " means: a deal's average pegging by seat and crib in self-play",
            "means": means,
            **{key: {f"{a}-{b}": round(v, 5) for (a, b), v in table.items()}
               for key, table in prior.items()}}
    PRIOR_FILE.write_text(json.dumps(data, indent=0) + "\n")


def train_means(games: int, seed: int, player: str = "expert-v1") -> dict[str, Any]:
    """Average points of a deal in self-play: pegged by the pone and by the dealer (heels
    apart), and the crib; and how often the dealer pegs each number of points in the play
    (``peg_dealer_dist``): what the win-probability choices take as a seat's usual deal."""
    from kingscrib.classic.rules import RuleSet
    from kingscrib.players.classic.driver import play_game
    from kingscrib.players.classic.registry import make_player

    rng = random.Random(seed)
    sums: Counter[str] = Counter()
    dealer_pegs: Counter[int] = Counter()
    deals = 0
    for _ in range(games):
        s = rng.randrange(2**31)
        game = play_game(RuleSet(), seed=s, players=[make_player(player, s), make_player(player, s + 1)])
        for deal in game.record()["deals"][:-1]:
            if len(deal.get("show", ())) != 3:
                continue
            deals += 1
            pegged = 0
            for entry in deal["plays"]:
                if entry["player"] == deal["dealer"]:
                    sums["peg_dealer"] += entry.get("score", 0)
                    pegged += entry.get("score", 0)
                else:
                    sums["peg_pone"] += entry.get("score", 0)
            dealer_pegs[pegged] += 1
            sums["crib"] += deal["show"][2]["score"]
    out: dict[str, Any] = {k: round(sums[k] / deals, 4) for k in ("peg_pone", "peg_dealer", "crib")}
    out["peg_dealer_dist"] = {str(k): round(v / deals, 5) for k, v in sorted(dealer_pegs.items())}
    return out


@cache
def deal_means() -> dict[str, Any]:
    return dict(json.loads(PRIOR_FILE.read_text())["means"])


@cache
def dealer_pegs_at_least(points: int) -> float:
    """How often the dealer pegs ``points`` or more in the play (self-play)."""
    dist = deal_means()["peg_dealer_dist"]
    return sum(p for k, p in dist.items() if int(k) >= points)


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
            pts = rank_points(tuple(sorted(known + [a, b])))
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


_FROZEN: dict[int, tuple[dict, tuple[tuple[Pair, float], ...]]] = {}


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


__all__ = ["crib_with_starter", "deal_means", "dealer_pegs_at_least", "likely_crib", "save_prior",
           "shipped_prior", "train_means", "train_prior"]
