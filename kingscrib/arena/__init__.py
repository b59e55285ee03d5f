"""Running many games between computer players, to measure them.

- :mod:`~kingscrib.common.backends`: where the games run (local processes or a Ray
  cluster), results always in job order;
- :mod:`~kingscrib.arena.kings` and :mod:`~kingscrib.arena.cribbage`: mirrored pairs
  of games (one seed, the seats swapped) and their summary;
- :mod:`~kingscrib.arena.intervals`: the 95% intervals of a win rate (Wilson's, and
  over pair means).

The command line (``kingscrib tournament``, ``kingscrib classic tournament``), the
computer tournaments (:mod:`kingscrib.tournaments.computers`) and the benchmarks all
play their games here.
"""
