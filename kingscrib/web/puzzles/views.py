"""What the browser sees of a puzzle, and its answers read from the game's own actions.

The page gets the position only: never the answer, the margin, the breakdowns or the
theme, which come back after an answer (:mod:`kingscrib.web.puzzles.routes`). An answer
is sent as the game sends a move (Kings: ``{"action": "play", "tiles": {...}}``,
``{"action": "exchange", "tiles": [...]}``, ``{"action": "pass"}``; Cribbage:
``{"action": "discard", "cards": [..]}``, ``{"action": "play", "card": ".."}``) and is
judged in the game's notation by :func:`kingscrib.puzzles.explain.judge`.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from kingscrib.puzzles.explain import PROMPTS
from kingscrib.puzzles.puzzle import GAMES, Puzzle, shipped
from kingscrib.web.errors import WebError

TITLES = {"best-play": "Find the best play", "best-discard": "Find the best discard",
          "best-card": "Find the best card to lay"}


@cache
def catalogue() -> dict[str, Puzzle]:
    """Every shipped puzzle by id."""
    return {p.id: p for game in GAMES for p in shipped(game)}


def find(puzzle_id: str) -> Puzzle:
    found = catalogue().get(puzzle_id)
    if found is None:
        raise WebError(404, f"no puzzle {puzzle_id!r}")
    return found


def public_view(puzzle: Puzzle, rating: float) -> dict[str, Any]:
    """The puzzle as the page shows it before it is answered."""
    return {"id": puzzle.id, "game": puzzle.game, "kind": puzzle.kind,
            "title": TITLES[puzzle.kind], "prompt": PROMPTS[puzzle.kind],
            "position": puzzle.position, "rating": round(rating)}


def answer_text(puzzle: Puzzle, message: dict[str, Any]) -> str:
    """The answer in the game's notation; WebError(400) saying what is wrong with it."""
    if puzzle.game == "kings":
        from kingscrib.kings.notation import format_action
        from kingscrib.kings.position import Position
        from kingscrib.web.play.games.kings_view import parse_action

        action = parse_action(message)
        return format_action(action, Position.from_json(puzzle.position).board)
    from kingscrib.classic.game import Discard
    from kingscrib.classic.game import Play as CardPlay
    from kingscrib.web.play.games.classic import parse_action as parse_card_action

    wanted = "discard" if puzzle.kind == "best-discard" else "play"
    if message.get("action") != wanted:
        raise WebError(400, f'this puzzle is answered with {{"action": "{wanted}"}}')
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
        from kingscrib.kings.moves import Exchange, Play
        from kingscrib.kings.position import Position
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
