"""The simplest players: random and greedy."""

from __future__ import annotations

import random

from kingscrib.kings.fastgen import generate, legal_plays, to_play
from kingscrib.kings.game import PlayerView
from kingscrib.kings.moves import Action, Exchange, Pass
from kingscrib.players.kings.base import ComputerPlayer


def fallback(view: PlayerView) -> Action:
    """With no play (or none wanted): exchange the whole rack if the bag allows, else pass."""
    rack = view.position.rack
    bag = view.position.bag or 0
    count = min(len(rack), bag)
    return Exchange.of(rack[:count]) if count else Pass()


class RandomPlayer(ComputerPlayer):
    """Plays a legal play chosen at random; exchanges when it has none."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Action:
        p = view.position
        plays = legal_plays(p.board, p.rack, p.rules)
        if plays:
            return self.rng.choice(plays).play
        return fallback(view)


class GreedyPlayer(ComputerPlayer):
    """Plays the highest-scoring play now; exchanges its whole rack when it has none."""

    name = "greedy"

    def choose(self, view: PlayerView) -> Action:
        p = view.position
        raw = generate(p.board, p.rack, p.rules, one_span=True)
        if raw:
            best = min(raw)  # the first in the reference order (an opening goes in the centre)
            return to_play(best[2], best[3])
        return fallback(view)


__all__ = ["GreedyPlayer", "RandomPlayer", "fallback"]
