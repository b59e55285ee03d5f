"""Play a whole game between computer players."""

from __future__ import annotations

from collections.abc import Sequence

from kingscrib.classic.game import ClassicGame
from kingscrib.classic.rules import RuleSet
from kingscrib.players.classic.base import ClassicPlayer


def play_game(rules: RuleSet, seed: int, players: Sequence[ClassicPlayer]) -> ClassicGame:
    """Play to the end; ``players[i]`` sits in seat ``i``. Each sees only its own view."""
    if len(players) != rules.players:
        raise ValueError(f"{rules.players} players are needed, got {len(players)}")
    game = ClassicGame(rules, seed=seed, names=[p.name for p in players])
    while game.phase != "over":
        seat = game.to_act
        assert seat is not None
        game.apply(players[seat].choose(game.view(seat)))
    return game
