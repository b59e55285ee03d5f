"""Evaluators for OpenSpiel's MCTS and ISMCTS: two-seat ``kingscrib_cribbage``, and
``kings_cribbage`` (:class:`KingsScoreEvaluator`).

A random rollout to the end of a whole game to 121 is long and says little; this one
plays only to the end of the current deal (random cards for the chance nodes), then
reads each seat's chance to win from the scores and who deals next
(:func:`kingscrib.players.classic.winprob.win_probability`, the shipped table). A game
won inside the rollout counts as won. Values are ``2 P(win) - 1``, so zero-sum.

The rollout's moves are uniformly random, or with ``policy="easy"`` (any name of
:func:`kingscrib.players.classic.make_player`) that computer level's for both seats: a
random lay-away says little of what a hand is worth, so few simulations tell the
lay-aways apart.
"""

from __future__ import annotations

import math
import random
from typing import Any

from kingscrib.players.classic import make_player
from kingscrib.players.classic.winprob import win_probability
from kingscrib.spiel.cribbage import engine_index


class DealRolloutEvaluator:
    """``evaluate`` and ``prior`` for :class:`open_spiel.python.algorithms.ismcts.ISMCTSBot`
    (``n_rollouts`` random rollouts averaged; a uniform prior)."""

    def __init__(self, n_rollouts: int = 1, rng: random.Random | None = None,
                 policy: str = "random") -> None:
        self.n_rollouts = n_rollouts
        self.rng = rng or random.Random()
        self.policy = None if policy == "random" else make_player(policy,
                                                                  self.rng.randrange(2**31))

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
                legal = state.legal_actions()
                if self.policy is None or len(legal) == 1:
                    state.apply_action(rng.choice(legal))
                else:
                    view = state.engine.view(state.current_player())
                    state.apply_action(engine_index(self.policy.choose(view)))
        if state.is_terminal():
            return state.returns()[0]
        engine = state.engine
        next_dealer = (engine.dealer + 1) % 2
        p = win_probability(engine.scores[0], engine.scores[1], i_deal=next_dealer == 0)
        return 2.0 * p - 1.0

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


KINGS_SCALE = 30.0  # points of lead that make a value of about 0.76 (tanh 1)


class KingsScoreEvaluator:
    """``evaluate`` and ``prior`` for ISMCTS on ``kings_cribbage``: no rollout (a random
    one is a whole game of tile-by-tile placements), each seat's value is its score less
    the mean of the others', through ``tanh(lead / scale)``; the game's returns once it
    is over. A uniform prior."""

    def __init__(self, scale: float = KINGS_SCALE) -> None:
        self.scale = scale

    def evaluate(self, state: Any) -> list[float]:
        if state.is_terminal():
            return list(state.returns())
        scores = list(state.engine.scores) if state.engine is not None else []
        n = state.num_players()
        if not scores:
            return [0.0] * n
        total = sum(scores)
        return [math.tanh((s - (total - s) / (n - 1)) / self.scale) for s in scores]

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]
