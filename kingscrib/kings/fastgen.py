"""A fast generator of every legal Kings Cribbage play with its score.

It returns exactly what :func:`kingscrib.kings.movegen.legal_plays` (the
readable reference) returns, in the same order, only much faster. The ideas
are those of the Scrabble engines (wolges, Macondo, Quackle):

- **One table of hands.** A hand's value depends only on its multiset of
  ranks, so the 8,554 hands of 2-5 ranks are kept in one dict keyed by an
  integer that is the sum of one weight per rank (``6 ** (rank - 1)``): adding
  a tile to a line is one addition, looking the line up is one dict lookup.
- **Cross-check sets.** For an empty square and a direction, the tiles
  already above and below (or left and right) decide which faces the square
  accepts and what the perpendicular hand then scores, as a list indexed by
  face. They are computed once per position, only for squares next to tiles.
- **Lanes one at a time.** A play of two or more tiles fills every empty
  square of one window of a row or column: the maximal line it makes. For
  each window the line's existing tiles are one key; every sub-multiset of
  the rack (with its 6/9 faces) is checked against the table with one lookup,
  and only the valid ones are laid out in their distinct orders and checked
  against the cross-check sets.
- **The rack once.** The sub-multisets of a rack and their distinct orders
  are computed once per rack (and cached), not once per window. On an empty
  board there are no cross-checks, so the valid sequences are simply laid on
  every span.

The :class:`ScoredPlay` objects returned carry their total at once and build
the full :class:`~kingscrib.kings.play.PlayScore` breakdown (via the rules'
``check_play``) only when it is asked for.

>>> from kingscrib.kings.tiles import parse_tiles
>>> from kingscrib.kings.board import parse_square
>>> board = {parse_square("G7"): Tile.parse("8L"), parse_square("H7"): Tile.parse("7D")}
>>> best = legal_plays(board, parse_tiles("7L 6D AL KD 4L"))[0]
>>> best.total
16
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from itertools import permutations
from typing import Protocol

from kingscrib.kings.board import ACROSS, DOWN, PLAYABLE, SIZE, Square, lines, step
from kingscrib.kings.hands import MAX_HAND, hand_table
from kingscrib.kings.moves import Play, ScoredPlay
from kingscrib.kings.play import BONUS, PlayScore, check_play
from kingscrib.kings.rules import RuleSet
from kingscrib.kings.tiles import COLOURS, DARK, NINE, RACK_SIZE, SIX, Tile

# ----- encodings -----------------------------------------------------------
# A face is (rank, colour); its index is rank * 2 + colour, colour 0 = D, 1 = L
# (the order of Tile: rank first, then "D" < "L").
_COLOUR_INDEX = {DARK: 0, "L": 1}
WEIGHT = [0] + [6 ** (r - 1) for r in range(1, 14)]  # rank -> weight in a hand key
FACE_TILE: list[Tile | None] = [None] * 28
for _r in range(1, 14):
    for _c in COLOURS:
        FACE_TILE[_r * 2 + _COLOUR_INDEX[_c]] = Tile(_r, _c)
INVALID = -1


def _build_table() -> dict[int, int]:
    """Hand key -> total for every valid hand of 2 to 5 ranks (invalid hands are absent)."""
    table: dict[int, int] = {}
    for ranks, value in hand_table().items():
        if value.valid:
            table[sum(WEIGHT[r] for r in ranks)] = value.total
    return table


TABLE: dict[int, int] = _build_table()

# Lanes: the maximal stretches of playable squares along each direction.
LANES = {d: [tuple(lane) for lane in lines(d)] for d in (ACROSS, DOWN)}
_CENTRE_LANE = tuple(range((SIZE // 2) * SIZE, (SIZE // 2 + 1) * SIZE))  # the centre row
_CENTRED = [((SIZE - n) // 2, (SIZE - n) // 2 + n - 1) for n in range(2, MAX_HAND + 1)]


def _rays() -> dict[str, list[tuple[tuple[Square, ...], tuple[Square, ...]]]]:
    """For each direction and square: the squares before it (nearest first) and after it,
    up to MAX_HAND steps each, stopping at the edge of the board."""
    Rays = tuple[tuple[Square, ...], tuple[Square, ...]]
    out: dict[str, list[Rays]] = {}
    for d in (ACROSS, DOWN):
        table: list[Rays] = [((), ())] * (SIZE * SIZE)
        for s in PLAYABLE:
            sides = []
            for delta in (-1, 1):
                found = []
                q = s
                for _ in range(MAX_HAND):
                    following = step(q, d, delta)
                    if following is None:
                        break
                    found.append(following)
                    q = following
                sides.append(tuple(found))
            table[s] = (sides[0], sides[1])
        out[d] = table
    return out


_RAYS = _rays()
_ZERO = [0] * 28  # cross-check of a square with no perpendicular line: anything, 0 points


# ----- the rack ------------------------------------------------------------
class RackInfo:
    """Every sub-multiset of a rack with its faces, grouped by size and rank key."""

    __slots__ = ("by_size", "singles", "_fits")

    def __init__(self, held: tuple[tuple[int, int], ...]) -> None:
        # by_size[E] = list of (rank key, mono colour or -1, distinct orders as face tuples)
        n = len(held)
        options = [((SIX * 2 + c, NINE * 2 + c) if r == SIX else (r * 2 + c,)) for r, c in held]
        seen: set[tuple[int, ...]] = set()
        groups: dict[int, dict[tuple[int, ...], None]] = {}
        for mask in range(1, 1 << n):
            chosen = [options[i] for i in range(n) if mask >> i & 1]
            combos: list[tuple[int, ...]] = [()]
            for opts in chosen:
                combos = [c + (f,) for c in combos for f in opts]
            for combo in combos:
                key = tuple(sorted(combo))
                if key not in seen:
                    seen.add(key)
                    groups.setdefault(len(key), {})[key] = None
        self.by_size: list[list[tuple[int, int, tuple[int, ...]]]] = [
            [] for _ in range(RACK_SIZE + 1)]
        for size, multisets in groups.items():
            for faces in multisets:
                rkey = sum(WEIGHT[f >> 1] for f in faces)
                colours = {f & 1 for f in faces}
                mono = next(iter(colours)) if len(colours) == 1 else -1
                self.by_size[size].append((rkey, mono, faces))
        self.singles = sorted(f for (f,) in groups.get(1, {}))
        self._fits: dict[tuple[int, int], list[tuple[int, int, tuple[int, ...]]]] = {}

    def fits(self, size: int, key: int) -> list[tuple[int, int, tuple[int, ...]]]:
        """The sub-multisets of ``size`` faces that make a valid hand with the tiles of hand
        key ``key``: (hand total, mono colour or -1, faces)."""
        found = self._fits.get((size, key))
        if found is None:
            get = TABLE.get
            found = []
            for rkey, mono, faces in self.by_size[size]:
                v = get(key + rkey)
                if v is not None:
                    found.append((v, mono, faces))
            self._fits[(size, key)] = found
        return found


# The reference order sorts plays by (-total, tiles placed, (square, face) pairs in order).
# That order is folded into one integer: the pairs are digits sq * 28 + face in base _BASE,
# and total and count sit above them. A window's squares and an order's faces are two
# separate sums, so each play's sort code is one addition.
_BASE = SIZE * SIZE * 28
PLACE: list[list[int]] = [[_BASE ** (n - 1 - k) for k in range(n)]
                           for n in range(RACK_SIZE + 1)]
_SPAN: int = _BASE ** RACK_SIZE
_MAX_TOTAL = 1 << 12
# Windows (first, last index) of a lane of n squares that hold 2 to MAX_HAND squares.
WINDOWS = [[(i, j) for i in range(n) for j in range(i + 1, min(i + MAX_HAND, n))]
            for n in range(SIZE + 1)]


def sort_head(total: int, n: int) -> int:
    """The part of a play's sort code set by its total and its number of tiles (add the
    squares' and the faces' codes, by :data:`PLACE`, to finish it)."""
    return ((_MAX_TOTAL - total) * 8 + n) * _SPAN


# An order of faces with its sort code.
_Coded = tuple[int, tuple[int, ...]]


@lru_cache(maxsize=1 << 17)
def orders_of(faces: tuple[int, ...]) -> tuple[list[_Coded], list[list[tuple[int, list[_Coded]]]]]:
    """The distinct orders of a multiset of faces, each with its sort code, and the same
    orders grouped, for each position, by the face they put there."""
    size = len(faces)
    coded = [(sum(f * PLACE[size][k] for k, f in enumerate(order)), order)
             for order in sorted(set(permutations(faces)))]
    by_pos = []
    for k in range(size):
        grouped: dict[int, list[_Coded]] = {}
        for item in coded:
            grouped.setdefault(item[1][k], []).append(item)
        by_pos.append(sorted(grouped.items()))
    return coded, by_pos


@lru_cache(maxsize=65536)
def rack_info(held: tuple[tuple[int, int], ...]) -> RackInfo:
    """The sub-multisets of a rack (as sorted (rank, colour index) pairs), cached."""
    return RackInfo(held)


def _held_key(rack: Iterable[Tile]) -> tuple[tuple[int, int], ...]:
    return tuple(sorted((SIX if t.rank == NINE else t.rank, _COLOUR_INDEX[t.colour])
                        for t in rack))


# ----- the generator -------------------------------------------------------
def _cross(ranks: list[int], colours: list[int], square: Square, direction: str) -> list[int] | None:
    """What each face scores at ``square`` in the line along ``direction`` through it:
    a list indexed by face (INVALID when the line would be no hand), or None when the
    square has no neighbour along ``direction``."""
    before, after = _RAYS[direction][square]
    key = 0
    n = 0
    cols = 0  # bit 0: a dark tile, bit 1: a light tile
    for q in before:
        r = ranks[q]
        if not r:
            break
        key += WEIGHT[r]
        n += 1
        cols |= 1 << colours[q]
    for q in after:
        r = ranks[q]
        if not r:
            break
        key += WEIGHT[r]
        n += 1
        cols |= 1 << colours[q]
    if n == 0:
        return None
    out = [INVALID] * 28
    if n + 1 > MAX_HAND:
        return out
    get = TABLE.get
    for r in range(1, 14):
        v = get(key + WEIGHT[r])
        if v is not None:
            if n + 1 == MAX_HAND and cols != 3:
                # a five-tile line: a flush when the new tile matches the others
                out[r * 2] = v + (BONUS if cols == 1 else 0)
                out[r * 2 + 1] = v + (BONUS if cols == 2 else 0)
            else:
                out[r * 2] = out[r * 2 + 1] = v
    return out


# (sort code, total, squares, faces): sorting raw plays puts them in the reference order.
RawPlay = tuple[int, int, tuple[Square, ...], tuple[int, ...]]


def generate(board: Mapping[Square, Tile], rack: Sequence[Tile],
             rules: RuleSet = RuleSet(), one_span: bool = False,
             use_core: bool = True) -> list[RawPlay]:
    """Every legal play as ``(sort code, total, squares, faces)`` (faces as indexes),
    unsorted; ``sorted()`` puts them best first, in the reference order.

    ``squares`` are increasing; ``faces[i]`` goes on ``squares[i]``. With ``one_span``,
    a first play (empty board) is laid only once per tile sequence, across the centre
    row and centred: where it goes changes neither its score nor what it leaves.
    When the optional C core is built (``NATIVE``), it does the same work for boards
    that are not empty; ``use_core=False`` forces the pure-Python path.
    """
    if board and _core is not None and use_core:
        return _core.generate(*_core_args(board, rack))
    out: list[RawPlay] = []
    _scan(board, rack, rules, one_span, out)
    return out


def best_score(board: Mapping[Square, Tile], rack: Sequence[Tile],
               rules: RuleSet = RuleSet(), use_core: bool = True) -> int | None:
    """The highest total of any legal play, or None when there is none: the maximum of
    :func:`generate`'s totals, found without building the plays (in the C core when it is
    built, else in pure Python; ``use_core=False`` forces the latter)."""
    if board and _core is not None and use_core:
        best = _core.best(*_core_args(board, rack))
    else:
        best = _scan(board, rack, rules, True, None)
    return best if best >= 0 else None


def held_faces(rack: Sequence[Tile]) -> tuple[int, ...]:
    """The rack as held face indexes (a 6/9 tile as its 6), ascending: the order that
    :func:`best_equity`'s leave masks refer to."""
    return tuple(sorted((SIX if t.rank == NINE else t.rank) * 2 + _COLOUR_INDEX[t.colour]
                        for t in rack))


