"""Kings Cribbage positions for the generator tests, reached by random legal play."""

from __future__ import annotations

import random

from kingscrib.kings import fastgen
from kingscrib.kings.game import Game
from kingscrib.kings.moves import Pass


def position_after(seed: int, turns: int) -> Game:
    """A two-player game after ``turns`` random legal plays (the fast generator only picks
    the plays; the game checks each one with the rules)."""
    rng = random.Random(seed)
    game = Game.new(2, seed=seed)
    for _ in range(turns):
        if game.is_over:
            break
        plays = fastgen.legal_plays(game.board, game.racks[game.turn], game.rules)
        game.play(rng.choice(plays).play if plays else Pass())
    return game
