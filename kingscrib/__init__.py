"""Kingscrib: Kings Cribbage and classic Cribbage.

The package is layered: :mod:`kingscrib.counting` (cribbage combinatorics),
the games (:mod:`kingscrib.kings`, :mod:`kingscrib.classic`), the players
(:mod:`kingscrib.players`) and the front ends (:mod:`kingscrib.cli`, the web
server). Imports only point down that list.
"""

__version__ = "0.1.0"
