"""Reinforcement-learning environments (the ``rl`` extra): PettingZoo AEC environments
``cribbage_v1`` and ``kings_v0`` (``cribbage_v0``, superseded, stays for earlier
experiments), and Gymnasium single-agent wrappers that play against
the built-in computer players. docs/rl.md describes the observations and actions.

>>> from kingscrib.env import kings_v0
>>> env = kings_v0.env(players=3, rules={"joker": True})
"""
