"""Analysis for learning: the best options of a position, and a game record reviewed.

A position is ranked by equity as the equity player sees it (score + leave value, less
a share of the next player's expected best reply while the bag lasts), optionally refined
by simulation (the mean spread of play-outs over the unseen tiles). A record is replayed
turn by turn; at each turn the seat's best option (by equity, from what that seat could
see) is set against the one made, with the points and the equity given up.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

from kingscrib.kings.game import Game, PlayerView
from kingscrib.kings.moves import Action, Exchange, Pass, Play
from kingscrib.kings.notation import format_play
from kingscrib.kings.position import Position
from kingscrib.kings.tiles import RACK_SIZE, full_set, held_counts
from kingscrib.players.kings.defence import DEFENCE_WIDTH
from kingscrib.players.kings.equity import Candidate, candidates, defend, distinct, materialise
from kingscrib.players.kings.leaves import LeaveTable, shipped
from kingscrib.players.kings.sim import SimPlayer


def view_of(position: Position, players: int = 2) -> PlayerView:
    """What the player to move sees in a bare position: every tile not on the board or the
    rack is unseen; the others hold full racks while the bag lasts."""
    unseen = held_counts(full_set())
    unseen.subtract(held_counts(list(position.board.values()) + list(position.rack)))
    unseen = Counter({t: n for t, n in unseen.items() if n > 0})
    total_unseen = sum(unseen.values())
    bag = position.bag if position.bag is not None else max(0, total_unseen - RACK_SIZE *
                                                            (players - 1))
    others = min(RACK_SIZE, (total_unseen - bag) // max(1, players - 1)) if players > 1 else 0
    pos = Position(position.board, position.rack, bag, position.rules)
    sizes = tuple([len(position.rack)] + [others] * (players - 1))
    return PlayerView(0, pos, tuple([0] * players), sizes, unseen, 0, 0, players)


def describe(c: Candidate, board) -> str:
    action = materialise(c)
    if isinstance(action, Play):
        return format_play(action, board)
    if isinstance(action, Exchange):
        return "exchange " + " ".join(str(t) for t in action.tiles)
    return "pass"


def analyse_position(position: Position, top: int = 10, sim_seconds: float = 0.0,
                     seed: int = 1, table: LeaveTable | None = None) -> list[dict[str, Any]]:
    """The best options with score, leave value, the next player's expected best reply
    and equity (and simulated value)."""
    table = table or shipped()
    view = view_of(position)
    options = ranked(view, table, seed, max(top, DEFENCE_WIDTH))[:top]
    rows = [{"move": describe(c, position.board), "score": c.score,
             "leave": round(c.leave_value, 2),
             "reply": None if c.reply is None else round(c.reply, 2),
             "equity": round(c.equity, 2)} for c in options]
    if sim_seconds > 0 and options and (view.position.bag or 0) > 0:
        sim = SimPlayer(seed, time_budget=sim_seconds, candidates=len(options), table=table)
        stats = sim.simulate(view, options, time.perf_counter() + sim_seconds)
        by_order = {s.candidate.order: s for s in sim.last or stats}
        for row, c in zip(rows, options):
            s = by_order.get(c.order)
            row["sim"] = round(s.mean, 2) if s and s.n else None
            row["sim_iterations"] = s.n if s else 0
        rows.sort(key=lambda r: -(r["sim"] if r.get("sim") is not None else -1e9))
    return rows


def ranked(view: PlayerView, table: LeaveTable, seed: int, width: int,
           also: Action | None = None) -> list[Candidate]:
    """The best ``width`` distinct options as the equity player weighs them (with the
    defence while the bag lasts), best first; ``also`` is weighed too when it is not
    among them (against the same racks)."""
    options = candidates(view, table)
    if (view.position.bag or 0) == 0 or len(options) < 2:
        return distinct(options, width)
    top = defend(view, options, random.Random(seed), width=width)
    if also is not None and not any(materialise(c) == also for c in top):
        extra = next((c for c in options if materialise(c) == also), None)
        if extra is not None:
            top += defend(view, [extra], random.Random(seed), width=1)
    return top


def _action_of(turn) -> Any:
    if turn.action == "play":
        return Play.of(turn.tiles)
    if turn.action == "exchange":
        return Exchange.of(turn.returned)
    return Pass()


def review_record(record: dict[str, Any], table: LeaveTable | None = None) -> list[dict]:
    """Each turn of a saved game: the best option by equity against the one made."""
    table = table or shipped()
    played = Game.from_record(record)
    game = Game.new(list(played.names), played.rules, played.seed)
    rows = []
    for i, turn in enumerate(played.history):
        view = game.view(game.turn)
        action = _action_of(turn)
        options = ranked(view, table, i, DEFENCE_WIDTH, also=action)
        made = next((c for c in options if materialise(c) == action), None)
        best = options[0] if options else None
        row = {"turn": i + 1, "player": turn.player, "name": played.names[turn.player],
               "rack": " ".join(str(t) for t in turn.rack),
               "played": (format_play(action, game.board) if isinstance(action, Play)
                          else turn.action), "score": turn.score}
        if best is not None:
            row["best"] = describe(best, game.board)
            row["best_score"] = best.score
            row["points_lost"] = max(0, best.score - turn.score) if best.raw is not None \
                else 0
            row["equity_lost"] = round(best.equity - made.equity, 2) if made else None
        rows.append(row)
        game.play(action, turn.claimed)
        if turn.joker is not None:
            game.call_joker(turn.joker["caller"])
    return rows


__all__ = ["analyse_position", "review_record", "view_of"]
