"""The Kings Cribbage expert: simulation of defence-aware candidates.

It is the simulating player (:mod:`kingscrib.players.kings.sim`) with four changes:

- **Defence-aware candidates.** The simulating player's candidates are the best few by
  static equity (score plus leave), so a play that scores well but opens a hot spot for
  the next player takes a place that a quieter play deserved. The expert first looks at
  a wider set (``pool``) with the equity player's defence term (what each option opens
  for the next player, over racks drawn from the unseen tiles) and simulates the best
  ``width`` of those.
- **A prior for the sample.** With a small budget only a few play-outs fit; each
  candidate's simulated mean is blended with its defended equity as if that were
  ``prior_weight`` play-outs already seen, so a noisy handful of play-outs does not
  overturn a clear static judgement.

- **Cheaper play-outs.** Each reply in a play-out (the best by score plus leave) is found
  by the C core's best-equity mode, which builds only that play: the same replies in
  about a quarter of the time, so several times more play-outs fit in a budget.
- **Play-outs to the end.** With ``near_end`` tiles or fewer in the bag, play-outs go on
  (up to ``end_rounds`` rounds) until the game ends; the racks left lose their points,
  and a play-out ending with the seat ahead is worth ``win_bonus`` more (less when
  behind), since near the end winning matters more than the margin.

Away from the end the play-outs are ``sim``'s (the candidate, the others' best
static-equity replies, then our own valued at its equity); the pruning and the exact
endgame with an empty bag in a two-player game are ``sim``'s too. The budget is a
parameter (``time_budget`` seconds a move, ``max_iterations`` play-outs per candidate at
most): tests fix the iterations and give time enough, so the choice depends only on the
seed.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from kingscrib.kings.game import PlayerView
from kingscrib.kings.moves import Action
from kingscrib.kings.position import Position
from kingscrib.kings.tiles import Tile
from kingscrib.players.kings.defence import DEFENCE_RACKS, DEFENCE_WEIGHT
from kingscrib.players.kings.endgame import penalty as rack_penalty
from kingscrib.players.kings.equity import (
    Candidate,
    best_static_native,
    defend,
    distinct,
    materialise,
)
from kingscrib.players.kings.leaves import LeaveTable
from kingscrib.players.kings.sim import SimPlayer, SimStats, apply_candidate, apply_raw_play

PLAYOUT_ROUNDS = 1  # rounds of replies after the candidate in a play-out (sim's: 1)
NEAR_END = 7  # with this many tiles in the bag or fewer, play-outs go on to the end...
END_ROUNDS = 8  # ...for at most this many rounds
WIN_BONUS = 10.0  # points for a play-out that ends the game won (less for one lost)
EXPERT_POOL = 12  # options given the defence term before the best are simulated
EXPERT_WIDTH = 8  # candidates simulated
PRIOR_WEIGHT = 2.0  # the defended equity counts as this many play-outs


class ExpertPlayer(SimPlayer):
    """Monte Carlo simulation of the best options by defended equity, with exact endgames."""

    name = "expert"
    best_reply = staticmethod(best_static_native)  # the same replies, only the best one built

    def __init__(self, seed: int | None = None, time_budget: float = 1.5,
                 candidates: int = EXPERT_WIDTH, pool: int = EXPERT_POOL,
                 max_iterations: int = 400, min_iterations: int = 8,
                 prior_weight: float = PRIOR_WEIGHT, table: LeaveTable | None = None,
                 endgame: bool = True, endgame_nodes: int = 4000,
                 rounds: int = PLAYOUT_ROUNDS, near_end: int = NEAR_END,
                 end_rounds: int = END_ROUNDS, win_bonus: float = WIN_BONUS) -> None:
        super().__init__(seed, time_budget=time_budget, candidates=candidates,
                         max_iterations=max_iterations, min_iterations=min_iterations,
                         table=table, endgame=endgame, endgame_nodes=endgame_nodes)
        self.pool = pool
        self.prior_weight = prior_weight
        self.rounds = rounds
        self.near_end = near_end
        self.end_rounds = end_rounds
        self.win_bonus = win_bonus
        self._rounds = rounds  # this move's
        self._lead = 0  # our score less the best other's, at the move being chosen

    def choose(self, view: PlayerView) -> Action:
        start = time.perf_counter()
        action, options = self.settled(view, start)
        if action is not None:
            return action
        pool = distinct(options, self.pool)
        if len(pool) > 1:
            pool = defend(view, pool, self.rng, DEFENCE_WEIGHT, len(pool), DEFENCE_RACKS)
        chosen = pool[: self.width]
        if len(chosen) == 1:
            return materialise(chosen[0])
        stats = self.simulate(view, chosen, start + self.time_budget)
        best = max(stats, key=lambda s: (self.value(s), -s.candidate.order))
        return materialise(best.candidate)

    def simulate(self, view: PlayerView, options: Sequence[Candidate],
                 deadline: float) -> list[SimStats]:
        # the lead decides whether a play-out that ends the game is won; the bag, how far
        # the play-outs go
        mine = view.scores[view.seat]
        self._lead = mine - max(s for k, s in enumerate(view.scores) if k != view.seat)
        bag = view.position.bag or 0
        self._rounds = self.end_rounds if bag <= self.near_end else self.rounds
        return super().simulate(view, options, deadline)

    def _playout(self, p: Position, cand: Candidate, racks: dict[int, list[Tile]], bag: list[Tile],
                 others: list[int]) -> float:
        """The candidate, then this move's rounds (``rounds``, or ``end_rounds`` near the
        end) of best static-equity replies (the others', then ours; our last one valued at
        its equity, score plus leave). It stops at the end
        of the game (the bag empty and a rack played out, or everyone passing with an empty
        bag): the racks left lose their points, and a won game earns ``win_bonus``. Its
        value: our points less the best other's over the play-out."""
        board = dict(p.board)
        me = -1
        held = {me: [t.held() for t in p.rack]}
        for o in others:
            held[o] = list(racks[o])
        gained = dict.fromkeys(held, 0)
        gained[me] = apply_candidate(board, held[me], bag, cand)
        order = others + [me]
        plies = self._rounds * len(order)
        over = not bag and not held[me]
        passes = 0
        tail = 0.0
        for ply in range(plies):
            if over:
                break
            seat = order[ply % len(order)]
            rack = held[seat]
            if not rack:
                continue
            penalty = 0 if bag else sum(rack_penalty(r) for s, r in held.items() if s != seat)
            eq, raw = self.best_reply(board, rack, len(bag), p.rules, self.table, penalty)
            if ply == plies - 1:  # our last reply: its equity stands for the rest
                tail = eq if raw is not None else self.table.value_key(
                    tuple(sorted((t.rank, t.colour) for t in rack)))
                break
            if raw is None:
                passes += 1
                over = not bag and passes >= len(order)
                continue
            passes = 0
            gained[seat] += apply_raw_play(board, rack, bag, raw)
            over = not bag and not rack
        if over:
            for seat, rack in held.items():
                gained[seat] -= rack_penalty(rack)
        best_other = max(gained[o] for o in others)
        value = gained[me] - best_other + tail
        if over and self.win_bonus:
            final = self._lead + gained[me] - best_other
            value += self.win_bonus if final > 0 else -self.win_bonus if final < 0 else 0.0
        return value

    def value(self, s: SimStats) -> float:
        """The simulated mean, shrunk towards the candidate's defended equity."""
        w = self.prior_weight
        return (s.total + w * s.candidate.equity) / (s.n + w)


__all__ = ["ExpertPlayer"]
