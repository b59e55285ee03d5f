"""A puzzle's answers in each engine's terms: the answer a page sends read as the game's
notation, and the best answer as the game's action (the puzzles' pages reach the engines
only through here, as the live game does through the other modules of this package)."""

from __future__ import annotations

from typing import Any

from kingscrib.classic.game import Discard
from kingscrib.classic.game import Play as CardPlay
from kingscrib.kings.moves import Exchange, Play
from kingscrib.kings.notation import format_action
from kingscrib.kings.position import Position
from kingscrib.puzzles.puzzle import Puzzle
from kingscrib.web.errors import WebError

# The games' adapters and the puzzles' answer reader bring the computer players with
# them: they are imported when a puzzle is first answered, so that a server starts
# without loading every player.


def answer_text(puzzle: Puzzle, message: dict[str, Any]) -> str:
    """The answer in the game's notation; WebError(400) saying what is wrong with it."""
    if puzzle.game == "kings":
        from kingscrib.web.play.games.kings_view import parse_action

        action = parse_action(message)
        return format_action(action, Position.from_json(puzzle.position).board)

    wanted = "discard" if puzzle.kind == "best-discard" else "play"
    if message.get("action") != wanted:
        raise WebError(400, f'this puzzle is answered with {{"action": "{wanted}"}}')
    from kingscrib.web.play.games.cribbage import parse_action as parse_card_action

    card_action = parse_card_action(message)
    if isinstance(card_action, Discard):
        cards = card_action.cards
    elif isinstance(card_action, CardPlay):
        cards = (card_action.card,)
    else:
        raise WebError(400, f'this puzzle is answered with {{"action": "{wanted}"}}')
    return " ".join(str(c) for c in cards)


def best_action(puzzle: Puzzle) -> dict[str, Any]:
    """The best answer as the game's action, for the page to show it."""
    if puzzle.game == "kings":
        from kingscrib.puzzles.kings import read_answer

        action = read_answer(Position.from_json(puzzle.position), puzzle.answer)
        if isinstance(action, Play):
            return {"action": "play", "tiles": action.tiles_json()}
        if isinstance(action, Exchange):
            return {"action": "exchange", "tiles": [str(t) for t in action.tiles]}
        return {"action": "pass"}
    if puzzle.kind == "best-discard":
        return {"action": "discard", "cards": puzzle.answer.split()}
    return {"action": "play", "card": puzzle.answer}
