"""A slow, obviously-correct reference for Kings Cribbage, written from RULES.md only.

Nothing here imports the engine's rules: hands are scored by trying every
subset, and plays are found by trying every placement of rack tiles on a
stretch of squares and checking each rule of RULES.md "A turn" and
"Scoring a play" directly.

Conventions shared with the engine only as *data*: a square is the integer
``row * 13 + column`` (both from 0), and a tile is any object with ``rank``
(1-13) and ``colour`` (``"L"``/``"D"``) -- the tests pass the engine's
``Tile`` values, and :func:`ref_legal_plays` builds its faces with the
``make_tile`` callable it is given.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from itertools import combinations

SIZE = 13
COLUMNS = "ABCDEFGHIJKLM"
RANK_CHARS = "A23456789TJQK"
BONUS = 10


# ----- the board ---------------------------------------------------------------

def on_board(row: int, column: int) -> bool:
    """13 x 13 less the 3-wide, 2-tall patch at the top left (A1 B1 C1 A2 B2 C2)."""
    if not (0 <= row < SIZE and 0 <= column < SIZE):
        return False
    return not (row <= 1 and column <= 2)


ALL_SQUARES = [r * SIZE + c for r in range(SIZE) for c in range(SIZE) if on_board(r, c)]
SQUARE_SET = frozenset(ALL_SQUARES)
assert len(ALL_SQUARES) == 163


def name(square: int) -> str:
    return f"{COLUMNS[square % SIZE]}{square // SIZE + 1}"


def square(text: str) -> int:
    column = COLUMNS.index(text[0].upper())
    row = int(text[1:]) - 1
    assert on_board(row, column), text
    return row * SIZE + column


def rc(sq: int) -> tuple[int, int]:
    return sq // SIZE, sq % SIZE


# Directions as (d_row, d_column).
ACROSS = (0, 1)
DOWN = (1, 0)


def maximal_line(occ: Mapping[int, object] | set[int], sq: int, d: tuple[int, int]) -> list[int]:
    """The unbroken run of occupied squares through ``sq`` along ``d`` (sq included)."""
    r, c = rc(sq)
    before = []
    rr, cc = r - d[0], c - d[1]
    while on_board(rr, cc) and rr * SIZE + cc in occ:
        before.append(rr * SIZE + cc)
        rr, cc = rr - d[0], cc - d[1]
    after = []
    rr, cc = r + d[0], c + d[1]
    while on_board(rr, cc) and rr * SIZE + cc in occ:
        after.append(rr * SIZE + cc)
        rr, cc = rr + d[0], cc + d[1]
    return before[::-1] + [sq] + after


def orthogonal_neighbours(sq: int) -> list[int]:
    r, c = rc(sq)
    return [(r + dr) * SIZE + (c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if on_board(r + dr, c + dc)]


# ----- hands -------------------------------------------------------------------

def card_points(rank: int) -> int:
    return 10 if rank >= 10 else rank


@cache
def _ref_hand_sorted(ranks: tuple[int, ...]) -> tuple[int, bool, int, int, int]:
    n = len(ranks)
    idx = range(n)
    covered: set[int] = set()
    fifteens = pairs = run_points = 0
    for k in range(1, n + 1):
        for combo in combinations(idx, k):
            if sum(card_points(ranks[i]) for i in combo) == 15:
                fifteens += 2
                covered.update(combo)
    for a, b in combinations(idx, 2):
        if ranks[a] == ranks[b]:
            pairs += 2
            covered.update((a, b))
    for k in range(n, 2, -1):  # the longest run only
        ways = [combo for combo in combinations(idx, k)
                if sorted(ranks[i] for i in combo) == list(range(min(ranks[i] for i in combo),
                                                                 min(ranks[i] for i in combo) + k))]
        if ways:
            run_points = k * len(ways)
            for combo in ways:
                covered.update(combo)
            break
    total = fifteens + pairs + run_points
    valid = 2 <= n <= 5 and covered == set(idx)
    return total, valid, fifteens, pairs, run_points


def ref_hand(ranks: Sequence[int]) -> tuple[int, bool]:
    """(points, valid) of a hand of ranks, found by trying every subset."""
    total, valid, *_ = _ref_hand_sorted(tuple(sorted(ranks)))
    return total, valid


def ref_hand_parts(ranks: Sequence[int]) -> tuple[int, int, int]:
    """(fifteen points, pair points, run points)."""
    _, _, f, p, r = _ref_hand_sorted(tuple(sorted(ranks)))
    return f, p, r


def ranks_of(text: str) -> list[int]:
    """``98799`` / ``9TJJ5`` / ``10`` -> ranks."""
    t = text.upper().replace(" ", "").replace("10", "T")
    return [RANK_CHARS.index(ch) + 1 for ch in t]


# ----- plays -------------------------------------------------------------------

def held(rank: int) -> int:
    """The rank of a tile as held: a 6/9 tile is a 6."""
    return 6 if rank == 9 else rank


def ref_check(board: Mapping[int, object], placed: Mapping[int, object],
              reduced_first_bonus: bool = False) -> int | None:
    """The score of putting ``placed`` on ``board`` (square -> tile), or None if illegal.

    The tiles' presence on the rack is the caller's business.
    """
    k = len(placed)
    if not 1 <= k <= 5:
        return None
    for sq in placed:
        if sq not in SQUARE_SET or sq in board:
            return None
    first = not board
    rows = {rc(s)[0] for s in placed}
    cols = {rc(s)[1] for s in placed}
    if len(rows) == 1:
        d = ACROSS
    elif len(cols) == 1:
        d = DOWN
    else:
        return None  # not in one row or column
    occupied = {**board, **placed}
    # No gaps: every square between the first and last placed tile is filled.
    ordered = sorted(placed, key=lambda s: rc(s))
    r0, c0 = rc(ordered[0])
    r1, c1 = rc(ordered[-1])
    for i in range(max(r1 - r0, c1 - c0) + 1):
        s = (r0 + i * d[0]) * SIZE + (c0 + i * d[1])
        if s not in occupied:
            return None
    if first:
        if not 2 <= k <= 5:
            return None
    else:
        if not any(n in board for s in placed for n in orthogonal_neighbours(s)):
            return None
    # The hands the play forms or extends: the line along the play and the
    # perpendicular line through each placed tile (for one tile: both lines).
    lines: list[tuple[int, ...]] = []
    if k == 1:
        (s,) = placed
        lines = [tuple(maximal_line(occupied, s, ACROSS)), tuple(maximal_line(occupied, s, DOWN))]
    else:
        perp = DOWN if d == ACROSS else ACROSS
        lines.append(tuple(maximal_line(occupied, ordered[0], d)))
        for s in placed:
            lines.append(tuple(maximal_line(occupied, s, perp)))
    hands = [line for line in lines if len(line) >= 2]
    assert len(set(hands)) == len(hands)
    if first:
        # The first play forms one hand: exactly its own tiles.
        assert len(hands) == 1 and set(hands[0]) == set(placed)
    score = 0
    for line in hands:
        if len(line) > 5:
            return None
        value, valid = ref_hand([occupied[s].rank for s in line])
        if not valid:
            return None
        score += value
        if len(line) == 5 and len({occupied[s].colour for s in line}) == 1:
            score += BONUS
    bonuses = 0
    if k == 5:
        bonuses += BONUS
    if first:
        bonuses += BONUS
    if first and k == 5 and reduced_first_bonus:
        bonuses = BONUS
    return score + bonuses


PlayKey = frozenset  # of (square, rank, colour)


def play_key(placed: Mapping[int, object]) -> PlayKey:
    return frozenset((s, t.rank, t.colour) for s, t in placed.items())


def candidate_stretches(board: Mapping[int, object], max_tiles: int) -> list[list[int]]:
    """Every stretch of squares a play may fill, as the list of its empty squares.

    A play's tiles lie in one row or column with every square between the first
    and last filled, so a play is exactly "the empty squares of an interval
    [a, b] of one row or column, a and b empty". After the play that interval
    is unbroken, so it lies within one hand of at most 5 tiles: intervals
    longer than 5 squares can never hold a legal play, and no legal play is
    lost by skipping them. Every candidate is still checked rule by rule.
    """
    found: dict[tuple[int, ...], list[int]] = {}
    for d in (ACROSS, DOWN):
        for s in ALL_SQUARES:
            if s in board:
                continue
            r, c = rc(s)
            for length in range(1, 6):
                rr, cc = r + (length - 1) * d[0], c + (length - 1) * d[1]
                if not on_board(rr, cc):
                    break
                end = rr * SIZE + cc
                if end in board:
                    continue
                squares = [(r + i * d[0]) * SIZE + (c + i * d[1]) for i in range(length)]
                empties = [q for q in squares if q not in board]
                if len(empties) <= max_tiles:
                    found.setdefault(tuple(sorted(empties)), empties)
    return list(found.values())


def ref_legal_plays(board: Mapping[int, object], rack: Sequence[object],
                    make_tile: Callable[[int, str], object],
                    reduced_first_bonus: bool = False) -> dict[PlayKey, int]:
    """Every legal play (as a set of (square, face rank, colour)) with its score.

    Tries every ordered choice of distinct rack tiles, with both faces of each
    6/9 tile, on every candidate stretch (see :func:`candidate_stretches`).
    """
    rack_tiles = [(held(t.rank), t.colour) for t in rack]
    out: dict[PlayKey, int] = {}
    first = not board
    cross_cache: dict[tuple[int, tuple[int, int]], set[int]] = {}

    def cross_allows(s: int, d: tuple[int, int]) -> set[int]:
        # Ranks that may go on s as far as the line across d through s goes. Only a
        # speed-up that loses nothing: that line (when 2+ tiles) is one of the hands
        # of any play along d through s, and it holds no other placed tile.
        key = (s, d)
        if key not in cross_cache:
            perp = DOWN if d == ACROSS else ACROSS
            line = maximal_line(board.keys() | {s}, s, perp)
            others = [board[q].rank for q in line if q != s]
            cross_cache[key] = {r for r in range(1, 14)
                                if len(line) == 1 or (len(line) <= 5 and ref_hand(others + [r])[1])}
        return cross_cache[key]

    for empties in candidate_stretches(board, len(rack_tiles)):
        k = len(empties)
        if first and k < 2:
            continue
        if not first and not any(n in board for s in empties
                                 for n in orthogonal_neighbours(s)):
            continue  # cannot touch: cheap filter, the same test as ref_check's
        if k == 1:
            directions = [ACROSS, DOWN]
        else:
            directions = [ACROSS if rc(empties[0])[0] == rc(empties[-1])[0] else DOWN]
        allowed = [set.intersection(*(cross_allows(s, d) for d in directions)) for s in empties]
        for faces in _fillings(allowed, rack_tiles):
            placed = {s: make_tile(r, col) for s, (r, col) in zip(empties, faces)}
            key = play_key(placed)
            if key in out:
                continue
            score = ref_check(board, placed, reduced_first_bonus)
            if score is not None:
                out[key] = score
    return out


def _fillings(allowed: list[set[int]], rack: list[tuple[int, str]]):
    """Every sequence of faces, one per square, using distinct rack tiles (a 6/9 tile
    as 6 or 9) and respecting ``allowed``."""
    if not allowed:
        yield ()
        return
    tried = set()
    for i, (r, col) in enumerate(rack):
        if (r, col) in tried:
            continue
        tried.add((r, col))
        rest = rack[:i] + rack[i + 1:]
        for face in ((6, 9) if r == 6 else (r,)):
            if face in allowed[0]:
                for more in _fillings(allowed[1:], rest):
                    yield ((face, col),) + more


def rack_allows(rack: Sequence[object], placed_tiles: Iterable[object]) -> bool:
    have = Counter((held(t.rank), t.colour) for t in rack)
    need = Counter((held(t.rank), t.colour) for t in placed_tiles)
    return all(have[k] >= n for k, n in need.items())


def tile_points_held(tile: object) -> int:
    """End-of-game penalty of a tile left on a rack (a 6/9 counts 6)."""
    return card_points(held(tile.rank))


# ----- whole games ---------------------------------------------------------------

class RefTile:
    """A plain tile for the reference replay (rank 1-13, colour L/D)."""

    __slots__ = ("rank", "colour")

    def __init__(self, rank: int, colour: str) -> None:
        self.rank, self.colour = rank, colour

    def __repr__(self) -> str:
        return RANK_CHARS[self.rank - 1] + self.colour


def parse_tile(text: str) -> RefTile:
    t = text.upper().replace("10", "T")
    assert len(t) == 2 and t[1] in "LD", text
    return RefTile(RANK_CHARS.index(t[0]) + 1, t[1])


def full_bag(colours: str = "LD") -> Counter:
    """The set as held: 4 of each rank per colour, the 6/9 tiles (8 per colour) as 6."""
    bag: Counter = Counter()
    for colour in colours:
        for rank in range(1, 14):
            bag[(held(rank), colour)] += 4
    return bag


def can_play_first(rack: Sequence[object]) -> bool:
    """Whether some 2-5 rack tiles (either face of a 6/9) form a valid hand: exactly
    whether a first play exists, as any such hand fits in row 7 from G7... or D7."""
    tiles = [(held(t.rank), t.colour) for t in rack]
    for k in range(2, len(tiles) + 1):
        for combo in combinations(tiles, k):
            options = [[6, 9] if r == 6 else [r] for r, _ in combo]
            for faces in _product(options):
                if ref_hand(faces)[1]:
                    return True
    return False


def _product(options: list[list[int]]):
    if not options:
        yield []
        return
    for x in options[0]:
        for rest in _product(options[1:]):
            yield [x] + rest


class ReplayError(AssertionError):
    pass


def ref_replay(record: dict, has_play: Callable[[dict, list], bool] | None = None) -> dict:
    """Replay a game record by RULES.md alone; raise ReplayError at the first disagreement.

    ``has_play(board, rack)`` says whether a play exists (for the when-stuck option);
    by default the reference enumerator decides. Returns a summary with the final
    scores, the end reason and the penalties.

    Interpretations of RULES.md assumed here (see the tests' module docstrings):
    - "three full rounds in succession in which nobody scored": 3 x players
      consecutive turns that are passes or exchanges (every legal play scores);
    - the Servant: after every ``players`` turns from the start, the lowest
      score; on a tie the current Servant stays if tied, else the first tied
      seat in turn order from the first player;
    - solitaire: seat 0 is Light, seat 1 Dark; "the bag is empty" for going out
      means the player's own bag, for a blocked end both bags.
    """
    rules = {"reduced_first_bonus": False, "exchange": "anytime", "joker": False,
             "servant": False, "solitaire": False, **(record.get("rules") or {})}
    n = len(record["players"])
    if not 2 <= n <= 4:
        raise ReplayError(f"{n} players")
    if rules["solitaire"]:
        if n != 2:
            raise ReplayError("solitaire needs two seats")
        bags = [full_bag("L"), full_bag("D")]
    else:
        bags = [full_bag()]

    def bag_of(seat: int) -> Counter:
        return bags[seat] if rules["solitaire"] else bags[0]

    def bag_size(seat: int) -> int:
        # Seats that never move in the record keep 5 unknown tiles from their bag.
        unknown = sum(5 for s in range(n) if racks[s] is None and bag_of(s) is bag_of(seat))
        return sum(bag_of(seat).values()) - unknown

    def take(seat: int, tiles: Iterable[object], what: str) -> None:
        bag = bag_of(seat)
        for t in tiles:
            key = (held(t.rank), t.colour)
            if bag[key] <= 0:
                raise ReplayError(f"{what}: {t!r} is not in the bag")
            bag[key] -= 1

    turns = record["turns"]
    racks: list[Counter | None] = [None] * n
    board: dict[int, RefTile] = {}
    scores = [0] * n
    first_player = turns[0]["player"] if turns else 0
    draws = record.get("first_draws")
    if draws:
        contenders = list(range(n))
        for rnd in draws:
            if sorted(int(s) for s in rnd) != contenders:
                raise ReplayError("first draws: the wrong seats draw")
            ranks = {int(s): held(parse_tile(t).rank) for s, t in rnd.items()}
            low = min(ranks.values())
            contenders = [s for s in contenders if ranks[s] == low]
        if len(contenders) != 1 or contenders[0] != first_player:
            raise ReplayError("first draws: the first player is not the lowest drawer")
    # Deal: each seat's rack of its first turn (seats that never move: unknown).
    for seat in range(n):
        first_turn = next((t for t in turns if t["player"] == seat), None)
        if first_turn is not None:
            rack = [parse_tile(x) for x in first_turn["rack"]]
            if len(rack) != 5:
                raise ReplayError(f"seat {seat} starts with {len(rack)} tiles")
            take(seat, rack, f"the rack of seat {seat}")
            racks[seat] = Counter((held(t.rank), t.colour) for t in rack)
    seat = first_player
    passes = scoreless = 0
    servant = None
    end = None
    for i, t in enumerate(turns):
        where = f"turn {i + 1}"
        if end is not None:
            raise ReplayError(f"{where}: the game was over ({end})")
        if type(t["player"]) is not int or t["player"] != seat:
            raise ReplayError(f"{where}: it is seat {seat}'s turn")
        rack_tiles = [parse_tile(x) for x in t["rack"]]
        rack = racks[seat]
        if Counter((held(x.rank), x.colour) for x in rack_tiles) != rack:
            raise ReplayError(f"{where}: rack {t['rack']} is not what seat {seat} holds")
        drew = [parse_tile(x) for x in t.get("drew", [])]
        action = t["action"]
        if action == "play":
            placed = {square(s): parse_tile(x) for s, x in t["tiles"].items()}
            if not rack_allows(rack_tiles, placed.values()):
                raise ReplayError(f"{where}: the tiles are not on the rack")
            value = ref_check(board, placed, rules["reduced_first_bonus"])
            if value is None:
                raise ReplayError(f"{where}: illegal play {t['tiles']}")
            if t["score"] != value:
                raise ReplayError(f"{where}: the play scores {value}, not {t['score']}")
            gained, over = value, 0
            if rules["joker"]:
                claimed = t.get("claimed", value)
                if not 0 <= claimed:
                    raise ReplayError(f"{where}: a claim of {claimed}")
                # docs/rules.md: an over-claim scores the true value; the next seat
                # takes the excess.
                gained, over = min(claimed, value), max(0, claimed - value)
                expected = {"player": (seat + 1) % n, "points": over} if over else None
                if t.get("overclaim") != expected or (over and "joker" in t):
                    raise ReplayError(f"{where}: the over-claim is {over}")
            elif "claimed" in t:
                raise ReplayError(f"{where}: a claim without the joker rule")
            board.update(placed)
            rack.subtract(Counter((held(x.rank), x.colour) for x in placed.values()))
            rack = +rack
            need = min(5 - sum(rack.values()), bag_size(seat))
            if len(drew) != need:
                raise ReplayError(f"{where}: draws {len(drew)} tiles, not {need}")
            take(seat, drew, f"{where}: drew")
            rack.update((held(x.rank), x.colour) for x in drew)
            racks[seat] = rack
            scores[seat] += gained
            scores[(seat + 1) % n] += over
            passes = scoreless = 0
            if "joker" in t:
                caller = t["joker"]["caller"]
                if not rules["joker"] or caller == seat or not 0 <= caller < n:
                    raise ReplayError(f"{where}: a Joker call that cannot be")
                missed = value - gained
                points = missed if missed > 0 else -5
                if t["joker"]["points"] != points:
                    raise ReplayError(f"{where}: the Joker call is worth {points}")
                scores[caller] += points
            if not rack:
                end = "out"
        elif action in ("exchange", "pass"):
            if rules["exchange"] == "when-stuck":
                stuck = (not can_play_first(rack_tiles) if not board else
                         not (has_play or _ref_has_play)(board, rack_tiles))
                if not stuck:
                    raise ReplayError(f"{where}: {action} under when-stuck with a play")
            if action == "exchange":
                returned = [parse_tile(x) for x in t["returned"]]
                if not 1 <= len(returned) <= 5 or not rack_allows(rack_tiles, returned):
                    raise ReplayError(f"{where}: cannot return {t['returned']}")
                if bag_size(seat) < len(returned):
                    raise ReplayError(f"{where}: the bag holds fewer than {len(returned)}")
                if len(drew) != len(returned):
                    raise ReplayError(f"{where}: draws {len(drew)} for {len(returned)}")
                take(seat, drew, f"{where}: drew")  # draw first ...
                back = Counter((held(x.rank), x.colour) for x in returned)
                bag_of(seat).update(back)  # ... then return
                rack.update((held(x.rank), x.colour) for x in drew)
                rack.subtract(back)
                racks[seat] = +rack
                passes = 0
            else:
                if drew:
                    raise ReplayError(f"{where}: a pass draws nothing")
                passes += 1
            scoreless += 1
            if "joker" in t:
                raise ReplayError(f"{where}: a Joker call after no play")
        else:
            raise ReplayError(f"{where}: unknown action {action!r}")
        total_in_bags = sum(bag_size(s) for s in range(len(bags)))
        if end is None and total_in_bags == 0 and passes >= n:
            end = "blocked"
        if end is None and total_in_bags > 0 and scoreless >= 3 * n:
            end = "scoreless"
        if rules["servant"] and (i + 1) % n == 0:
            low = min(scores)
            if servant is None or scores[servant] != low:
                order = [(first_player + k) % n for k in range(n)]
                servant = next(s for s in order if scores[s] == low)
            if "servant" in t and t["servant"] != servant:
                raise ReplayError(f"{where}: the Servant is {servant}, not {t['servant']}")
        seat = (seat + 1) % n
    # Every tile accounted for.
    on_racks = sum(sum(r.values()) for r in racks if r is not None)
    if len(board) + on_racks + sum(sum(b.values()) for b in bags) != 104:
        raise ReplayError("tiles lost or made")
    penalties = [sum(card_points(r) * c for (r, _), c in rack.items()) if rack else 0
                 for rack in racks]
    final = [s - p for s, p in zip(scores, penalties)]
    rec_end = record.get("end")
    if end is None:
        if rec_end is not None:
            raise ReplayError("the record ends a game that goes on")
    else:
        if rec_end is None:
            raise ReplayError(f"the game ended ({end}) but the record goes on")
        if (rec_end["reason"], rec_end["penalties"], rec_end["scores"]) != (end, penalties, final):
            raise ReplayError(f"end should be {end} {penalties} {final}, not {rec_end}")
    return {"end": end, "penalties": penalties, "scores": final, "board": board,
            "raw_scores": scores}


def _ref_has_play(board: Mapping[int, object], rack: Sequence[object]) -> bool:
    return bool(ref_legal_plays(board, rack, RefTile))
