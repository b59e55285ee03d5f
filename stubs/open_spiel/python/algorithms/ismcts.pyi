# The part of OpenSpiel's ISMCTS (open_spiel/python/algorithms/ismcts.py) that
# kingscrib.spiel.agents calls: OpenSpiel ships no types.
import enum
from collections.abc import Callable
from typing import Protocol

import numpy as np
import pyspiel

class Evaluator(Protocol):
    def evaluate(self, state: pyspiel.State) -> list[float]: ...
    def prior(self, state: pyspiel.State) -> list[tuple[int, float]]: ...

class ISMCTSFinalPolicyType(enum.Enum):
    NORMALIZED_VISITED_COUNT = 1
    MAX_VISIT_COUNT = 2
    MAX_VALUE = 3

class ChildSelectionPolicy(enum.Enum):
    UCT = 1
    PUCT = 2

class ISMCTSBot:
    def __init__(self, game: pyspiel.Game, evaluator: Evaluator, uct_c: float,
                 max_simulations: int, max_world_samples: int = ...,
                 random_state: np.random.RandomState | None = ...,
                 final_policy_type: ISMCTSFinalPolicyType = ...,
                 use_observation_string: bool = ..., allow_inconsistent_action_sets: bool = ...,
                 child_selection_policy: ChildSelectionPolicy = ...) -> None: ...
    def step(self, state: pyspiel.State) -> int: ...
    def set_resampler(self, cb: Callable[[pyspiel.State, int], pyspiel.State]) -> None: ...
