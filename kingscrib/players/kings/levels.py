"""Levels for people: easy, medium, hard, expert.

- ``easy``: a casual player. It picks at random among its better plays (the top third by
  score), so it often misses the best one; it never exchanges unless it must.
- ``medium``: greedy, the highest score now.
- ``hard``: equity, score now plus the learned value of the tiles kept, less a share of
  what the play opens for the next player.
- ``expert``: simulation of the best candidates by defended equity (score, leave and
  what the play opens) against the unseen tiles, play-outs to the end of the game once
  the bag is nearly empty (aiming to win), exact endgames with an empty bag
  (:mod:`kingscrib.players.kings.expert`); thinks about 1.5 seconds a move (never much
  more than 2).
- ``expert-v1``: the expert before it, kept to measure against: the same simulation of
  the best candidates by static equity, without the defence term.
"""

from __future__ import annotations

import random

from kingscrib.kings.fastgen import generate, to_play
from kingscrib.kings.game import PlayerView
from kingscrib.kings.moves import Action
from kingscrib.players.kings.base import ComputerPlayer
from kingscrib.players.kings.equity import EquityPlayer
from kingscrib.players.kings.expert import ExpertPlayer
from kingscrib.players.kings.sim import SimPlayer
from kingscrib.players.kings.simple import GreedyPlayer, fallback

EXPERT_BUDGET = 1.5  # seconds a move


class EasyPlayer(ComputerPlayer):
    """Picks at random among the top third of its plays by score."""

    name = "easy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Action:
        p = view.position
        raw = generate(p.board, p.rack, p.rules, one_span=True)
        if not raw:
            return fallback(view)
        raw.sort()
        pick = self.rng.choice(raw[: max(1, len(raw) // 3)])
        return to_play(pick[2], pick[3])


def level(name: str, seed: int | None = None) -> ComputerPlayer:
    """A player for a level name."""
    if name == "easy":
        return EasyPlayer(seed)
    if name == "medium":
        p: ComputerPlayer = GreedyPlayer()
    elif name == "hard":
        p = EquityPlayer(seed=seed)
    elif name == "expert":
        p = ExpertPlayer(seed, time_budget=EXPERT_BUDGET)
    elif name == "expert-v1":
        p = SimPlayer(seed, time_budget=EXPERT_BUDGET)
    else:
        raise ValueError(f"unknown level {name!r}")
    p.name = name
    return p


LEVELS = ("easy", "medium", "hard", "expert-v1", "expert")  # weakest first
