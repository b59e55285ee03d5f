"""Reinforcement-learning environments (the ``rl`` extra): PettingZoo AEC environments
``kings_v0`` and ``cribbage_v0``, and Gymnasium single-agent wrappers that play against
the built-in computer players. docs/rl.md describes the observations and actions.

>>> from kingscrib.env import kings_v0
>>> env = kings_v0.env(players=3, rules={"joker": True})
"""
