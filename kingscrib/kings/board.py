"""The board's geometry: the only place that knows it is 13 x 13 less a corner.

Squares are numbered ``row * SIZE + column`` from 0 and named column letter
then row number: ``A1`` top left, ``G7`` the centre, ``M13`` bottom right.
The 3-wide, 2-tall patch at the top left (A1 B1 C1 A2 B2 C2) is not part of
the board.
"""

from __future__ import annotations

from collections.abc import Container, Iterator

SIZE = 13
PATCH_COLUMNS = 3
PATCH_ROWS = 2
COLUMN_LETTERS = "ABCDEFGHIJKLM"
CENTRE = (SIZE // 2) * SIZE + SIZE // 2

Square = int
ACROSS, DOWN = "across", "down"
DIRECTIONS = (ACROSS, DOWN)
_STEP = {ACROSS: 1, DOWN: SIZE}


def row_of(square: Square) -> int:
    return square // SIZE


def column_of(square: Square) -> int:
    return square % SIZE


def is_playable(row: int, column: int) -> bool:
    """Whether (row, column), counted from 0, is a square of the board."""
    if not (0 <= row < SIZE and 0 <= column < SIZE):
        return False
    return not (row < PATCH_ROWS and column < PATCH_COLUMNS)


PLAYABLE: frozenset[Square] = frozenset(
    r * SIZE + c for r in range(SIZE) for c in range(SIZE) if is_playable(r, c)
)


def square_name(square: Square) -> str:
    if 0 <= square < SIZE * SIZE:
        return _SQUARE_NAMES[square]  # one string a square, shared by every game's turns
    return f"{COLUMN_LETTERS[column_of(square)]}{row_of(square) + 1}"


_SQUARE_NAMES = tuple(f"{COLUMN_LETTERS[s % SIZE]}{s // SIZE + 1}" for s in range(SIZE * SIZE))


def parse_square(text: str) -> Square:
    """Read a square name such as ``G7`` (case-insensitive)."""
    t = str(text).strip().upper()
    if len(t) < 2 or t[0] not in COLUMN_LETTERS or not t[1:].isdigit():
        raise ValueError(f"{text!r} is not a square: write a column A-M then a row 1-13, e.g. G7")
    row, column = int(t[1:]) - 1, COLUMN_LETTERS.index(t[0])
    if not 0 <= row < SIZE:
        raise ValueError(f"{text!r} is not a square: rows run from 1 to {SIZE}")
    if not is_playable(row, column):
        raise ValueError(f"{t} is in the corner patch, which is not part of the board")
    return row * SIZE + column


def step(square: Square, direction: str, count: int = 1) -> Square | None:
    """The square ``count`` steps further along ``direction`` (negative: back), or None."""
    if direction == ACROSS:
        row, column = row_of(square), column_of(square) + count
    else:
        row, column = row_of(square) + count, column_of(square)
    return row * SIZE + column if is_playable(row, column) else None


def other(direction: str) -> str:
    return DOWN if direction == ACROSS else ACROSS


def neighbours(square: Square) -> Iterator[Square]:
    """The orthogonal neighbours of a square that are on the board."""
    for direction in DIRECTIONS:
        for delta in (-1, 1):
            n = step(square, direction, delta)
            if n is not None:
                yield n


def lines(direction: str) -> list[list[Square]]:
    """Every maximal stretch of playable squares along ``direction`` (rows or columns)."""
    found: list[list[Square]] = []
    for fixed in range(SIZE):
        stretch: list[Square] = []
        for moving in range(SIZE):
            row, column = (fixed, moving) if direction == ACROSS else (moving, fixed)
            if is_playable(row, column):
                stretch.append(row * SIZE + column)
            elif stretch:
                found.append(stretch)
                stretch = []
        if stretch:
            found.append(stretch)
    return found


def line_through(occupied: Container[Square], square: Square,
                 direction: str) -> list[Square]:
    """The unbroken run of occupied squares through ``square`` along ``direction``.

    ``square`` itself is included whether occupied or not.
    """
    before: list[Square] = []
    s = step(square, direction, -1)
    while s is not None and s in occupied:
        before.append(s)
        s = step(s, direction, -1)
    after: list[Square] = []
    s = step(square, direction, 1)
    while s is not None and s in occupied:
        after.append(s)
        s = step(s, direction, 1)
    return before[::-1] + [square] + after
