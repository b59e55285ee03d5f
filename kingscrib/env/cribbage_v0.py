"""``cribbage_v0``: ``from kingscrib.env import cribbage_v0; env = cribbage_v0.env(players=2)``.

Superseded by ``cribbage_v1``, whose observation keeps the order of the play (here
``pile`` and ``played`` are sets, so a seat cannot tell apart plays that peg
differently). Kept unchanged so that earlier experiments can be repeated."""

from kingscrib.env.cribbage import CribbageEnv, env, raw_env

__all__ = ["CribbageEnv", "env", "raw_env"]
