"""``kings_v0``: ``from kingscrib.env import kings_v0; env = kings_v0.env(players=2)``."""

from kingscrib.env.kings import KingsEnv, env, raw_env

__all__ = ["KingsEnv", "env", "raw_env"]
