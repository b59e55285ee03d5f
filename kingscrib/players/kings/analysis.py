"""Analysis for learning: the best options of a turn, and a game reviewed turn by turn.

Options are ranked by equity exactly as the ``equity`` player weighs them: score + the
learned value of the tiles kept, less a share of the next player's expected best reply
while the bag lasts (see :mod:`kingscrib.players.kings.equity` and ``defence``). Each
distinct play is listed once: never the same rack tiles making the same hands, laid
in another order or elsewhere along the line. Simulation (the mean
spread of play-outs over the unseen tiles) may refine the order.

>>> from kingscrib.kings.position import Position
>>> p = Position.from_json({"board": {"G7": "8L", "H7": "7D"},
...                         "rack": ["7L", "6D", "AL", "KD", "4L"], "bag": 0})
>>> best = best_options(view_of(p), top=2)[0]
>>> best.move, best.score
('D7 across AL 6D 7L', 16)

A review sets each turn of a record against the best option the seat could see, and
judges it by the equity given up (not by points: keeping good tiles is worth points).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kingscrib.kings.board import Square
from kingscrib.kings.fastgen import generate
from kingscrib.kings.game import Game, PlayerView, Turn
from kingscrib.kings.moves import Action, Exchange, Pass, Play
from kingscrib.kings.notation import format_action
from kingscrib.kings.play import IllegalPlay, check_play
from kingscrib.kings.position import Position
from kingscrib.kings.tiles import RACK_SIZE, Tile, full_set, held_counts
from kingscrib.players.kings.defence import DEFENCE_WIDTH
from kingscrib.players.kings.equity import (
    Candidate,
    candidates,
    defend,
    materialise,
    rack_key,
)
from kingscrib.players.kings.leaves import LeaveTable, shipped
from kingscrib.players.kings.sim import SimPlayer

MISTAKE = 3.0  # equity given up from which a review calls a turn a mistake


@dataclass(frozen=True)
class Option:
    """One option of a turn as the equity player weighs it."""

    action: Action
    move: str  # its notation
    score: int  # points now
    leave: float  # value of the tiles kept
    reply: float | None  # the next player's expected best reply (None: not looked at)
    equity: float  # score + leave - the defence's share of the reply
    sim: float | None = None  # mean spread of the simulated play-outs, when simulated
    sim_iterations: int = 0

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"move": self.move, "score": self.score,
                                "leave": round(self.leave, 2),
                                "reply": None if self.reply is None else round(self.reply, 2),
                                "equity": round(self.equity, 2)}
        if self.sim_iterations or self.sim is not None:
            data["sim"] = None if self.sim is None else round(self.sim, 2)
            data["sim_iterations"] = self.sim_iterations
        return data


@dataclass(frozen=True)
class TurnReview:
    """One turn of a record set against the best option its seat could see."""

    turn: int  # 1-based
    player: int
    name: str
    rack: str
    played: str
    score: int
    best: str | None
    best_score: int | None
    equity: float | None  # of the move made (None: it was not among the options weighed)
    best_equity: float | None
    equity_lost: float | None  # best_equity - equity, 0 for the best
    points_lost: int  # best_score - score when the best is a play (0 otherwise)
    options: list[Option] = field(default_factory=list, repr=False)

    @property
    def mistake(self) -> bool:
        return self.equity_lost is not None and self.equity_lost >= MISTAKE

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "player": self.player, "name": self.name, "rack": self.rack,
                "played": self.played, "score": self.score, "best": self.best,
                "best_score": self.best_score,
                "equity": None if self.equity is None else round(self.equity, 2),
                "best_equity": None if self.best_equity is None else round(self.best_equity, 2),
                "equity_lost": None if self.equity_lost is None else round(self.equity_lost, 2),
                "points_lost": self.points_lost, "mistake": self.mistake}


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


def play_key(action: Action, board: Mapping[Square, Tile]) -> tuple[object, ...]:
    """Options with one key are one play for a learner: the same rack tiles making the
    same hands for the same points, wherever along the line they go (``3 4 5 Q`` laid
    before or after a 5 on the board, or anywhere on an empty board)."""
    if isinstance(action, Play):
        score = check_play(board, action.placed)
        hands = sorted(tuple(sorted(h.tiles)) for h in score.hands)
        return ("play", tuple(sorted(action.placed.values())), tuple(hands), score.total)
    if isinstance(action, Exchange):
        return ("exchange", tuple(sorted(action.tiles)))
    return ("pass",)


def same_action(c: Candidate, action: Action, board: Mapping[Square, Tile]) -> bool:
    """Whether option ``c`` is ``action`` or the same play laid elsewhere (see above)."""
    mine = materialise(c)
    if mine == action:
        return True
    try:
        return play_key(mine, board) == play_key(action, board)
    except IllegalPlay:
        return False


def _pass_option(view: PlayerView, table: LeaveTable) -> Candidate:
    """Passing as an option: the value of the whole rack kept (with the bag empty, minus
    its penalty, as the equity player weighs it)."""
    rack = view.position.rack
    if (view.position.bag or 0) > 0:
        value = table.value_key(rack_key(rack))
    else:
        value = -float(sum(t.penalty for t in rack))
    return Candidate(Pass(), value, 0, rack_key(rack), None, 10**9)


def _option(c: Candidate, board: Mapping[Square, Tile]) -> Option:
    action = materialise(c)
    return Option(action, format_action(action, board), c.score, c.leave_value, c.reply,
                  c.equity)


def ranked(view: PlayerView, table: LeaveTable, seed: int, width: int,
           also: Action | None = None) -> list[Candidate]:
    """The best ``width`` distinct options as the equity player weighs them (with the
    defence while the bag lasts), best first; ``also`` is weighed too when it is not
    among them (against the same racks)."""
    board = view.position.board
    options = candidates(view, table)
    chosen: list[Candidate] = []
    seen: set[tuple[object, ...]] = set()
    for c in options:  # best static equity first: keep the best of each distinct play
        key = play_key(materialise(c), board)
        if key not in seen:
            seen.add(key)
            chosen.append(c)
            if len(chosen) == width:
                break
    bag = view.position.bag or 0
    rng_seed = seed  # the same racks for every defence, so the replies compare
    if bag > 0 and chosen:
        chosen = defend(view, chosen, random.Random(rng_seed), width=len(chosen))
    if also is not None and not any(same_action(c, also, board) for c in chosen):
        extra = [c for c in options if same_action(c, also, board)][:1]
        if not extra and isinstance(also, Pass):  # passing keeps the whole rack
            extra = [_pass_option(view, table)]
        if not extra and isinstance(also, Play):  # a play the quick generator leaves out
            p = view.position
            every = candidates(view, table, False, generate(p.board, p.rack, p.rules))
            extra = [c for c in every if materialise(c) == also][:1]
        if bag > 0 and extra:
            extra = defend(view, extra, random.Random(rng_seed), width=1)
        chosen += extra
    return sorted(chosen, key=lambda c: (-c.equity, c.order))


def best_options(view: PlayerView, top: int = 10, sim_seconds: float = 0.0, seed: int = 1,
                 table: LeaveTable | None = None) -> list[Option]:
    """The ``top`` best distinct options of the seat whose ``view`` this is, best first by
    equity (by simulated value when ``sim_seconds`` > 0 and the bag is not empty)."""
    table = table or shipped()
    board = view.position.board
    chosen = ranked(view, table, seed, max(top, DEFENCE_WIDTH))[:top]
    options = [_option(c, board) for c in chosen]
    if sim_seconds > 0 and chosen and (view.position.bag or 0) > 0:
        sim = SimPlayer(seed, time_budget=sim_seconds, candidates=len(chosen), table=table)
        stats = sim.simulate(view, chosen, time.perf_counter() + sim_seconds)
        by_order = {s.candidate.order: s for s in sim.last or stats}
        refined = []
        for o, c in zip(options, chosen):
            s = by_order.get(c.order)
            refined.append(Option(o.action, o.move, o.score, o.leave, o.reply, o.equity,
                                  s.mean if s and s.n else None, s.n if s else 0))
        refined.sort(key=lambda o: -(o.sim if o.sim is not None else -1e9))
        options = refined
    return options


def analyse_position(position: Position, top: int = 10, sim_seconds: float = 0.0,
                     seed: int = 1, table: LeaveTable | None = None) -> list[dict[str, Any]]:
    """:func:`best_options` of a bare position, as JSON objects."""
    return [o.to_json() for o in best_options(view_of(position), top, sim_seconds, seed, table)]


def action_of(turn: Turn) -> Action:
    """The action a recorded turn took."""
    if turn.action == "play":
        return Play.of(turn.tiles)
    if turn.action == "exchange":
        return Exchange.of(turn.returned)
    return Pass()


def review_game(record: dict[str, Any], table: LeaveTable | None = None,
                progress: Callable[[int, int], None] | None = None) -> list[TurnReview]:
    """Each turn of a game record against the best option (by equity) from what that seat
    could see; ``progress(done, total)`` is called after each turn. Raises ValueError (a
    RecordError) when the record cannot be replayed."""
    table = table or shipped()
    played = Game.from_record(record)
    game = Game.new(list(played.names), played.rules, played.seed)
    reshuffles: dict[int, tuple[int, ...]] = dict.fromkeys(range(len(played.history) + 1), ())
    for at, key in played.reshuffles:
        reshuffles[at] = (*reshuffles[at], key)
    reviews = []
    for i, turn in enumerate(played.history):
        for key in reshuffles[i]:
            game.reshuffle(key)
        view = game.view(game.turn)
        action = action_of(turn)
        weighed = ranked(view, table, i, DEFENCE_WIDTH, also=action)
        made = next((c for c in weighed if materialise(c) == action), None) or next(
            (c for c in weighed if same_action(c, action, game.board)), None)
        best = max(weighed, key=lambda c: (c.equity, -c.order)) if weighed else None
        reviews.append(TurnReview(
            turn=i + 1, player=turn.player, name=played.names[turn.player],
            rack=" ".join(str(t) for t in turn.rack),
            played=format_action(action, game.board), score=turn.score,
            best=None if best is None else format_action(materialise(best), game.board),
            best_score=None if best is None else best.score,
            equity=None if made is None else made.equity,
            best_equity=None if best is None else best.equity,
            equity_lost=None if made is None or best is None
            else max(0.0, best.equity - made.equity),
            points_lost=max(0, best.score - turn.score)
            if best is not None and best.raw is not None else 0,
            options=[_option(c, game.board) for c in weighed[:3]]))
        game.play(action, turn.claimed)
        if turn.joker is not None:
            game.call_joker(turn.joker["caller"])
        if progress is not None:
            progress(i + 1, len(played.history))
    return reviews


def review_record(record: dict[str, Any],
                  table: LeaveTable | None = None) -> list[dict[str, Any]]:
    """:func:`review_game` as JSON objects."""
    return [r.to_json() for r in review_game(record, table)]


def options_text(options: Sequence[Option]) -> list[str]:
    """One line per option: move, score, leave, reply, equity (and the simulated value)."""
    lines = []
    for o in options:
        reply = "-" if o.reply is None else f"{o.reply:.1f}"
        sim = "" if o.sim is None else f"  sim {o.sim:+.1f}"
        lines.append(f"{o.move}: {o.score} + leave {o.leave:+.1f}, reply {reply}"
                     f" = {o.equity:.1f}{sim}")
    return lines


__all__ = ["MISTAKE", "Option", "TurnReview", "action_of", "analyse_position", "best_options",
           "options_text", "play_key", "review_game", "review_record", "same_action", "view_of"]
