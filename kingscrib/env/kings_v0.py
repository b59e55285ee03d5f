"""``kings_v0``: ``from kingscrib.env import kings_v0; env = kings_v0.env(players=2)``.

Superseded by ``kings_v1`` (a cap on the enumerated plays that keeps every leave and says
what it dropped, per-play features, illegal actions that end the game with a penalty).
Kept unchanged so that earlier experiments can be repeated."""

from kingscrib.env.kings import KingsEnv, env, raw_env

__all__ = ["KingsEnv", "env", "raw_env"]
