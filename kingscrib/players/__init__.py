"""Computer and human players, behind small protocols per game."""
