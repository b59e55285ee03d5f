"""Exact endgame search: two players, empty bag, both racks known.

With the bag empty in a two-player game the unseen tiles are exactly the other
rack, so the game is one of perfect information. :func:`solve` searches it to the
end with negamax alpha-beta and a transposition table, on the final spread (scores
after rack penalties). Moves are the legal plays and the pass (no exchange once the
bag is empty); the game ends when a player goes out or both pass in succession.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from kingscrib.kings.board import Square
from kingscrib.kings.fastgen import RawPlay, face_tile, generate, to_play
from kingscrib.kings.moves import Action, Pass
from kingscrib.kings.rules import RuleSet
from kingscrib.kings.tiles import Tile

INF = 10**9
EXACT, LOWER, UPPER = 0, 1, 2

Move = RawPlay | Literal["pass"]
# placed faces, the mover's rack, the other rack, passes in a row before
Node = tuple[frozenset[tuple[Square, int]], tuple[Tile, ...], tuple[Tile, ...], int]


class SearchAborted(Exception):
    """The node or time budget ran out before the search finished."""


def penalty(rack: Sequence[Tile]) -> int:
    return sum(t.penalty for t in rack)


@dataclass
class EndgameResult:
    value: int  # final spread (mover minus opponent) from here, with best play by both
    action: Action
    nodes: int


class _Search:
    def __init__(self, board: dict[Square, Tile], rules: RuleSet, max_nodes: int | None,
                 deadline: float | None) -> None:
        self.board = board
        self.rules = rules
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.nodes = 0
        self.tt: dict[Node, tuple[int, int, Move | None]] = {}
        self.placed: dict[Square, int] = {}

    def moves(self, rack: list[Tile]) -> list[RawPlay]:
        raw = generate(self.board, rack, self.rules)
        raw.sort()
        return raw

    def negamax(self, me: list[Tile], opp: list[Tile], passes: int, alpha: int,
                beta: int) -> tuple[int, Move | None]:
        """The best spread for the player to move (future points only), and the move."""
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SearchAborted
        if self.deadline is not None and self.nodes % 256 == 0 and \
                time.perf_counter() > self.deadline:
            raise SearchAborted
        key: Node = (frozenset(self.placed.items()), tuple(sorted(me)), tuple(sorted(opp)), passes)
        hit = self.tt.get(key)
        alpha0 = alpha
        if hit is not None:
            flag, value, move = hit
            if flag == EXACT:
                return value, move
            if flag == LOWER and value > alpha:
                alpha = value
            elif flag == UPPER and value < beta:
                beta = value
            if alpha >= beta:
                return value, move
        raw = self.moves(me)
        # going out first, then by score (the reference order breaks ties)
        raw.sort(key=lambda r: (len(r[2]) != len(me), r[0]))
        best, best_move = -INF, None
        opp_pen = penalty(opp)
        options: list[Move] = [*raw, "pass"]
        for move in options:
            if move == "pass":
                if passes + 1 >= 2:
                    value = opp_pen - penalty(me)
                else:
                    v, _ = self.negamax(opp, me, passes + 1, -beta, -alpha)
                    value = -v
            else:
                _, total, squares, faces = move
                tiles = [face_tile(f) for f in faces]
                left = list(me)
                for t in tiles:
                    left.remove(t.held())
                if not left:
                    value = total + opp_pen
                else:
                    for q, t, f in zip(squares, tiles, faces):
                        self.board[q] = t
                        self.placed[q] = f
                    try:
                        # value = total - v, so the child's window is shifted by total
                        v, _ = self.negamax(opp, left, 0, total - beta, total - alpha)
                    finally:
                        for q in squares:
                            del self.board[q]
                            del self.placed[q]
                    value = total - v
            if value > best:
                best, best_move = value, move
            if best > alpha:
                alpha = best
            if alpha >= beta:
                break
        flag = EXACT if alpha0 < best < beta else (LOWER if best >= beta else UPPER)
        self.tt[key] = (flag, best, best_move)
        return best, best_move


def solve(board: Mapping[Square, Tile], rack: Sequence[Tile], other: Sequence[Tile],
          rules: RuleSet = RuleSet(), passes: int = 0, max_nodes: int | None = None,
          time_limit: float | None = None) -> EndgameResult:
    """The exact best result for the player to move holding ``rack`` against ``other``.

    ``passes`` is how many passes in a row came just before (1: a pass now ends the game).
    Raises :class:`SearchAborted` when ``max_nodes`` or ``time_limit`` (seconds) runs out.
    """
    deadline = time.perf_counter() + time_limit if time_limit is not None else None
    search = _Search(dict(board), rules, max_nodes, deadline)
    me = [t.held() for t in rack]
    opp = [t.held() for t in other]
    value, move = search.negamax(me, opp, passes, -INF, INF)
    if move == "pass" or move is None:
        action: Action = Pass()
    else:
        action = to_play(move[2], move[3])
    return EndgameResult(value, action, search.nodes)


__all__ = ["EndgameResult", "SearchAborted", "penalty", "solve"]