def best_equity(board: Mapping[Square, Tile], rack: Sequence[Tile],
                leaves: Sequence[float]) -> tuple[float, RawPlay] | None:
    """The play with the highest total plus leave value as (equity, raw play), or None when
    there is none, found in the C core without building the other plays. Only for a board
    that is not empty and with the core built (``NATIVE``); else use :func:`generate`.
    ``leaves[mask]`` is the value of
    keeping what is left once the tiles of ``mask`` are played (bit i: the i-th tile of
    :func:`held_faces`). Ties go to the play :func:`generate`'s sort order puts first."""
    if not board or _core is None:
        raise ValueError("best_equity needs the C core and a board that is not empty")
    return _core.best_equity(*_core_args(board, rack), leaves)


def _scan(board: Mapping[Square, Tile], rack: Sequence[Tile], rules: RuleSet,
          one_span: bool, out: list[RawPlay] | None) -> int:
    """The pure-Python generator: appends every legal play to ``out``. With ``out`` None it
    builds nothing and returns the best total instead (-1: no play); otherwise -1."""
    best_only = out is None
    best = -1
    info = rack_info(_held_key(rack))
    nrack = len(rack)
    ranks = [0] * (SIZE * SIZE)
    colours = [0] * (SIZE * SIZE)
    for s, t in board.items():
        ranks[s] = t.rank
        colours[s] = _COLOUR_INDEX[t.colour]
    first = not board
    # Nothing is appended when only the best total is wanted.
    append = (out if out is not None else []).append
    fits = info.fits
    # Cross-check sets, only for the empty squares beside a tile in each direction.
    checks_of: dict[str, list[list[int] | None]] = {}
    for d in (ACROSS, DOWN):
        xc: list[list[int] | None] = [None] * (SIZE * SIZE)
        rays = _RAYS[d]
        for s in board:
            for side in rays[s]:
                if side:
                    q = side[0]
                    if not ranks[q] and xc[q] is None:
                        xc[q] = _cross(ranks, colours, q, d)
        checks_of[d] = xc
    first_bonus = BONUS if first else 0
    five_bonus = 0 if first and rules.reduced_first_bonus else BONUS

    lanes = LANES
    if first and one_span:
        lanes = {ACROSS: [_CENTRE_LANE], DOWN: []}
    for direction, cross_dir in ((ACROSS, DOWN), (DOWN, ACROSS)):
        xc = checks_of[cross_dir]
        for lane in lanes[direction]:
            n = len(lane)
            occ = [ranks[q] for q in lane]
            # prefix counts of occupied squares and of squares that make a window touch
            po = [0] * (n + 1)
            pr = [0] * (n + 1)
            for k in range(n):
                q = lane[k]
                po[k + 1] = po[k] + (1 if occ[k] else 0)
                pr[k + 1] = pr[k] + (1 if occ[k] or xc[q] is not None else 0)
            if not first and not pr[n]:
                continue
            windows = _CENTRED if first and one_span else WINDOWS[n]
            for i, j in windows:
                if (i and occ[i - 1]) or (j + 1 < n and occ[j + 1]):
                    continue
                if not first and pr[j + 1] == pr[i]:
                    continue
                length = j - i + 1
                filled = po[j + 1] - po[i]
                e = length - filled
                if e < 2 or e > nrack:
                    continue
                akey = 0
                acols = 0
                empties: list[Square] = []
                cons: list[tuple[int, list[int]]] = []
                for k in range(i, j + 1):
                    r = occ[k]
                    q = lane[k]
                    if r:
                        akey += WEIGHT[r]
                        acols |= 1 << colours[q]
                    else:
                        c = xc[q]
                        if c is not None:
                            cons.append((len(empties), c))
                        empties.append(q)
                bonus = first_bonus + (five_bonus if e == RACK_SIZE else 0)
                sq = tuple(empties)
                place = PLACE[e]
                sqcode = sum(q * 28 * place[k] for k, q in enumerate(sq))
                flush_ok = length == MAX_HAND and acols != 3
                if cons:
                    k0, c0 = cons[0]
                    rest = cons[1:]
                for v, mono, faceset in fits(e, akey):
                    orders, by_pos = orders_of(faceset)
                    base = v + bonus
                    if flush_ok and mono >= 0 and (acols == 0 or acols == 1 << mono):
                        base += BONUS
                    if not cons:
                        if best_only:
                            if base > best:
                                best = base
                            continue
                        head = sort_head(base, e) + sqcode
                        for code, faces in orders:
                            append((head + code, base, sq, faces))
                        continue
                    for f, group in by_pos[k0]:
                        x0 = c0[f]
                        if x0 < 0:
                            continue
                        t0 = base + x0
                        if not rest:
                            if best_only:
                                if t0 > best:
                                    best = t0
                                continue
                            head = sort_head(t0, e) + sqcode
                            for code, faces in group:
                                append((head + code, t0, sq, faces))
                            continue
                        for code, faces in group:
                            total = t0
                            for k, c in rest:
                                x = c[faces[k]]
                                if x < 0:
                                    break
                                total += x
                            else:
                                if best_only:
                                    if total > best:
                                        best = total
                                else:
                                    append((sort_head(total, e) + sqcode + code, total, sq, faces))
    if first:
        return best
    # Single tiles: both lines through the square count.
    singles = info.singles
    xa, xd = checks_of[ACROSS], checks_of[DOWN]
    seen: set[Square] = set()
    for s in board:
        for q in _NEIGHBOURS[s]:
            if ranks[q] or q in seen:
                continue
            seen.add(q)
            across = xa[q]
            down = xd[q]
            for f in singles:
                x = 0
                if across is not None:
                    x = across[f]
                    if x < 0:
                        continue
                if down is not None:
                    y = down[f]
                    if y < 0:
                        continue
                    x += y
                if best_only:
                    if x > best:
                        best = x
                else:
                    append((sort_head(x, 1) + q * 28 + f, x, (q,), (f,)))
    return best


