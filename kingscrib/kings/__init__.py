"""The Kings Cribbage engine: tiles, board, rules, plays, the game and its records."""
