"""OpenSpiel games over the engines (the ``spiel`` extra): importing this package registers
``kingscrib_cribbage`` (classic Cribbage, 2-4 seats) and ``kings_cribbage`` with
``pyspiel``, so ``pyspiel.load_game`` and OpenSpiel's algorithms can use them.

``cribbage`` is OpenSpiel's own C++ game (another encoding); registering ours under that
name would replace it for every user of the process, so ours is ``kingscrib_cribbage``.
docs/rl.md describes both games.
"""

from kingscrib.spiel import cribbage, kings  # noqa: F401  (registers the games)
