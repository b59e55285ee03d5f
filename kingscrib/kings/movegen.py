"""Every legal play of a position, one lane (row or column stretch) at a time.

For each lane and each span of empty squares it may fill, tiles are laid left
to right (top to bottom) and pruned square by square with cross-checks: the
faces a square accepts given the tiles above and below it (or left and
right). The line along the play is checked once it is complete, by the hand
table. Every play found is scored by :func:`kingscrib.kings.play.check_play`
so this generator and the rules can never disagree on a score.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from kingscrib.kings.board import (
    ACROSS,
    DIRECTIONS,
    Square,
    line_through,
    lines,
    neighbours,
    other,
)
from kingscrib.kings.hands import MAX_HAND, hand_value
from kingscrib.kings.moves import Play, ScoredPlay
from kingscrib.kings.play import check_play
from kingscrib.kings.rules import RuleSet
from kingscrib.kings.tiles import RACK_SIZE, Tile

_LANES = {d: lines(d) for d in DIRECTIONS}


def _cross_ok(board: Mapping[Square, Tile], square: Square, direction: str,
              cache: dict[tuple[Square, str], frozenset[int] | None]) -> frozenset[int] | None:
    """Ranks allowed at ``square`` by the line across ``direction``; None: no line there."""
    key = (square, direction)
    if key not in cache:
        line = line_through(board, square, direction)
        if len(line) == 1:
            cache[key] = None
        elif len(line) > MAX_HAND:
            cache[key] = frozenset()
        else:
            others = [board[q].rank for q in line if q != square]
            cache[key] = frozenset(r for r in range(1, 14) if hand_value(others + [r]).valid)
    return cache[key]


def _spans(lane: list[Square], board: Mapping[Square, Tile], first: bool,
           touching: set[Square]) -> Iterator[tuple[list[Square], list[int]]]:
    """Runs of empty squares a play along the lane may fill (between existing tiles),
    each with the ranks already on the line the play would make."""
    n = len(lane)
    for i in range(n):
        if lane[i] in board:
            continue
        empties: list[Square] = []
        for j in range(i, n):
            if lane[j] in board:
                continue
            empties.append(lane[j])
            if len(empties) > RACK_SIZE:
                break
            # The whole line: the span i..j plus tiles touching either end.
            lo, hi = i, j
            while lo > 0 and lane[lo - 1] in board:
                lo -= 1
            while hi < n - 1 and lane[hi + 1] in board:
                hi += 1
            if hi - lo + 1 > MAX_HAND:
                break
            if first:
                if len(empties) >= 2:
                    yield list(empties), []
            elif hi - lo + 1 > len(empties) or any(e in touching for e in empties):
                existing = [board[q].rank for q in lane[lo:hi + 1] if q in board]
                yield list(empties), existing


def legal_plays(board: Mapping[Square, Tile], rack: Sequence[Tile],
                rules: RuleSet = RuleSet()) -> list[ScoredPlay]:
    """Every legal play with its score, each exactly once, best first."""
    first = not board
    touching = {n for s in board for n in neighbours(s) if n not in board}
    cache: dict[tuple[Square, str], frozenset[int] | None] = {}
    found: dict[Play, ScoredPlay] = {}
    for direction in DIRECTIONS:
        cross = other(direction)
        for lane in _LANES[direction]:
            for empties, existing in _spans(lane, board, first, touching):
                if len(empties) == 1 and direction != ACROSS:
                    continue  # a single tile is found once, in the across pass
                allowed = []
                for sq in empties:
                    ok = _cross_ok(board, sq, cross, cache)
                    if len(empties) == 1:
                        along = _cross_ok(board, sq, direction, cache)
                        ok = along if ok is None else (ok if along is None else ok & along)
                    allowed.append(ok)
                for placed in _fill(empties, allowed, list(rack)):
                    if len(existing) + len(placed) > 1 and not hand_value(
                        existing + [t.rank for t in placed.values()]
                    ).valid:
                        continue  # the line along the play is no hand
                    play = Play.of(placed)
                    if play in found:
                        continue
                    try:
                        score = check_play(board, placed, rules)
                    except ValueError:
                        continue
                    found[play] = ScoredPlay(play, score)
    return sorted(found.values(), key=_best_first)


def _best_first(sp: ScoredPlay) -> tuple[int, int, tuple[tuple[Square, Tile], ...]]:
    return (-sp.total, len(sp.play), sp.play.tiles)


def _fill(empties: list[Square], allowed: list[frozenset[int] | None],
          rack: list[Tile]) -> Iterator[dict[Square, Tile]]:
    """Every way to put rack tiles (with their faces) on ``empties`` respecting cross-checks."""
    placed: dict[Square, Tile] = {}

    def go(k: int, left: list[Tile]) -> Iterator[dict[Square, Tile]]:
        if k == len(empties):
            yield dict(placed)
            return
        ok = allowed[k]
        tried: set[Tile] = set()
        for i, tile in enumerate(left):
            if tile in tried:
                continue
            tried.add(tile)
            rest = left[:i] + left[i + 1:]
            for face in tile.faces():
                if ok is not None and face.rank not in ok:
                    continue
                placed[empties[k]] = face
                yield from go(k + 1, rest)
            placed.pop(empties[k], None)

    yield from go(0, [t.held() for t in rack])
