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


def hint_inputs(game: Game, seat: int) -> dict[str, Any]:
    """What a hint needs, copied from the live game (in the event loop)."""
    return {"board": dict(game.board), "rack": list(game.racks[seat]), "rules": game.rules,
            "view": game.view(seat), "bag": len(game.bag_of(seat)), "seed": len(game.history)}


def hint(game: Game, seat: int, top: int = 3) -> dict[str, Any]:
    return hint_from(hint_inputs(game, seat), top)


def hint_from(inputs: dict[str, Any], top: int = 3) -> dict[str, Any]:
    """The seat's best options by equity (score and the value of the tiles kept, less the
    next player's expected reply while the bag lasts), best first, each play once however
    its tiles are ordered. The best option's fields are at the top level; ``options``
    lists up to ``top`` of them."""
    from kingscrib.kings.movegen import legal_plays
    from kingscrib.players.kings.equity import distinct

    board, rack = inputs["board"], inputs["rack"]
    scored = {tuple(sorted(p.play.tiles_json().items())): p
              for p in legal_plays(board, rack, inputs["rules"])}
    if not scored:
        bag = inputs["bag"]
        return {"play": False, "exchange": min(bag, len(rack)), "options": [],
                "advice": "no play is possible: exchange" if bag else "no play is possible: pass"}
    options = distinct(ranked(inputs["view"], shipped(), inputs["seed"], DEFENCE_WIDTH),
                       DEFENCE_WIDTH)
    out: list[dict[str, Any]] = []
    seen: set[Any] = set()
    for c in options:
        action = materialise(c)
        if isinstance(action, Play):
            key = tuple(sorted(action.tiles_json().items()))
            found = scored.get(key)
            if found is None or key in seen:
                continue
            seen.add(key)
            out.append({"play": True, "tiles": dict(key), "score": found.total,
                        "describe": found.score.describe(), "equity": round(c.equity, 1)})
        elif isinstance(action, Exchange):
            key = ("x", tuple(sorted(str(t) for t in action.tiles)))
            if key in seen:
                continue
            seen.add(key)
            out.append({"play": False, "exchange": len(action.tiles),
                        "exchange_tiles": list(key[1]), "equity": round(c.equity, 1),
                        "advice": "exchange " + " ".join(key[1])})
        if len(out) == top:
            break
    if not out:  # the ranking found nothing usable: the best score stands in
        best = max(scored.values(), key=lambda p: p.total)
        out.append({"play": True, "tiles": best.play.tiles_json(), "score": best.total,
                    "describe": best.score.describe()})
    return {**out[0], "options": out}
