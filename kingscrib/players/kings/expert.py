"""The Kings Cribbage expert: simulation of defence-aware candidates.

It is the simulating player (:mod:`kingscrib.players.kings.sim`) with two changes:

- **Defence-aware candidates.** The simulating player's candidates are the best few by
  static equity (score plus leave), so a play that scores well but opens a hot spot for
  the next player takes a place that a quieter play deserved. The expert first looks at
  a wider set (``pool``) with the equity player's defence term (what each option opens
  for the next player, over racks drawn from the unseen tiles) and simulates the best
  ``width`` of those.
- **A prior for the sample.** With a small budget only a few play-outs fit; each
  candidate's simulated mean is blended with its defended equity as if that were
  ``prior_weight`` play-outs already seen, so a noisy handful of play-outs does not
  overturn a clear static judgement.

The play-outs (the others' best static-equity replies, then our own), the pruning and
the exact endgame with an empty bag in a two-player game are ``sim``'s. The budget is a parameter (``time_budget`` seconds a move, ``max_iterations`` play-outs
per candidate at most): tests fix the iterations and give time enough, so the choice
depends only on the seed.
"""

from __future__ import annotations

import time

from kingscrib.kings.game import PlayerView
from kingscrib.kings.moves import Action
from kingscrib.players.kings.defence import DEFENCE_RACKS, DEFENCE_WEIGHT
from kingscrib.players.kings.equity import best_static_native, defend, distinct, materialise
from kingscrib.players.kings.leaves import LeaveTable
from kingscrib.players.kings.sim import SimPlayer, SimStats

EXPERT_POOL = 12  # options given the defence term before the best are simulated
EXPERT_WIDTH = 8  # candidates simulated
PRIOR_WEIGHT = 2.0  # the defended equity counts as this many play-outs


class ExpertPlayer(SimPlayer):
    """Monte Carlo simulation of the best options by defended equity, with exact endgames."""

    name = "expert"
    best_reply = staticmethod(best_static_native)  # the same replies, only the best one built

    def __init__(self, seed: int | None = None, time_budget: float = 1.5,
                 candidates: int = EXPERT_WIDTH, pool: int = EXPERT_POOL,
                 max_iterations: int = 400, min_iterations: int = 8,
                 prior_weight: float = PRIOR_WEIGHT, table: LeaveTable | None = None,
                 endgame: bool = True, endgame_nodes: int = 4000) -> None:
        super().__init__(seed, time_budget=time_budget, candidates=candidates,
                         max_iterations=max_iterations, min_iterations=min_iterations,
                         table=table, endgame=endgame, endgame_nodes=endgame_nodes)
        self.pool = pool
        self.prior_weight = prior_weight

    def choose(self, view: PlayerView) -> Action:
        start = time.perf_counter()
        action, options = self.settled(view, start)
        if action is not None:
            return action
        pool = distinct(options, self.pool)
        if len(pool) > 1:
            pool = defend(view, pool, self.rng, DEFENCE_WEIGHT, len(pool), DEFENCE_RACKS)
        chosen = pool[: self.width]
        if len(chosen) == 1:
            return materialise(chosen[0])
        stats = self.simulate(view, chosen, start + self.time_budget)
        best = max(stats, key=lambda s: (self.value(s), -s.candidate.order))
        return materialise(best.candidate)

    def value(self, s: SimStats) -> float:
        """The simulated mean, shrunk towards the candidate's defended equity."""
        w = self.prior_weight
        return (s.total + w * s.candidate.equity) / (s.n + w)


__all__ = ["ExpertPlayer"]
