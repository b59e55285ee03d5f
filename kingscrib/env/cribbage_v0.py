"""``cribbage_v0``: ``from kingscrib.env import cribbage_v0; env = cribbage_v0.env(players=2)``."""

from kingscrib.env.cribbage import CribbageEnv, env, raw_env

__all__ = ["CribbageEnv", "env", "raw_env"]
