"""The human move notation.

A play names the square of its first placed tile, its direction and its
tiles in board order::

    G7 across 7L AD 7D AL     four tiles from G7 to J7
    F7 down 7D (8L) 7L        tiles above and below an 8 already on the board
    H8 3D                     a single tile needs no direction
    G7 across 7A7A            colours may be left out when the rack decides them

A tile is a rank (``A 2-9 T J Q K``, ``10`` for ``T``) and an optional colour
``L``/``D``; spaces between tiles are optional. A 6/9 tile is written with the
face it is placed as, ``6`` or ``9``. Squares already filled inside the span are
written in parentheses and checked against the board. Other turns::

    exchange 7L KD   (or: x 7 K)        pass
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from itertools import permutations

from kingscrib.common import shown
from kingscrib.core import IllegalAction
from kingscrib.counting import parse_rank, rank_char
from kingscrib.kings.board import ACROSS, DOWN, Square, parse_square, square_name, step
from kingscrib.kings.moves import Action, Exchange, Pass, Play
from kingscrib.kings.play import IllegalPlay, check_play, play_direction
from kingscrib.kings.tiles import COLOURS, Tile, held_counts

_DIRECTION_WORDS = {"across": ACROSS, "down": DOWN}
_EXCHANGE_WORDS = {"exchange", "x", "swap"}
_PASS_WORDS = {"pass", "p"}
_TOKEN = re.compile(r"\s*(\(|\)|10|[A2-9TJQK])([LD]?)", re.IGNORECASE)


class NotationError(IllegalAction):
    """Text that cannot be read as a move; the message says why."""


def _tokens(text: str) -> list[tuple[str, str | None]]:
    """Split tile text into (rank-or-paren, colour-or-None)."""
    out: list[tuple[str, str | None]] = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            bad = text[pos:].strip()[:1]
            raise NotationError(
                f"cannot read {shown.quoted(bad)} in {shown.quoted(text)}: tiles are ranks"
                " A 2-9 T J Q K, each optionally followed by L or D"
            )
        token, colour = m.group(1).upper(), m.group(2).upper() or None
        if token in "()" and colour:
            raise NotationError(f"a colour must follow a rank, not {token!r}")
        out.append((token, colour))
        pos = m.end()
        while pos < len(text) and text[pos].isspace():
            pos += 1
    return out


def _reads_as_tiles(word: str) -> bool:
    try:
        _tokens(word)
    except NotationError:
        return False
    return True


class _RackChooser:
    """Resolves tiles written without a colour against the rack.

    Tiles with a colour are taken first. A tile without one takes the only colour of
    its rank left on the rack; when the tiles without a colour use up every tile of
    their rank, both colours are taken and only their order is open
    (:meth:`orders`). Otherwise the colour must be written.
    """

    def __init__(self, rack: Sequence[Tile] | None) -> None:
        self.rack = rack
        self.slots: list[tuple[int, str | None, str]] = []  # rank, colour, what

    def add(self, rank: int, colour: str | None, what: str) -> None:
        self.slots.append((rank, colour, what))

    def orders(self) -> list[list[Tile]]:
        """Every way to give the slots tiles from the rack (one unless only order is open)."""
        chosen: list[Tile | None] = [None] * len(self.slots)
        if self.rack is None:
            for i, (rank, colour, what) in enumerate(self.slots):
                if colour is None:
                    raise NotationError(f"{what}: write its colour, e.g. {rank_char(rank)}L")
                chosen[i] = Tile(rank, colour)
            return [[t for t in chosen if t is not None]]
        left = held_counts(self.rack)
        for i, (rank, colour, what) in enumerate(self.slots):
            if colour is not None:
                tile = Tile(rank, colour)
                if left[tile.held()] <= 0:
                    raise NotationError(f"{what}: {tile} is not on your rack")
                left[tile.held()] -= 1
                chosen[i] = tile
        open_groups: dict[Tile, list[int]] = {}
        for i, (rank, colour, _) in enumerate(self.slots):
            if colour is None:
                open_groups.setdefault(Tile(rank, "L").held(), []).append(i)
        free: list[tuple[list[int], list[str]]] = []
        for key, slots in open_groups.items():
            rank, what = self.slots[slots[0]][0], self.slots[slots[0]][2]
            counts = {c: left[Tile(key.rank, c)] for c in COLOURS}
            have = sum(counts.values())
            if have < len(slots):
                r = rank_char(rank)
                raise NotationError(f"{what}: there is no {r} left on your rack" if have == 0
                                    else f"{what}: your rack has only {have} {r}")
            colours = [c for c in COLOURS if counts[c] > 0]
            if len(colours) == 1:
                for i in slots:
                    chosen[i] = Tile(self.slots[i][0], colours[0])
            elif have == len(slots):  # every tile of the rank is used: only order is open
                free.append((slots, [c for c in COLOURS for _ in range(counts[c])]))
            else:
                r = rank_char(rank)
                raise NotationError(
                    f"{what}: your rack has both {r}L and {r}D; write which, e.g. {r}L")
        options: list[list[Tile | None]] = [list(chosen)]
        for slots, colours in free:
            grown = []
            for option in options:
                for order in sorted(set(permutations(colours))):
                    filled = list(option)
                    for i, c in zip(slots, order):
                        filled[i] = Tile(self.slots[i][0], c)
                    grown.append(filled)
            options = grown
        return [[t for t in option if t is not None] for option in options]


def parse_play(text: str, board: Mapping[Square, Tile],
               rack: Sequence[Tile] | None = None) -> Play:
    """Read ``G7 across 7A7A`` against the board (and the rack, to fill in colours)."""
    words = text.split(None, 2)
    if not words:
        raise NotationError("empty move: write e.g. G7 across 7L 8D, exchange 7L, or pass")
    try:
        start = parse_square(words[0])
    except ValueError as e:
        raise NotationError(str(e)) from None
    rest = text.split(None, 1)[1] if len(words) > 1 else ""
    direction = None
    if len(words) > 1 and words[1].lower() in _DIRECTION_WORDS:
        direction = _DIRECTION_WORDS[words[1].lower()]
        rest = words[2] if len(words) > 2 else ""
    elif len(words) > 1 and words[1].isalpha() and not _reads_as_tiles(words[1]):
        raise NotationError(f"expected 'across' or 'down' (or tiles) after the square"
                            f" {words[0].upper()}, got {shown.quoted(words[1])}")
    tokens = _tokens(rest)
    if not tokens:
        raise NotationError(f"no tiles after {words[0].upper()}: write e.g. G7 across 7L 8D")
    chooser = _RackChooser(rack)
    squares: list[Square] = []
    square: Square | None = start
    inside = False
    count = sum(1 for t, _ in tokens if t not in "()")
    if count > 1 and direction is None:
        raise NotationError("several tiles need a direction: write across or down after the square")
    direction = direction or ACROSS
    for token, colour in tokens:
        if token == "(":
            if inside:
                raise NotationError("parentheses cannot nest")
            inside = True
            continue
        if token == ")":
            if not inside:
                raise NotationError("a ')' without its '('")
            inside = False
            continue
        if square is None:
            raise NotationError("the play runs off the edge of the board")
        rank = parse_rank(token)
        where = square_name(square)
        if inside:
            on_board = board.get(square)
            if on_board is None:
                raise NotationError(f"{where} is empty, but the move says a tile is there")
            if on_board.rank != rank or (colour and on_board.colour != colour):
                raise NotationError(f"{where} holds {on_board}, not {token}{colour or ''}")
        else:
            if square in board:
                raise NotationError(
                    f"{where} already holds {board[square]}: write it in parentheses,"
                    f" e.g. ({board[square]})"
                )
            squares.append(square)
            chooser.add(rank, colour, f"the tile for {where}")
        square = step(square, direction)
    if inside:
        raise NotationError("a '(' without its ')'")
    if not squares:
        raise NotationError("the move places no tile")
    return _choose_order(board, squares, chooser.orders())


def _choose_order(board: Mapping[Square, Tile], squares: list[Square],
                  orders: list[list[Tile]]) -> Play:
    """The play when the colours of some tiles are open only in their order: any legal
    order when they all score alike, else the colours must be written."""
    plays = [Play.of(dict(zip(squares, tiles))) for tiles in orders]
    if len(plays) == 1:
        return plays[0]
    scores = {}
    for play in plays:
        try:
            scores[play] = check_play(board, play.placed).total
        except IllegalPlay:
            continue
    if len(set(scores.values())) > 1:
        raise NotationError("the colours of the tiles change the score here: write which"
                            " goes where, e.g. 8L 8D")
    return next(iter(scores), plays[0])


def parse_exchange(text: str, rack: Sequence[Tile] | None = None) -> Exchange:
    """Read ``exchange 7L KD`` (colours optional when the rack decides them)."""
    words = text.split(None, 1)
    tokens = _tokens(words[1] if len(words) > 1 else "")
    if not tokens:
        raise NotationError("name the tiles to exchange, e.g. exchange 7L KD")
    chooser = _RackChooser(rack)
    for token, colour in tokens:
        if token in "()":
            raise NotationError("an exchange lists rack tiles only, without parentheses")
        chooser.add(parse_rank(token), colour, f"exchanging {token}")
    # The order of the tiles returned to the bag does not matter: any will do.
    return Exchange.of([t.held() for t in chooser.orders()[0]])


def parse_action(text: str, board: Mapping[Square, Tile],
                 rack: Sequence[Tile] | None = None) -> Action:
    """Read any turn: a play, ``exchange ...`` or ``pass``."""
    first = text.strip().split(None, 1)[0].lower() if text.strip() else ""
    if first in _PASS_WORDS and len(text.split()) == 1:
        return Pass()
    if first in _EXCHANGE_WORDS:
        return parse_exchange(text, rack)
    return parse_play(text, board, rack)


def format_play(play: Play, board: Mapping[Square, Tile]) -> str:
    """The canonical notation of a play, e.g. ``F7 down 7D (8L) 7L``."""
    squares = [s for s, _ in play.tiles]
    placed = play.placed
    if len(squares) == 1:
        return f"{square_name(squares[0])} {placed[squares[0]]}"
    direction = play_direction(squares)
    parts = []
    square: Square | None = squares[0]
    while square is not None:
        if square in placed:
            parts.append(str(placed[square]))
        elif square in board:
            parts.append(f"({board[square]})")
        else:
            raise ValueError("the play has a gap")
        if square == squares[-1]:
            break
        square = step(square, direction)
    return f"{square_name(squares[0])} {direction} {' '.join(parts)}"


def format_action(action: Action, board: Mapping[Square, Tile]) -> str:
    if isinstance(action, Play):
        return format_play(action, board)
    if isinstance(action, Exchange):
        return "exchange " + " ".join(str(t) for t in action.tiles)
    return "pass"
