"""An evaluator for OpenSpiel's MCTS and ISMCTS on two-seat ``kingscrib_cribbage``.

A random rollout to the end of a whole game to 121 is long and says little; this one
plays random moves (and random cards for the chance nodes) only to the end of the
current deal, then reads each seat's chance to win from the scores and who deals next
(:func:`kingscrib.players.classic.winprob.win_probability`, the shipped table). A game
won inside the rollout counts as won. Values are ``2 P(win) - 1``, so zero-sum.
"""

from __future__ import annotations

import random
from typing import Any

from kingscrib.players.classic.winprob import win_probability


class DealRolloutEvaluator:
    """``evaluate`` and ``prior`` for :class:`open_spiel.python.algorithms.ismcts.ISMCTSBot`
    (``n_rollouts`` random rollouts averaged; a uniform prior)."""

    def __init__(self, n_rollouts: int = 1, rng: random.Random | None = None) -> None:
        self.n_rollouts = n_rollouts
        self.rng = rng or random.Random()

    def evaluate(self, state: Any) -> list[float]:
        if state.num_players() != 2:
            raise ValueError("the win-probability table is for two players")
        total = 0.0
        for _ in range(self.n_rollouts):
            total += self._rollout(state.clone())
        value = total / self.n_rollouts
        return [value, -value]

    def _rollout(self, state: Any) -> float:
        """Seat 0's value at the end of the current deal (or of the game)."""
        rng = self.rng
        while not state.is_terminal() and not (state.dealing() and not state.dealt
                                               and state.engine is not None):
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            return state.returns()[0]
        engine = state.engine
        next_dealer = (engine.dealer + 1) % 2
        p = win_probability(engine.scores[0], engine.scores[1], i_deal=next_dealer == 0)
        return 2.0 * p - 1.0

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]
