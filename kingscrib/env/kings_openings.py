"""The first play of a Kings game (empty board) for the enumerated encoding, without
building its tens of thousands of plays.

On the empty board a tile sequence scores the same wherever it is laid, so the opening's
plays are every legal sequence (``fastgen.generate(..., one_span=True)`` lays each once)
times every window of its length on the board. Their reference order is the engine's
sort code, ``head(total, tiles) + squares' digits + faces' digits``; so the plays the
cap keeps (:func:`kingscrib.env.kings_actions.keep_best`, or the first ones for
``kings_v0``) can be found from the sequences and the windows alone, building only the
plays that can be kept. The result is the same list, in the same order, as
capping every play; ``tests/test_env_kings_openings.py`` compares them rack by rack.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from itertools import islice

from kingscrib.kings.fastgen import LANES, PLACE, RawPlay, generate, sort_head
from kingscrib.kings.fastgen import WINDOWS as LANE_WINDOWS
from kingscrib.kings.rules import RuleSet
from kingscrib.kings.tiles import Tile

Window = tuple[int, tuple[int, ...]]  # (the squares' digits of the sort code, squares)


def _square_code(squares: Sequence[int]) -> int:
    place = PLACE[len(squares)]
    return sum(q * 28 * place[k] for k, q in enumerate(squares))


def _windows() -> dict[int, list[Window]]:
    """Every window of every lane by length, in sort-code order."""
    out: dict[int, list[Window]] = defaultdict(list)
    for lanes in LANES.values():
        for lane in lanes:
            for i, j in LANE_WINDOWS[len(lane)]:
                squares = tuple(lane[i:j + 1])
                out[len(squares)].append((_square_code(squares), squares))
    for windows in out.values():
        windows.sort()
    return dict(out)


WINDOWS = _windows()


def opening_plays(rack: Sequence[Tile], rules: RuleSet, cap: int,
                  keep: Callable[[list[RawPlay], int], list[RawPlay]] | None
                  ) -> tuple[list[RawPlay], int, Callable[[], list[RawPlay]]]:
    """The opening's plays under the cap (``keep(raw, cap)`` as :func:`keep_best` picks,
    or the first ``cap`` with ``keep=None``), how many plays there are, and a function
    building every play in reference order (for the factored encoding)."""
    # each sequence as (head, faces' digits, total, faces)
    sequences = []
    for code, total, squares, faces in generate({}, rack, rules, one_span=True):
        head = sort_head(total, len(faces))
        sequences.append((head, code - head - _square_code(squares), total, faces))
    sequences.sort()
    count = sum(len(WINDOWS[len(s[3])]) for s in sequences)
    every = EveryOpeningPlay(sequences)
    if count <= cap:
        return every(), count, every
    prefix = _first_plays(sequences, cap)
    if keep is None:
        return prefix, count, every
    # The first play of each sequence is at its first window; keep_best takes, best first,
    # those of distinct leaves, then the other sequences, then the first plays overall.
    firsts = [(head + WINDOWS[len(faces)][0][0] + fc, total, WINDOWS[len(faces)][0][1], faces)
              for head, fc, total, faces in sequences]
    # keep over these plays alone, in reference order, picks what it picks over all of
    # them: every tier's candidates are here, and the last tier needs at most the prefix.
    candidates = sorted({play[0]: play for play in firsts + prefix}.values())
    return keep(candidates, cap), count, every


class EveryOpeningPlay:
    """Builds every play of an opening in reference order, from its tile sequences (a
    class, not a closure, so that an environment holding it pickles)."""

    def __init__(self, sequences: list[tuple[int, int, int, tuple[int, ...]]]) -> None:
        self.sequences = sequences

    def __call__(self) -> list[RawPlay]:
        out = [(head + wc + fc, total, squares, faces)
               for head, fc, total, faces in self.sequences
               for wc, squares in WINDOWS[len(faces)]]
        out.sort()
        return out


def _first_plays(sequences: list, cap: int) -> list[RawPlay]:
    """The first ``cap`` plays in reference order. A sequence's plays are in that order
    when its windows are (its faces are fixed), so merging one lazy stream per sequence
    builds only the plays taken."""
    return list(islice(heapq.merge(*(_laid(*s) for s in sequences)), cap))


def _laid(head: int, fc: int, total: int, faces: tuple[int, ...]) -> Iterator[RawPlay]:
    """A sequence's plays, window by window (so in reference order)."""
    for wc, squares in WINDOWS[len(faces)]:
        yield head + wc + fc, total, squares, faces


__all__ = ["WINDOWS", "opening_plays"]