# ----- the optional C core -------------------------------------------------------
class _Core(Protocol):
    """The C core's functions (typed in ``_fastgen_core.pyi``)."""

    def generate(self, ranks: bytes, colours: bytes, held: bytes, bonus: int, /
                 ) -> list[RawPlay]: ...
    def best(self, ranks: bytes, colours: bytes, held: bytes, bonus: int, /) -> int: ...
    def best_equity(self, ranks: bytes, colours: bytes, held: bytes, bonus: int,
                    leaves: Sequence[float], /) -> tuple[float, RawPlay] | None: ...


def _load_core() -> _Core | None:
    try:  # built by setup.py when a C compiler is there; pure Python otherwise
        from kingscrib.kings import _fastgen_core
    except ImportError:  # pragma: no cover - depends on the build
        return None
    _fastgen_core.init(SIZE * SIZE, LANES[ACROSS], LANES[DOWN], _BASE)
    return _fastgen_core


_core = _load_core()
NATIVE = _core is not None


def _core_args(board: Mapping[Square, Tile], rack: Sequence[Tile]
               ) -> tuple[bytes, bytes, bytes, int]:
    ranks = bytearray(SIZE * SIZE)
    colours = bytearray(SIZE * SIZE)
    for s, t in board.items():
        ranks[s] = t.rank
        colours[s] = _COLOUR_INDEX[t.colour]
    held = bytes((SIX if t.rank == NINE else t.rank) * 2 + _COLOUR_INDEX[t.colour] for t in rack)
    return bytes(ranks), bytes(colours), held, BONUS


