"""Building the tables the computer players load, by self-play and exact computation.

The players only read their shipped tables (``kingscrib/players/*/data``); the
commands that rebuild them call this package:

- :mod:`~kingscrib.training.leaves`: the Kings leave values (``kingscrib train-leaves``);
- :mod:`~kingscrib.training.expert`: every table of the classic expert
  (``kingscrib classic train-expert``), built by :mod:`~kingscrib.training.keep_ratios`,
  :mod:`~kingscrib.training.pegtable`, :mod:`~kingscrib.training.winprob` and
  :mod:`~kingscrib.training.crib_model`.
"""
