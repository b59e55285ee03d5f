"""Analysis of finished Kings games for the page: each turn's play beside the engine's best
option by equity, as ``kingscrib analyze`` reviews a record.

This is the one adapter between the web server and the analysis API
(``kingscrib.players.kings.analysis``): it walks the record as ``review_record`` does, with
the same ranking, and reports its progress turn by turn; it also names the best option's
squares so the page can show it on the board. The rows equal ``review_record``'s."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kingscrib.kings.board import square_name
from kingscrib.kings.game import Game
from kingscrib.kings.moves import Exchange, Pass, Play
from kingscrib.kings.notation import format_play
from kingscrib.players.kings.analysis import describe, ranked
from kingscrib.players.kings.defence import DEFENCE_WIDTH
from kingscrib.players.kings.equity import materialise
from kingscrib.players.kings.leaves import shipped

Progress = Callable[[int, int], None]


def _action_of(turn: Any) -> Play | Exchange | Pass:
    if turn.action == "play":
        return Play.of(turn.tiles)
    if turn.action == "exchange":
        return Exchange.of(turn.returned)
    return Pass()


def review(record: dict[str, Any], progress: Progress | None = None) -> list[dict[str, Any]]:
    """Each turn of the record: what was made, the best option by equity from what that seat
    could see, the points and equity given up, and ``best_tiles`` (square -> tile) when the
    best option is a play. ``progress(done, total)`` is called after each turn."""
    table = shipped()
    played = Game.from_record(record)
    game = Game.new(list(played.names), played.rules, played.seed)
    total = len(played.history)
    rows = []
    for i, turn in enumerate(played.history):
        view = game.view(game.turn)
        action = _action_of(turn)
        options = ranked(view, table, i, DEFENCE_WIDTH, also=action)
        made = next((c for c in options if materialise(c) == action), None)
        best = options[0] if options else None
        row: dict[str, Any] = {
            "turn": i + 1, "player": turn.player, "name": played.names[turn.player],
            "rack": " ".join(str(t) for t in turn.rack),
            "played": (format_play(action, game.board) if isinstance(action, Play)
                       else turn.action), "score": turn.score}
        if best is not None:
            row["best"] = describe(best, game.board)
            row["best_score"] = best.score
            row["points_lost"] = (max(0, best.score - turn.score) if best.raw is not None
                                  else 0)
            row["equity_lost"] = round(best.equity - made.equity, 2) if made else None
            best_action = materialise(best)
            if isinstance(best_action, Play):
                row["best_tiles"] = {square_name(s): str(t)
                                     for s, t in sorted(best_action.placed.items())}
        rows.append(row)
        game.play(action, turn.claimed)
        if turn.joker is not None:
            game.call_joker(turn.joker["caller"])
        if progress is not None:
            progress(i + 1, total)
    return rows