_NEIGHBOURS: list[tuple[Square, ...]] = [()] * (SIZE * SIZE)
for _s in PLAYABLE:
    _NEIGHBOURS[_s] = tuple(q for d in (ACROSS, DOWN) for side in _RAYS[d][_s] for q in side[:1])


def to_play(squares: Sequence[Square], faces: Sequence[int]) -> Play:
    """The :class:`Play` of a raw play."""
    return Play(tuple(zip(squares, [face_tile(f) for f in faces])))


class FastScoredPlay(ScoredPlay):
    """A :class:`ScoredPlay` whose total is known at once; its :class:`Play` and its full
    breakdown (by the rules' ``check_play``) are built only when asked for."""

    __slots__ = ("_raw", "_context", "_play", "_score")
    _raw: RawPlay
    _context: tuple[Mapping[Square, Tile], RuleSet]
    _play: Play  # built when first asked for
    _score: PlayScore  # built when first asked for

    def __init__(self, raw: RawPlay, context: tuple[Mapping[Square, Tile], RuleSet]) -> None:
        object.__setattr__(self, "_raw", raw)
        object.__setattr__(self, "_context", context)

    @property
    def play(self) -> Play:
        try:
            return self._play
        except AttributeError:
            play = to_play(self._raw[2], self._raw[3])
            object.__setattr__(self, "_play", play)
            return play

    @property
    def score(self) -> PlayScore:
        try:
            return self._score
        except AttributeError:
            board, rules = self._context
            score = check_play(board, self.play.placed, rules)
            object.__setattr__(self, "_score", score)
            return score

    @property
    def total(self) -> int:
        return self._raw[1]

    @property
    def raw(self) -> RawPlay:
        return self._raw

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ScoredPlay):
            return self.play == other.play and self.total == other.total
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.play, self.total))

    def __repr__(self) -> str:
        return f"FastScoredPlay(play={self.play!r}, total={self.total})"


def legal_plays(board: Mapping[Square, Tile], rack: Sequence[Tile],
                rules: RuleSet = RuleSet()) -> list[ScoredPlay]:
    """Every legal play with its score, each exactly once, best first (as the reference)."""
    raw = generate(board, rack, rules)
    raw.sort()
    context = (dict(board), rules)
    return [FastScoredPlay(r, context) for r in raw]


def best_plays(board: Mapping[Square, Tile], rack: Sequence[Tile],
               rules: RuleSet = RuleSet()) -> list[RawPlay]:
    """Every legal play as raw ``(sort code, total, squares, faces)`` tuples, best first."""
    raw = generate(board, rack, rules)
    raw.sort()
    return raw


def face_tile(face: int) -> Tile:
    tile = FACE_TILE[face]
    assert tile is not None
    return tile


def face_index(tile: Tile) -> int:
    return tile.rank * 2 + _COLOUR_INDEX[tile.colour]


__all__ = ["LANES", "NATIVE", "PLACE", "TABLE", "WEIGHT", "WINDOWS", "FastScoredPlay", "RackInfo",
           "best_equity", "best_plays", "best_score", "face_index", "face_tile", "generate",
           "held_faces", "legal_plays", "rack_info", "sort_head", "to_play"]
