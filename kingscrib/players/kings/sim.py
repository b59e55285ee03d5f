"""The simulating player: Monte Carlo over the tiles it cannot see.

The best few options by static equity are each played out a few plies, many times,
against racks and bag orders drawn at random from the unseen tiles (the same draws
for every candidate in an iteration: common random numbers). A play-out is: the
candidate, the opponents' best static replies, then our own best static reply; its
value is our points less the best opponent's, plus the equity of our last reply.
Candidates that are clearly behind (by two standard errors) are dropped; the search
stops when one is left, when the iteration cap is reached or when the time budget
runs out. With an empty bag in a two-player game it searches the endgame exactly
(see :mod:`kingscrib.players.kings.endgame`) when that fits in the budget.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from kingscrib.kings.board import Square
from kingscrib.kings.fastgen import RawPlay, face_tile
from kingscrib.kings.game import PlayerView
from kingscrib.kings.moves import Action, Exchange, Pass
from kingscrib.kings.position import Position
from kingscrib.kings.tiles import RACK_SIZE, Tile
from kingscrib.players.kings.base import ComputerPlayer
from kingscrib.players.kings.endgame import SearchAborted, solve
from kingscrib.players.kings.equity import Candidate, best_static, candidates, distinct, materialise
from kingscrib.players.kings.leaves import LeaveTable, shipped


@dataclass
class SimStats:
    candidate: Candidate
    n: int = 0
    total: float = 0.0
    total_sq: float = 0.0
    alive: bool = True

    def add(self, x: float) -> None:
        self.n += 1
        self.total += x
        self.total_sq += x * x

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else self.candidate.equity

    @property
    def stderr(self) -> float:
        if self.n < 2:
            return float("inf")
        var = max(0.0, (self.total_sq - self.total ** 2 / self.n) / (self.n - 1))
        return math.sqrt(var / self.n)


def apply_candidate(board: dict[Square, Tile], rack: list[Tile], bag: list[Tile],
           c: Candidate) -> int:
    """Play candidate ``c`` on the simulated board: returns its score; refills the rack."""
    if c.raw is not None:
        return apply_raw_play(board, rack, bag, c.raw)
    if isinstance(c.action, Exchange):
        returned = list(c.action.tiles)
        drawn = [bag.pop() for _ in range(min(len(returned), len(bag)))]
        for t in returned:
            rack.remove(t)
        rack.extend(drawn)
        bag[:0] = returned  # returned tiles go to the bottom: the bag is shuffled
    return 0


def apply_raw_play(board: dict[Square, Tile], rack: list[Tile], bag: list[Tile],
                   raw: RawPlay) -> int:
    """Play the raw play on the simulated board: returns its score; refills the rack."""
    _, total, squares, faces = raw
    for q, f in zip(squares, faces):
        t = face_tile(f)
        board[q] = t
        rack.remove(t.held())
    while len(rack) < RACK_SIZE and bag:
        rack.append(bag.pop())
    return total


class SimPlayer(ComputerPlayer):
    """Monte Carlo simulation of the top candidates, with exact endgames."""

    name = "sim"
    best_reply = staticmethod(best_static)  # the play-outs' policy: the best by static equity

    def __init__(self, seed: int | None = None, time_budget: float = 1.0,
                 candidates: int = 8, max_iterations: int = 400, min_iterations: int = 8,
                 table: LeaveTable | None = None, endgame: bool = True,
                 endgame_nodes: int = 4000) -> None:
        self.rng = random.Random(seed)
        self.time_budget = time_budget
        self.width = candidates
        self.max_iterations = max_iterations
        self.min_iterations = min_iterations
        self.table = table or shipped()
        self.endgame = endgame
        self.endgame_nodes = endgame_nodes
        self.last: list[SimStats] = []

    def settled(self, view: PlayerView, start: float) -> tuple[Action | None, list[Candidate]]:
        """The move when there is nothing to simulate (no option, the exact endgame, one
        option, an empty bag), else None; and the candidates."""
        options = candidates(view, self.table)
        if not options:
            return Pass(), options
        bag = view.position.bag or 0
        if bag == 0 and view.players == 2 and self.endgame:
            action = self._endgame(view, start)
            if action is not None:
                return action, options
        if bag == 0 or len(options) == 1:
            return materialise(options[0]), options
        return None, options

    def choose(self, view: PlayerView) -> Action:
        start = time.perf_counter()
        action, options = self.settled(view, start)
        if action is not None:
            return action
        stats = self.simulate(view, distinct(options, self.width), start + self.time_budget)
        best = max(stats, key=lambda s: (s.mean, -s.candidate.order))
        return materialise(best.candidate)

    def _endgame(self, view: PlayerView, start: float) -> Action | None:
        other = [t for t, n in view.unseen.items() for _ in range(n)]
        left = self.time_budget - (time.perf_counter() - start)
        try:
            result = solve(view.position.board, view.position.rack, other, view.position.rules,
                           passes=view.passes_in_a_row, max_nodes=self.endgame_nodes,
                           time_limit=max(0.05, left))
        except SearchAborted:
            return None
        return result.action

    def simulate(self, view: PlayerView, options: Sequence[Candidate],
                 deadline: float) -> list[SimStats]:
        p = view.position
        seat = view.seat
        unseen = [t for t, n in sorted(view.unseen.items()) for _ in range(n)]
        others = [(seat + k) % view.players for k in range(1, view.players)]
        stats = [SimStats(c) for c in options]
        for it in range(self.max_iterations):
            if time.perf_counter() > deadline and it >= 2:
                break
            pool = list(unseen)
            self.rng.shuffle(pool)
            racks = {}
            for o in others:
                size = view.rack_sizes[o]
                racks[o], pool = pool[:size], pool[size:]
            for s in stats:
                if s.alive:
                    s.add(self._playout(p, s.candidate, racks, list(pool), others))
            if it + 1 >= self.min_iterations:
                self._prune(stats)
                if sum(s.alive for s in stats) == 1:
                    break
        self.last = stats
        return [s for s in stats if s.alive] or stats

    def _prune(self, stats: list[SimStats]) -> None:
        live = [s for s in stats if s.alive]
        top = max(live, key=lambda s: s.mean)
        for s in live:
            if s is not top and s.mean + 2 * s.stderr < top.mean - 2 * top.stderr:
                s.alive = False

    def _playout(self, p: Position, cand: Candidate, racks: dict[int, list[Tile]], bag: list[Tile],
                 others: list[int]) -> float:
        board = dict(p.board)
        rack = [t.held() for t in p.rack]
        mine = apply_candidate(board, rack, bag, cand)
        best_other = -math.inf
        for o in others:
            orack = list(racks[o])
            if not orack:
                continue
            _, reply = self.best_reply(board, orack, len(bag), p.rules, self.table)
            got = apply_raw_play(board, orack, bag, reply) if reply else 0
            best_other = max(best_other, got)
        if best_other == -math.inf:
            best_other = 0
        if not rack:
            return mine - best_other
        eq, again = self.best_reply(board, rack, len(bag), p.rules, self.table)
        follow = eq if again else self.table.value_key(
            tuple(sorted((t.rank, t.colour) for t in rack)))
        return mine - best_other + follow


__all__ = ["SimPlayer", "SimStats", "apply_candidate", "apply_raw_play"]
