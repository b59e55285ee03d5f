"""``kings_v1``: Kings Cribbage as a PettingZoo AEC environment for 2 to 4 seats.

>>> from kingscrib.env import kings_v1
>>> env = kings_v1.env(players=2, features=True)
>>> env.reset(seed=7)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"]["board"].shape, obs["observation"]["plays"].shape
((15, 13, 13), (2048, 27))
>>> info["plays_dropped"] > 0  # an opening: more plays than the enumerated space holds
True

The observations, actions and rewards of ``kings_v0`` (docs/rl.md). What changed:

- past ``MAX_PLAYS`` legal plays, the enumerated encoding keeps the best play of every
  leave, then the best placement of every tile sequence, then the highest-scoring
  others (``kings_v0`` kept the first ones, so a rack with thousands of plays often
  lost every play of some leave), and ``info`` says how many plays there were and how
  many were dropped (``plays_dropped``); the factored encoding
  (``encoding="factored"``) reaches every legal play;
- ``features=True`` adds ``plays`` to the observation: one row per play index (score,
  squares, tiles, leave; ``kings_actions.FEATURES``), for policies that score actions;
- an illegal action ends the game by default (``illegal="penalty"``: -1 to the
  offender, 0 to the others, the PettingZoo convention, which Gymnasium's and
  Stable-Baselines3's env checkers expect); ``illegal="raise"`` keeps ``kings_v0``'s
  exception.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo.utils import wrappers

from kingscrib.env.base import PENALTY
from kingscrib.env.kings import ENUMERATED, FACTORED, KingsEnv
from kingscrib.env.kings_actions import FEATURES, MAX_PLAYS
from kingscrib.kings.rules import RuleSet


class KingsEnvV1(KingsEnv):
    """``kings_v0`` with a cap that keeps every leave, optional per-play features, and
    illegal actions that end the game with a penalty unless ``illegal="raise"``."""

    metadata = {"render_modes": ["human", "ansi"], "name": "kings_v1",
                "is_parallelizable": False}
    keep_leaves = True

    def __init__(self, players: int = 2, rules: RuleSet | Mapping[str, Any] | None = None,
                 shaping: float = 0.0, notation: bool = True, encoding: str = ENUMERATED,
                 render_mode: str | None = None, illegal: str = PENALTY,
                 features: bool = False) -> None:
        if features and encoding == FACTORED:
            raise ValueError("features describe the enumerated encoding's plays; the "
                             "factored encoding has no play indexes")
        super().__init__(players, rules, shaping, notation, encoding, render_mode, illegal)
        self.features = features
        self._features: tuple[int, np.ndarray] | None = None  # (turn key, features)
        if features:
            arrays = self._observation_space["observation"]
            assert isinstance(arrays, spaces.Dict)  # as the base environment built it
            inner = dict(arrays.spaces)
            inner["plays"] = spaces.Box(-1000, 10000, (MAX_PLAYS, len(FEATURES)), np.int16)
            self._observation_space = spaces.Dict({
                "observation": spaces.Dict(inner),
                "action_mask": self._observation_space["action_mask"]})

    def _start(self, seed: int) -> None:
        super()._start(seed)
        self._features = None

    def _info(self, seat: int) -> dict[str, Any]:
        info = super()._info(seat)
        kept = len(self.turn_actions().plays) if self.encoding == ENUMERATED else \
            info["plays_before_cap"]
        info["plays_dropped"] = info["plays_before_cap"] - kept
        return info

    def _observation(self, seat: int) -> dict[str, np.ndarray]:
        out = super()._observation(seat)
        if self.features:
            key = len(self.game.history)
            if seat == self.game.turn and not self.finished():
                if self._features is None or self._features[0] != key:
                    self._features = (key, self.turn_actions().features())
                out["plays"] = self._features[1].copy()
            else:
                out["plays"] = np.zeros((MAX_PLAYS, len(FEATURES)), np.int16)
        return out


def raw_env(**kwargs: Any) -> KingsEnvV1:
    return KingsEnvV1(**kwargs)


def env(**kwargs: Any) -> wrappers.OrderEnforcingWrapper:
    """The environment with PettingZoo's order checks (the usual entry point)."""
    return wrappers.OrderEnforcingWrapper(KingsEnvV1(**kwargs))


__all__ = ["KingsEnvV1", "env", "raw_env"]
