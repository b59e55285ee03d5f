"""Building the crib prior (what a player lays away, by whose crib) and a deal's means.

What they are and how the expert reads them: :mod:`kingscrib.players.classic.crib_model`,
which loads what :func:`save_prior` writes (``data/crib_prior.json``).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from kingscrib.classic.cards import deck
from kingscrib.classic.discard import analyse_discards
from kingscrib.players.classic import crib_model
from kingscrib.players.classic.crib_model import Pair


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
    """Write the prior and a deal's means where the players load them from."""
    crib_model.PRIOR_FILE.parent.mkdir(exist_ok=True)
    data = {"command": command,
            "about": "how much likelier than chance a rank pair is laid away, by whose crib;"
                     " means: a deal's average pegging by seat and crib in self-play",
            "means": means,
            **{key: {f"{a}-{b}": round(v, 5) for (a, b), v in table.items()}
               for key, table in prior.items()}}
    crib_model.PRIOR_FILE.write_text(json.dumps(data, indent=0) + "\n")


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


__all__ = ["save_prior", "train_means", "train_prior"]
