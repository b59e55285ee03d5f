"""Analysis of finished Kings games for the page, and hints, through the one analysis API
(:mod:`kingscrib.players.kings.analysis`).

A review's rows are ``kingscrib analyze --json``'s, plus ``best_tiles`` (square -> tile)
where the best option is a play, so the page can show it on the board."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kingscrib.common.people import placement_text, tiles_text
from kingscrib.kings.board import square_name
from kingscrib.kings.game import Game
from kingscrib.kings.moves import Exchange, Play
from kingscrib.players.kings.analysis import action_of, ranked, review_game
from kingscrib.players.kings.defence import DEFENCE_WIDTH
from kingscrib.players.kings.equity import materialise
from kingscrib.players.kings.leaves import shipped

Progress = Callable[[int, int], None]


def review(record: dict[str, Any], progress: Progress | None = None) -> list[dict[str, Any]]:
    """Each turn of the record against the best option by equity from what that seat could
    see (``review_game``), as JSON rows; ``progress(done, total)`` after each turn."""
    rows = []
    history = Game.from_record(record).history
    for turn in review_game(record, progress=progress):
        row = turn.to_json()
        row["played_text"] = action_text(action_of(history[turn.turn - 1]))
        best = turn.options[0].action if turn.options else None  # options are best first
        if isinstance(best, Play):
            row["best_tiles"] = {square_name(s): str(t) for s, t in sorted(best.placed.items())}
        if best is not None:
            row["best_text"] = action_text(best)
        rows.append(row)
    return rows


def action_text(action: Any) -> str:
    """A turn in people's notation: "light 7 at G7, dark 8 at H7", "exchange dark 10",
    "pass" (the review's ``played`` and ``best`` are the engine's notation)."""
    if isinstance(action, Play):
        return ", ".join(placement_text(square_name(s), t) for s, t in sorted(action.placed.items()))
    if isinstance(action, Exchange):
        return f"exchange {tiles_text(action.tiles)}"
    return "pass"


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
            returned = tuple(sorted(str(t) for t in action.tiles))
            if ("x", returned) in seen:
                continue
            seen.add(("x", returned))
            out.append({"play": False, "exchange": len(action.tiles),
                        "exchange_tiles": list(returned), "equity": round(c.equity, 1),
                        "advice": action_text(action)})
        if len(out) == top:
            break
    if not out:  # the ranking found nothing usable: the best score stands in
        best = max(scored.values(), key=lambda p: p.total)
        out.append({"play": True, "tiles": best.play.tiles_json(), "score": best.total,
                    "describe": best.score.describe()})
    return {**out[0], "options": out}
