"""Reinforcement-learning environments (the ``rl`` extra): PettingZoo AEC environments
``cribbage_v1`` and ``kings_v1`` (``cribbage_v0`` and ``kings_v0``, superseded, stay
for earlier experiments), and Gymnasium single-agent wrappers that play against
the built-in computer players. docs/rl.md describes the observations and actions.

>>> from kingscrib.env import kings_v1
>>> env = kings_v1.env(players=3, rules={"joker": True})
"""
