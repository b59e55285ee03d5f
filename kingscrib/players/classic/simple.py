"""The simplest players: uniformly random, and the baseline used to measure strength."""

from __future__ import annotations

import random

from kingscrib.classic.game import Action, Discard, Play, PlayerView
from kingscrib.classic.pegging import peg_score
from kingscrib.players.classic.base import perfect_claim


class RandomPlayer:
    """Any legal action, chosen at random (claims are counted perfectly)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Action:
        if view.phase == "show":
            return perfect_claim(view)
        return self.rng.choice(view.legal)


class BaselinePlayer:
    """Discards at random; in the play lays the card that scores most now (ties at random)."""

    name = "baseline"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Action:
        if view.phase == "show":
            return perfect_claim(view)
        if view.phase == "discard":
            return self.rng.choice([a for a in view.legal if isinstance(a, Discard)])
        pile = [c.rank for c in view.pile]
        plays = [a for a in view.legal if isinstance(a, Play)]
        scored = [(peg_score(pile + [a.card.rank]).total, a) for a in plays]
        best = max(s for s, _ in scored)
        return self.rng.choice([a for s, a in scored if s == best])
