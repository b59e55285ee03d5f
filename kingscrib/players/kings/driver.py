"""Running games between players: one turn, one game, with the joker rule handled."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kingscrib.kings.game import Game, Turn
from kingscrib.kings.moves import Play, ScoredPlay
from kingscrib.kings.rules import RuleSet
from kingscrib.players.kings.base import KingsPlayer


def take_turn(game: Game, players: Sequence[KingsPlayer]) -> Turn:
    """Ask the seat to move for its action, claim under the joker rule, then let the other
    seats (in turn order) call Joker if they want to."""
    seat = game.turn
    player = players[seat]
    view = game.view(seat)
    action = player.choose(view)
    claim = None
    if isinstance(action, Play) and game.rules.joker:
        claim = player.claim(view, ScoredPlay(action, game.check(action)))
    turn = game.play(action, claim)
    if game.joker_open():
        missed = game.missed_points()
        for k in range(1, game.players):
            other = (seat + k) % game.players
            if players[other].calls_joker(game.view(other), missed):
                game.call_joker(other)
                break
    return turn


def play_game(players: Sequence[KingsPlayer], rules: RuleSet | None = None,
              seed: int | None = None, names: Sequence[str] | None = None,
              on_turn: Callable[[Game, Turn], None] | None = None) -> Game:
    """Play a whole game between ``players`` (seat order) and return it, over."""
    game = Game.new(list(names or [p.name for p in players]), rules, seed)
    while not game.is_over:
        turn = take_turn(game, players)
        if on_turn is not None:
            on_turn(game, turn)
    return game
