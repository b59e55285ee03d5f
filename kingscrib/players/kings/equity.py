"""The equity player: score now plus the value of the tiles kept, less what a play opens.

Every legal play is valued at its score plus the learned value of its leave (see
:mod:`kingscrib.players.kings.leaves`); every exchange at the value of the tiles it
keeps. Once the bag is empty the leave is worth minus its penalty instead, and going
out is worth the tiles the others are left holding. While the bag lasts, the player
also looks at what its best few options open for the next player (see
:mod:`kingscrib.players.kings.defence`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from itertools import combinations

from kingscrib.kings.board import Square
from kingscrib.kings.fastgen import NATIVE, RawPlay, best_equity, generate, held_faces, to_play
from kingscrib.kings.game import PlayerView
from kingscrib.kings.moves import Action, Exchange, Pass
from kingscrib.kings.rules import EXCHANGE_WHEN_STUCK, RuleSet
from kingscrib.kings.tiles import NINE, RACK_SIZE, SIX, Tile
from kingscrib.players.kings.base import ComputerPlayer
from kingscrib.players.kings.defence import (
    DEFENCE_RACKS,
    DEFENCE_WEIGHT,
    DEFENCE_WIDTH,
    expected_reply,
    sample_racks,
)
from kingscrib.players.kings.leaves import LeaveKey, LeaveTable, shipped

GOING_OUT_BONUS = 5.0  # besides the others' penalties: they lose their last turn

Board = Mapping[Square, Tile]
LeaveValue = Callable[[LeaveKey], float]


def _penalty(rank: int) -> int:
    rank = SIX if rank == NINE else rank
    return rank if rank < 10 else 10


class Candidate:
    """One option of a turn with its equity (the defence's share taken off once looked at)."""

    __slots__ = ("action", "equity", "score", "leave", "raw", "order", "reply", "defence")

    def __init__(self, action: Action | None, equity: float, score: int, leave: LeaveKey,
                 raw: RawPlay | None, order: int) -> None:
        self.action = action  # None for a play until materialised from ``raw``
        self.equity = equity
        self.score = score
        self.leave = leave  # sorted (held rank, colour) pairs kept
        self.raw = raw
        self.order = order  # tie-break: reference order for plays, then exchanges
        self.reply: float | None = None  # the next player's expected best reply, if looked at
        self.defence = 0.0  # the points taken off the equity for that reply

    @property
    def leave_value(self) -> float:
        return self.equity - self.score + self.defence


def rack_key(rack: Sequence[Tile]) -> LeaveKey:
    return tuple(sorted((t.held().rank, t.colour) for t in rack))


def leave_of(rack: LeaveKey, faces: Sequence[int]) -> LeaveKey:
    """What stays on ``rack`` once the faces (fastgen indexes) are played."""
    left = list(rack)
    for f in faces:
        r = f >> 1
        left.remove((SIX if r == NINE else r, "D" if f & 1 == 0 else "L"))
    return tuple(left)


def opponents_penalty(view: PlayerView) -> int:
    """The points the others would lose if the game ended now. With an empty bag, the unseen
    tiles are exactly the other racks."""
    return sum(_penalty(t.rank) * n for t, n in view.unseen.items())


def candidates(view: PlayerView, table: LeaveTable, with_exchanges: bool = True,
               raw: list[RawPlay] | None = None) -> list[Candidate]:
    """Every play (and, when allowed, every exchange) with its static equity, best first."""
    p = view.position
    bag = p.bag or 0
    return rank_options(p.board, p.rack, bag, p.rules, table,
                        opponents_penalty(view) if bag == 0 else 0, with_exchanges, raw)


def rank_options(board: Board, rack: Sequence[Tile], bag: int, rules: RuleSet, table: LeaveTable,
                 opp_penalty: int = 0, with_exchanges: bool = True,
                 raw: list[RawPlay] | None = None) -> list[Candidate]:
    """:func:`candidates` from the parts of a position; ``opp_penalty`` is what the others
    hold (it matters only once the bag is empty)."""
    rk = rack_key(rack)
    if raw is None:
        raw = generate(board, rack, rules, one_span=True)
    raw.sort()
    out: list[Candidate] = []
    value = table.value_key
    leave_value = _leave_values(rk, bag, table, opp_penalty)
    for i, r in enumerate(raw):
        lv = leave_value(r[3])
        out.append(Candidate(None, r[1] + lv, r[1], (), r, i))
    allowed = with_exchanges and not (rules.exchange == EXCHANGE_WHEN_STUCK and raw)
    if allowed and bag > 0:
        seen: set[LeaveKey] = set()
        held = [(t.held().rank, t.colour) for t in rack]
        n = len(held)
        for size in range(1, n + 1):
            if size > bag:
                break
            for idx in combinations(range(n), size):
                keep = tuple(sorted(held[i] for i in range(n) if i not in idx))
                if keep in seen:
                    continue
                seen.add(keep)
                returned = [Tile(*held[i]) for i in idx]
                out.append(Candidate(Exchange.of(returned), value(keep), 0, keep, None,
                                     len(raw) + len(seen)))
    out.sort(key=lambda c: (-c.equity, c.order))
    return out


def _leave_value(leave: LeaveKey, played: int, bag: int, value: LeaveValue,
                 opp_penalty: int) -> float:
    """What the tiles kept after playing ``played`` are worth: with the bag empty, going
    out earns the others' penalty and a bonus and tiles kept cost their penalty;
    otherwise the leave table (``value``) decides, weighed down when the bag cannot
    refill the rack."""
    if bag == 0:
        return opp_penalty + GOING_OUT_BONUS if not leave else \
            -float(sum(_penalty(x) for x, _ in leave))
    lv = value(leave)
    if bag < played:
        lv *= bag / played  # the bag cannot refill the rack: the leave matters less
    return lv


def _leave_values(rk: LeaveKey, bag: int, table: LeaveTable,
                  opp_penalty: int) -> Callable[[Sequence[int]], float]:
    """A function: the faces a play uses -> the value of the tiles it keeps
    (:func:`_leave_value`, cached)."""
    cache: dict[tuple[int, ...], float] = {}
    value = table.value_key

    def leave_value(faces: Sequence[int]) -> float:
        key = tuple(sorted(faces))
        lv = cache.get(key)
        if lv is None:
            lv = cache[key] = _leave_value(leave_of(rk, faces), len(faces), bag, value,
                                           opp_penalty)
        return lv

    return leave_value


def best_static(board: Board, rack: Sequence[Tile], bag: int, rules: RuleSet, table: LeaveTable,
                opp_penalty: int = 0) -> tuple[float, RawPlay | None]:
    """The best play by static equity (no exchanges), quickly: (equity, raw play or None)."""
    raw = generate(board, rack, rules, one_span=True)
    if not raw:
        return 0.0, None
    leave_value = _leave_values(rack_key(rack), bag, table, opp_penalty)
    best_eq, best = -1e18, raw[0]
    for r in raw:
        eq = r[1] + leave_value(r[3])
        if eq > best_eq or (eq == best_eq and r[0] < best[0]):
            best_eq, best = eq, r
    return best_eq, best


def best_static_native(board: Board, rack: Sequence[Tile], bag: int, rules: RuleSet,
                       table: LeaveTable,
                       opp_penalty: int = 0) -> tuple[float, RawPlay | None]:
    """:func:`best_static`, the same answer, but with the C core only the best play is
    built: the leave of each subset of the rack is valued once and the core keeps the
    running best of score + leave (:func:`~kingscrib.kings.fastgen.best_equity`)."""
    if not board or not NATIVE:
        return best_static(board, rack, bag, rules, table, opp_penalty)
    bag_key = min(bag, RACK_SIZE)  # a bag of the rack's size or more refills any play
    leaves = _subset_leaves(held_faces(rack), bag_key, opp_penalty if bag == 0 else 0, table)
    found = best_equity(board, rack, leaves)
    return found if found is not None else (0.0, None)


# id(table) -> (table, {(held, bag, opp_penalty): leave values by mask}); the table is kept
# so that its id stays its own
_SUBSET_LEAVES: dict[int, tuple[LeaveTable, dict[tuple[tuple[int, ...], int, int], list[float]]]] = {}


def _subset_leaves(held: tuple[int, ...], bag: int, opp_penalty: int,
                   table: LeaveTable) -> list[float]:
    """The leave value after playing each subset of ``held`` (by mask), as
    :func:`_leave_values` values it; cached per table."""
    entry = _SUBSET_LEAVES.get(id(table))
    if entry is None or entry[0] is not table:
        entry = _SUBSET_LEAVES[id(table)] = (table, {})
    cache = entry[1]
    key = (held, bag, opp_penalty)
    values = cache.get(key)
    if values is None:
        if len(cache) >= 100_000:  # racks seen in play-outs: keep the cache bounded
            cache.clear()
        rk = tuple((f >> 1, "D" if f & 1 == 0 else "L") for f in held)
        n = len(held)
        value = table.value_key
        values = []
        for m in range(1 << n):
            leave = tuple(rk[i] for i in range(n) if not m >> i & 1)
            values.append(_leave_value(leave, n - len(leave), bag, value, opp_penalty))
        cache[key] = values
    return values


def distinct(options: Sequence[Candidate], width: int) -> list[Candidate]:
    """The best ``width`` options, keeping one of the plays that only reorder the same tiles
    on the same squares for the same score (they are nearly always equivalent)."""
    out: list[Candidate] = []
    seen: set[tuple[object, ...]] = set()
    for c in options:
        key = (c.raw[2], tuple(sorted(c.raw[3])), c.raw[1]) if c.raw is not None else \
            ("x", c.leave)
        if key in seen:
            continue
        seen.add(key)
        out.append(c)
        if len(out) == width:
            break
    return out


def defend(view: PlayerView, options: Sequence[Candidate], rng: random.Random,
           weight: float = DEFENCE_WEIGHT, width: int = DEFENCE_WIDTH,
           racks: int = DEFENCE_RACKS) -> list[Candidate]:
    """The best ``width`` distinct options, each with the next player's expected best
    reply (over ``racks`` racks drawn from the unseen tiles) times ``weight`` taken off its
    equity; best first."""
    top = distinct(options, width)
    drawn = sample_racks(view, rng, racks)
    board, rules = view.position.board, view.position.rules
    for c in top:
        placed = list(zip(c.raw[2], c.raw[3])) if c.raw is not None else []
        c.reply = expected_reply(board, placed, drawn, rules)
        c.defence = weight * c.reply
        c.equity -= c.defence
    top.sort(key=lambda c: (-c.equity, c.order))
    return top


def materialise(c: Candidate) -> Action:
    if c.action is None:
        assert c.raw is not None
        c.action = to_play(c.raw[2], c.raw[3])
    return c.action


class EquityPlayer(ComputerPlayer):
    """Plays the option with the best score plus leave value less what it opens for the
    next player (``defence`` is the share of that reply taken off; 0 turns it off)."""

    name = "equity"

    def __init__(self, table: LeaveTable | None = None, seed: int | None = 0,
                 defence: float = DEFENCE_WEIGHT) -> None:
        self.table = table or shipped()
        self.rng = random.Random(seed)
        self.defence = defence

    def choose(self, view: PlayerView) -> Action:
        options = candidates(view, self.table)
        if not options:
            return Pass()
        if self.defence and (view.position.bag or 0) > 0 and len(options) > 1:
            options = defend(view, options, self.rng, self.defence)
        best = options[0]
        if view.position.bag == 0 and best.raw is not None and best.equity < _pass_equity(view):
            return Pass()
        return materialise(best)


def _pass_equity(view: PlayerView) -> float:
    """Passing with an empty bag keeps the whole rack: worth minus its penalty."""
    return -float(sum(_penalty(t.rank) for t in view.position.rack))


__all__ = ["Candidate", "EquityPlayer", "best_static", "best_static_native", "candidates",
           "defend", "distinct", "leave_of", "materialise", "rack_key", "rank_options"]
