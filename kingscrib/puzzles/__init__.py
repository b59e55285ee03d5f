"""Puzzles from self-play: positions where the engine's best option is clearly better than
the second and is not simply the one that scores most now.

* :mod:`.puzzle` - the puzzle format (JSON) and the shipped sets in ``data/``;
* :mod:`.kings` / :mod:`.cribbage` - each game's analysis, answers and explanations;
* :mod:`.generate` - finding puzzles in self-play; :mod:`.verify` - re-checking one;
* :mod:`.progress` - the puzzles a player has solved and their streak.
"""
