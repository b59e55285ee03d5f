"""``kings_v1``: Kings Cribbage as a PettingZoo AEC environment for 2 to 4 seats.

>>> from kingscrib.env import kings_v1
>>> env = kings_v1.env(players=2)
>>> env.reset(seed=7)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"]["board"].shape, int(obs["action_mask"].sum()) > 0
((15, 13, 13), True)

The observations, actions and rewards of ``kings_v0`` (docs/rl.md). What changed: an
illegal action ends the game by default (``illegal="penalty"``: -1 to the offender, 0
to the others, the PettingZoo convention, which Gymnasium's and Stable-Baselines3's env
checkers expect); ``illegal="raise"`` keeps ``kings_v0``'s exception.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pettingzoo.utils import wrappers

from kingscrib.env.base import PENALTY
from kingscrib.env.kings import ENUMERATED, KingsEnv
from kingscrib.kings.rules import RuleSet


class KingsEnvV1(KingsEnv):
    """``kings_v0`` whose illegal actions end the game with a penalty unless
    ``illegal="raise"``."""

    metadata = {"render_modes": ["human", "ansi"], "name": "kings_v1",
                "is_parallelizable": False}

    def __init__(self, players: int = 2, rules: RuleSet | Mapping[str, Any] | None = None,
                 shaping: float = 0.0, notation: bool = True, encoding: str = ENUMERATED,
                 render_mode: str | None = None, illegal: str = PENALTY) -> None:
        super().__init__(players, rules, shaping, notation, encoding, render_mode, illegal)


def raw_env(**kwargs: Any) -> KingsEnvV1:
    return KingsEnvV1(**kwargs)


def env(**kwargs: Any) -> wrappers.OrderEnforcingWrapper:
    """The environment with PettingZoo's order checks (the usual entry point)."""
    return wrappers.OrderEnforcingWrapper(KingsEnvV1(**kwargs))


__all__ = ["KingsEnvV1", "env", "raw_env"]
