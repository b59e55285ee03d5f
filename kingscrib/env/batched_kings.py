"""Many Kings Cribbage games stepped at once, compiled with Numba.

>>> from kingscrib.env.batched_kings import BatchedKings
>>> env = BatchedKings(batch_size=4, seed=1)
>>> obs, mask = env.reset()
>>> obs.shape, mask.shape, mask[:, 0].tolist()   # index 0, pass, is always legal
((4, 2619), (4, 2080), [1, 1, 1, 1])
>>> step = env.step(env.random_actions())
>>> step.rewards.shape, step.done.shape
((4, 2), (4,))

The game is ``kings_v1``'s (the engine's rules, :mod:`kingscrib.kings.game`) under the
standard rule set (exchange any time, no joker, servant or solitaire), for 2 to 4 seats:
the bag of 104 tiles, racks of five, the first play of two or more tiles, every later
play touching the board, each line it makes or extends a valid hand of two to five
tiles (fifteens, pairs, runs, a five-tile flush), the first-play and five-tile bonuses,
exchanges while the bag holds enough tiles, passes, and the end: a seat out of tiles,
every seat passing with the bag empty, or three scoreless rounds, with the tiles left on
the racks taken off the scores. ``tests/env/test_env_batched_kings.py`` plays hundreds
of random games side by side with ``kings_v1`` on the same bags and requires the same
seat to act, mask, play behind every index, flat observation, points and rewards at
every step.

The actions are ``kings_v1``'s enumerated encoding, ``Discrete(2080)``: 0 pass, 1-31 the
distinct exchanges of the sorted rack, 32 onwards the legal plays in the engine's
reference order (best first), past 2,048 plays capped as ``kings_v1`` caps them
(:func:`kingscrib.env.kings_actions.keep_best`: the best play of every leave, then of
every tile sequence, then the best others). The observation is the seat to act's
``kings_v1`` observation (without ``features``) flattened as
:class:`kingscrib.env.flat.FlatObservation` does: 2,619 int16. The legal plays are
generated in the kernel, as :func:`kingscrib.kings.fastgen.generate` finds them (hand
table, cross-checks, lanes and windows), with what carries from turn to turn kept: each
game's cross-checks (what every face scores across each empty square) are refreshed
after a play only at the ends of the lines it touched, with each lane's tiles and
touched squares as bits; a lane's windows come from a table by its pattern of tiles;
and each multiset of the rack that makes a hand in a window is laid there in each of
its distinct orders (built once a turn) whose faces fit the squares the window
crosses. A turn past the cap keeps its plays by selection, not a sort. An opening's plays (up to
some 76,000) are not all built: on the empty board a tile sequence scores the same in
every window, so only the plays the cap can keep are.

Each game of the batch keeps its own random stream (xorshift64*, seeded from ``seed``
and its slot) for the first player, the bag's shuffles and ``random_actions``;
``reset(bags=...)`` gives the bags instead. ``step(actions)`` applies one action in
every game and returns :class:`BatchStep`: the next observation and mask (of the seat to
act then), the rewards of every seat (+1 to a sole winner and -1 to the others when a
game ends, ``2/k - 1`` to each of ``k`` tied winners; -1 to the offender and 0 to the
others for an illegal action, which ends that game as in ``kings_v1``), the points each
seat's final score moved by in the step (the rack penalties in the last step), and
``done``. A finished game starts again at once (``final_scores`` keeps how it ended).

As in :mod:`kingscrib.env.batched_cribbage`, ``reset()``, ``step()`` and
``random_actions()`` return copies by default; ``copy=False`` returns the environment's
own arrays, which the next ``step()`` overwrites in place.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from kingscrib.env.batched_random import below, random_actions, seed_streams
from kingscrib.env.flat import flat_keys
from kingscrib.env.kings import HISTORY
from kingscrib.env.kings import observation_space as kings_observation_space
from kingscrib.env.kings_actions import ACTIONS, FIRST_PLAY, MAX_PLAYS
from kingscrib.env.kings_openings import WINDOWS as OPENING_WINDOWS
from kingscrib.kings.board import ACROSS, DOWN, PLAYABLE, SIZE
from kingscrib.kings.fastgen import LANES, TABLE, WEIGHT
from kingscrib.kings.game import MAX_PLAYERS, SCORELESS_ROUNDS
from kingscrib.kings.play import BONUS
from kingscrib.kings.tiles import RACK_SIZE, full_set

SQUARES = SIZE * SIZE
TILES = 104
_KEYS = flat_keys(kings_observation_space(2))
OBSERVATION_SIZE = max(part.stop for part in _KEYS.values())
O_BAG = _KEYS["bag"].start
O_BOARD = _KEYS["board"].start
O_GAME = _KEYS["game"].start
O_HISTORY = _KEYS["history"].start
O_RACK = _KEYS["rack"].start
O_RACK_SIZES = _KEYS["rack_sizes"].start
O_SCORES = _KEYS["scores"].start
O_UNSEEN = _KEYS["unseen"].start
PLAY_CODE, EXCHANGE_CODE, PASS_CODE = 1, 2, 3
SCRATCH = 1 << 19  # plays of one turn the kernel can hold before the cap (76,068 measured)

# ----- tables the kernels read -----------------------------------------------------------
# A face is rank * 2 + colour (colour 0 dark, 1 light), as in kingscrib.kings.fastgen; a
# tile on a rack or in the bag is its face as held (a 6/9 tile as its six).
_WEIGHT = np.array(WEIGHT, np.int64)
_HASH_BITS = 14  # 2,183 valid hands in 16,384 slots: a miss probes little more than one
_HASH_SIZE = 1 << _HASH_BITS
_HASH_FACTOR = 0x9E3779B97F4A7C15  # (Fibonacci hashing)
_HASH_FACTOR_SIGNED = _HASH_FACTOR - (1 << 64)  # the same bits as an int64


def _hash_top(key: int, bits: int) -> int:
    """The top ``bits`` bits of a hand key times the hash's constant (modulo 2**64),
    as ``_hand`` computes them."""
    return ((key * _HASH_FACTOR) % (1 << 64)) >> (64 - bits)


def _hand_hash() -> tuple[np.ndarray, np.ndarray]:
    """The valid hands' table (hand key -> total) as an open-addressing hash, its slot
    the top bits of the key times a 64-bit odd constant (as ``_hand`` finds it)."""
    keys = np.full(_HASH_SIZE, -1, np.int64)
    values = np.full(_HASH_SIZE, -1, np.int64)
    for key, total in TABLE.items():
        h = _hash_top(key, _HASH_BITS)
        while keys[h] >= 0:
            h = (h + 1) % _HASH_SIZE
        keys[h], values[h] = key, total
    return keys, values


_HASH_KEYS, _HASH_VALUES = _hand_hash()
_FILTER_BITS = 16  # a bit per 2**16 hash values, set where a valid hand's lies


def _hand_filter() -> np.ndarray:
    """A bit set of the valid hands' hash values (the top 16 bits of the key times the
    hash's constant): a key whose bit is clear is no hand, found in 8 kB that stay in
    the cache (most keys tried are no hand)."""
    bits = np.zeros(1 << (_FILTER_BITS - 6), np.uint64)
    for key in TABLE:
        h = _hash_top(key, _FILTER_BITS)
        bits[h >> 6] |= np.uint64(1) << np.uint64(h & 63)
    return bits.view(np.int64)


_HASH_FILTER = _hand_filter()
# what each face scores beside one tile of each rank (-1: no hand), laid out as a row of
# cross-scores is, and the faces that make a hand there
_PAIR_ROWS = np.full((14, 32), -1, np.int8)
for _r in range(1, 14):
    for _f in range(2, 28):
        _PAIR_ROWS[_r, _f] = TABLE.get(WEIGHT[_r] + WEIGHT[_f >> 1], -1)
_PAIR_MASKS = np.array([sum(1 << f for f in range(28) if _PAIR_ROWS[r, f] >= 0)
                        for r in range(14)], np.int64)


def _lanes() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    lanes = [(0, lane) for lane in LANES[ACROSS]] + [(1, lane) for lane in LANES[DOWN]]
    squares = np.full((len(lanes), SIZE), -1, np.int64)
    for i, (_, lane) in enumerate(lanes):
        squares[i, :len(lane)] = lane
    return (squares, np.array([len(lane) for _, lane in lanes], np.int64),
            np.array([d for d, _ in lanes], np.int64))


_LANE_SQUARES, _LANE_LENGTH, _LANE_DIRECTION = _lanes()


def _lane_of() -> np.ndarray:
    """lane_of[d, square]: the lane along direction d through the square (-1: none) and
    the square's place in it, as ``lane << 4 | place``."""
    lane_of = np.full((2, SQUARES), -1, np.int64)
    for li in range(len(_LANE_LENGTH)):
        for k in range(_LANE_LENGTH[li]):
            lane_of[_LANE_DIRECTION[li], _LANE_SQUARES[li, k]] = li << 4 | k
    return lane_of


_LANE_OF = _lane_of()

def _rays() -> np.ndarray:
    """rays[d, square, side, k]: the k-th square from ``square`` along direction d (0
    across, 1 down), before (side 0) or after (side 1) it, -1 past the edge."""
    rays = np.full((2, SQUARES, 2, 5), -1, np.int64)
    for d in (0, 1):
        for s in PLAYABLE:
            for side, sign in ((0, -1), (1, 1)):
                q = s
                for k in range(5):
                    row, column = divmod(q, SIZE)
                    row, column = (row, column + sign) if d == 0 else (row + sign, column)
                    if not (0 <= row < SIZE and 0 <= column < SIZE) or \
                            row * SIZE + column not in PLAYABLE:
                        break
                    q = row * SIZE + column
                    rays[d, s, side, k] = q
    return rays


_RAYS = _rays()


def _opening_windows() -> tuple[np.ndarray, np.ndarray]:
    """Each window length's first squares and directions, in the reference order."""
    first = np.zeros((6, 300), np.int64)
    direction = np.zeros((6, 300), np.int64)
    count = np.zeros(6, np.int64)
    for length, windows in OPENING_WINDOWS.items():
        for k, (_, squares) in enumerate(windows):
            first[length, k] = squares[0]
            direction[length, k] = 0 if squares[1] - squares[0] == 1 else 1
        count[length] = len(windows)
    return np.stack([first, direction]), count


_WINDOWS, _WINDOW_COUNT = _opening_windows()
_FULL = np.array(sorted(t.rank * 2 + (1 if t.colour == "L" else 0) for t in full_set()),
                 np.int64)
assert len(_FULL) == TILES
_ALL_TILES = np.bincount(_FULL, minlength=28).astype(np.int64)  # of each face as held


# ----- the reference order in one integer ------------------------------------------------
# The engine orders plays by total (highest first), tiles placed (fewest first), then the
# (square, face) pairs in order. A play's squares lie on one line, so after the first
# square the squares are told apart by the direction and each one's offset (1 to 4) from
# the first: the key below sorts exactly as the engine's sort code, in 59 bits.
@njit(cache=True)
def _key(total, n, squares, faces, direction):
    key = np.int64((1023 - total) * 8 + n) << np.int64(46)
    key |= np.int64(squares[0]) << np.int64(38)
    key |= np.int64(faces[0]) << np.int64(33)
    if n > 1:
        key |= np.int64(direction) << np.int64(32)
        step = 1 if direction == 0 else SIZE
        for k in range(1, n):
            shift = 24 - 8 * (k - 1)
            key |= np.int64((squares[k] - squares[0]) // step) << np.int64(shift + 5)
            key |= np.int64(faces[k]) << np.int64(shift)
    return key


@njit(cache=True)
def _decode(key, squares, faces):
    """The squares and faces of a play key; returns (tiles placed, total)."""
    head = key >> np.int64(46)
    n = head & 7
    total = 1023 - (head >> 3)
    squares[0] = (key >> np.int64(38)) & 255
    faces[0] = (key >> np.int64(33)) & 31
    step = 1 if (key >> np.int64(32)) & 1 == 0 else SIZE
    for k in range(1, n):
        shift = 24 - 8 * (k - 1)
        squares[k] = squares[0] + ((key >> np.int64(shift + 5)) & 7) * step
        faces[k] = (key >> np.int64(shift)) & 31
    return n, total


@njit(cache=True)
def _hand(key):
    """The total of a valid hand (its key: a weight per rank), -1 for no valid hand."""
    top = (key * np.int64(_HASH_FACTOR_SIGNED)) >> np.int64(64 - _FILTER_BITS) & (
        (1 << _FILTER_BITS) - 1)
    if not (_HASH_FILTER[top >> 6] >> (top & 63)) & 1:
        return -1
    h = top >> (_FILTER_BITS - _HASH_BITS)  # the slot: the top _HASH_BITS bits
    while True:
        k = _HASH_KEYS[h]
        if k == key:
            return _HASH_VALUES[h]
        if k < 0:
            return -1
        h = (h + 1) & (_HASH_SIZE - 1)


# ----- the rack's tile sequences ---------------------------------------------------------
@njit(cache=True)
def _rack_tiles(held, nrack):
    """A sorted rack's distinct tiles (5 bits a face) and their copies (4 bits a count),
    packed in integers (no allocation); returns (how many distinct, distinct, copies,
    leaves: the ways to take some of each, none included)."""
    nd = 0
    distinct = np.int64(0)
    copies = np.int64(0)
    for i in range(nrack):
        if i and held[i] == held[i - 1]:
            copies += np.int64(1) << (4 * (nd - 1))
        else:
            distinct |= np.int64(held[i]) << (5 * nd)
            copies |= np.int64(1) << (4 * nd)
            nd += 1
    n_leaves = np.int64(1)
    for d in range(nd):
        n_leaves *= ((copies >> (4 * d)) & 15) + 1
    return nd, distinct, copies, n_leaves


@njit(cache=True)
def _next_take(take, size, copies):
    """The next leave after ``take`` (what it takes of each distinct tile, 4 bits a tile,
    counted up like an odometer, the first tile's digit least significant) and its size."""
    d = 0
    while (take >> (4 * d)) & 15 == (copies >> (4 * d)) & 15:  # carry
        size -= (take >> (4 * d)) & 15
        take &= ~(np.int64(15) << (4 * d))
        d += 1
    return take + (np.int64(1) << (4 * d)), size + 1


@njit(cache=True)
def _splits(take, distinct, nd):
    """How many ways a leave's 6/9 tiles can be laid (each one as a six or a nine)."""
    splits = 1
    for d in range(nd):
        if ((distinct >> (5 * d)) & 31) >> 1 == 6:
            splits *= ((take >> (4 * d)) & 15) + 1
    return splits


@njit(cache=True)
def _sequences(held, nrack, seq_faces, seq_length, seq_set, set_size, set_rkey, set_mono,
               set_leave, set_first, set_count, size_start):
    """Every distinct sequence of faces the rack can lay (a 6/9 tile as 6 or 9), grouped
    by multiset: the multisets by size (those of size e from ``size_start[e]`` to
    ``size_start[e + 1]``), each one's sequences together, in lexicographic order. A
    multiset's leave is what it takes off the rack, numbered by how many of each distinct
    tile it takes. Returns (sequences, multisets, leaves). (The opening's: a later turn
    needs only the multisets, ``_multisets``.)"""
    nd, distinct, copies, n_leaves = _rack_tiles(held, nrack)
    take = np.empty(5, np.int64)
    nines = np.empty(5, np.int64)
    faces = np.empty(5, np.int64)
    n_sets = 0
    n_seq = 0
    for e in range(1, 6):
        size_start[e] = n_sets
        taken, size = np.int64(0), 0
        for leave in range(1, n_leaves):
            taken, size = _next_take(taken, size, copies)
            if size != e:
                continue
            for d in range(nd):
                take[d] = (taken >> (4 * d)) & 15
            for split in range(_splits(taken, distinct, nd)):  # how many are laid as nines
                rest = split
                for d in range(nd):
                    nines[d] = 0
                    if ((distinct >> (5 * d)) & 31) >> 1 == 6:
                        nines[d] = rest % (take[d] + 1)
                        rest //= take[d] + 1
                m = 0
                for d in range(nd):
                    for c in range(take[d]):
                        faces[m] = ((distinct >> (5 * d)) & 31) + (6 if c < nines[d] else 0)
                        m += 1
                for i in range(1, m):  # ascending
                    x = faces[i]
                    j = i - 1
                    while j >= 0 and faces[j] > x:
                        faces[j + 1] = faces[j]
                        j -= 1
                    faces[j + 1] = x
                st = n_sets
                n_sets += 1
                set_size[st] = m
                rkey = np.int64(0)
                colours = 0
                for k in range(m):
                    rkey += _WEIGHT[faces[k] >> 1]
                    colours |= 1 << (faces[k] & 1)
                set_rkey[st] = rkey
                set_mono[st] = -1 if colours == 3 else (0 if colours == 1 else 1)
                set_leave[st] = leave
                set_first[st] = n_seq
                while True:  # the distinct orders, by next permutation
                    for k in range(m):
                        seq_faces[n_seq, k] = faces[k]
                    seq_length[n_seq] = m
                    seq_set[n_seq] = st
                    n_seq += 1
                    i = m - 2
                    while i >= 0 and faces[i] >= faces[i + 1]:
                        i -= 1
                    if i < 0:
                        break
                    j = m - 1
                    while faces[j] <= faces[i]:
                        j -= 1
                    faces[i], faces[j] = faces[j], faces[i]
                    lo, hi = i + 1, m - 1
                    while lo < hi:
                        faces[lo], faces[hi] = faces[hi], faces[lo]
                        lo += 1
                        hi -= 1
                set_count[st] = n_seq - set_first[st]
    size_start[6] = n_sets
    return n_seq, n_sets, n_leaves


# ----- legal plays -----------------------------------------------------------------------
@njit(cache=True)
def _opening_sequences(nrack, seqs, keys, seq_of):
    """The first turn's plays of every sequence of two or more tiles, each laid once,
    centred on the centre row (on the empty board a sequence scores the same in every
    window of its length: ``_opening`` lays the others), as keys, with the sequence
    each lays; returns how many."""
    (seq_faces, seq_length, seq_set, set_size, set_rkey, set_mono, set_leave, set_first,
     set_count, n_seq, n_sets, size_start) = seqs
    count = 0
    squares = np.empty(5, np.int64)
    row = (SIZE // 2) * SIZE
    for e in range(2, min(nrack, RACK_SIZE) + 1):
        i = (SIZE - e) // 2
        for k in range(e):
            squares[k] = row + i + k
        bonus = BONUS + (BONUS if e == RACK_SIZE else 0)  # the first play's, the five's
        for st in range(size_start[e], size_start[e + 1]):
            v = _hand(set_rkey[st])
            if v < 0:
                continue
            total = v + bonus + (BONUS if e == 5 and set_mono[st] >= 0 else 0)  # a flush
            for sq in range(set_first[st], set_first[st] + set_count[st]):
                keys[count] = _key(total, e, squares, seq_faces[sq], 0)
                seq_of[count] = sq
                count += 1
    return count


@njit(cache=True)
def _faces_code(faces, n):
    code = np.int64(0)
    for k in range(5):
        code = code * 32 + (faces[k] if k < n else 0)
    return code


@njit(cache=True)
def _window_bits(length, w):
    """A play key's bits of the first square and direction of opening window ``w`` of
    ``length`` squares."""
    return (_WINDOWS[0, length, w] << np.int64(38)) | (_WINDOWS[1, length, w] << np.int64(32))


@njit(cache=True)
def _opening(nrack, seqs, keys, seq_of, cap, kept):
    """The first turn's plays as kings_v1 keeps them, written to ``kept`` (in no order:
    ``_kth`` finds the one chosen), without building every play: returns (plays kept,
    plays in all).

    On the empty board a sequence scores the same in every window of its length, so the
    plays of one (total, tiles) group come in reference order window by window (first
    square, then the first face, then across before down, then the other faces): the
    first ``cap`` plays are laid out in order, group after group, with no sort. The cap
    then keeps, as ``kings_actions.keep_best`` does, the best play of every leave and of every
    sequence (each one's first window) and the first plays."""
    seq_faces, seq_length, seq_set, set_leave = seqs[0], seqs[1], seqs[2], seqs[6]
    n = _opening_sequences(nrack, seqs, keys, seq_of)  # each sequence once
    # a key in another window: the same bits but the first square's and the direction's
    # (the other squares are offsets from the first, the same in either direction)
    for k in range(n):
        keys[k] &= ~(np.int64(255) << np.int64(38))
    total_plays = 0
    for k in range(n):
        total_plays += _WINDOW_COUNT[seq_length[seq_of[k]]]
    if total_plays <= cap:  # every play
        count = 0
        for k in range(n):
            length = seq_length[seq_of[k]]
            for w in range(_WINDOW_COUNT[length]):
                kept[count] = keys[k] | _window_bits(length, w)
                count += 1
        return count, total_plays
    # the sequences by (total, tiles) group, then by their faces
    rank = np.empty(n, np.int64)
    for k in range(n):
        sq = seq_of[k]
        rank[k] = (keys[k] >> np.int64(46)) << np.int64(25) | _faces_code(seq_faces[sq],
                                                                          seq_length[sq])
    order = np.argsort(rank)
    # each sequence's best play (its first window) and the first `cap` plays
    firsts = np.empty(n, np.int64)
    first_seq = np.empty(n, np.int64)
    prefix = np.empty(cap, np.int64)
    taken = 0
    g = 0
    while g < n:
        head = rank[order[g]] >> np.int64(25)
        end = g
        while end < n and rank[order[end]] >> np.int64(25) == head:
            end += 1
        length = seq_length[seq_of[order[g]]]
        for k in range(g, end):
            firsts[k] = keys[order[k]] | _window_bits(length, 0)
            first_seq[k] = seq_of[order[k]]
        w = 0
        while w < _WINDOW_COUNT[length] and taken < cap:
            s0 = _WINDOWS[0, length, w]
            w_end = w
            while w_end < _WINDOW_COUNT[length] and _WINDOWS[0, length, w_end] == s0:
                w_end += 1
            f = g
            while f < end and taken < cap:  # a block of sequences of one first face
                f0 = seq_faces[seq_of[order[f]], 0]
                f_end = f
                while f_end < end and seq_faces[seq_of[order[f_end]], 0] == f0:
                    f_end += 1
                for x in range(w, w_end):  # across, then down
                    bits = _window_bits(length, x)
                    for k in range(f, min(f_end, f + cap - taken)):
                        prefix[taken] = keys[order[k]] | bits
                        taken += 1
                f = f_end
            w = w_end
        g = end
    # the tiers of keep_best: leaves' best plays, sequences' best plays, the first plays
    by_key = np.argsort(firsts)
    seen_leave = np.zeros(32, np.bool_)
    chosen = np.zeros(n, np.bool_)
    count = 0
    for i in range(n):
        leave = set_leave[seq_set[first_seq[by_key[i]]]]
        if not seen_leave[leave] and count < cap:
            seen_leave[leave] = True
            chosen[i] = True
            count += 1
    for i in range(n):
        if count >= cap:
            break
        if not chosen[i]:
            chosen[i] = True
            count += 1
    out = 0
    for i in range(n):
        if chosen[i]:
            kept[out] = firsts[by_key[i]]
            out += 1
    picked = np.sort(kept[:out])  # the best plays picked, for the membership test below
    j = 0
    for i in range(taken):
        if out >= cap:
            break
        while j < picked.shape[0] and picked[j] < prefix[i]:
            j += 1
        if j < picked.shape[0] and picked[j] == prefix[i]:
            continue
        kept[out] = prefix[i]
        out += 1
    return out, total_plays


@njit(cache=True)
def _select(keys, k):
    """The ``k``-th smallest of ``keys`` (distinct), reordering them (quickselect)."""
    lo, hi = 0, keys.shape[0] - 1
    while lo < hi:
        pivot = keys[(lo + hi) // 2]
        i, j = lo, hi
        while i <= j:
            while keys[i] < pivot:
                i += 1
            while keys[j] > pivot:
                j -= 1
            if i <= j:
                keys[i], keys[j] = keys[j], keys[i]
                i += 1
                j -= 1
        if k <= j:
            hi = j
        elif k >= i:
            lo = i
        else:
            break
    return keys[k]


@njit(cache=True)
def _kth(keys, k):
    """The ``k``-th smallest of ``keys`` (distinct, left as they are): the play of index
    ``32 + k``. A key's top bits are 1023 minus its total, so a count of the keys by
    total finds the total of the k-th, and only the keys of that total are selected
    among (a quickselect over them all mispredicts at every other comparison). The
    count runs in four rows, a key's row by its place, as the keys of a hand's orders
    come in runs of one total (one row would wait on each count it just wrote)."""
    n = keys.shape[0]
    low, high = np.int64(1 << 20), np.int64(0)
    for i in range(n):
        head = keys[i] >> np.int64(49)
        low = min(low, head)
        high = max(high, head)
    counts = np.zeros((4, high - low + 1), np.int64)
    for i in range(n):
        counts[i & 3, (keys[i] >> np.int64(49)) - low] += 1
    before = 0
    head = low
    while True:
        here = counts[0, head - low] + counts[1, head - low] + counts[2, head - low] + (
            counts[3, head - low])
        if before + here > k:
            break
        before += here
        head += 1
    tied = np.empty(here + 1, np.int64)  # (room for the write past the last)
    m = 0
    for i in range(n):  # (branch-free: every key written, the tied kept)
        tied[m] = keys[i]
        m += (keys[i] >> np.int64(49)) == head
    return _select(tied[:here], k - before)


# ----- later turns: cross-checks kept up to date, each multiset's orders built once -------
# After the opening a turn's plays come from `_later_plays`: the cross-checks of every
# empty square (what each face scores in the line across it) are kept per game and
# refreshed after a play only at the ends of the lines it touched, with each lane's
# tiles and touched squares as bits; a lane's windows come from a table by its tiles;
# and each multiset of the rack that makes a hand in a window is laid there in each of
# its distinct orders (built once a turn, `_orders`) whose faces fit the window's
# crossed squares.
ALL_FACES = (1 << 28) - 1


@njit(cache=True)
def _cross_at(board, q, d, out):
    """What each face scores at empty ``q`` in the line along ``d`` through it, into
    ``out`` (int8; -1: no hand), from a board of faces: returns (whether ``q`` has a
    neighbour along ``d``, the mask of the faces it takes there; every face without)."""
    key = np.int64(0)
    n = 0
    cols = 0
    rank = 0
    for side in range(2):
        for k in range(5):
            p = _RAYS[d, q, side, k]
            if p < 0 or board[p] == 0:
                break
            rank = board[p] >> 1
            key += _WEIGHT[rank]
            n += 1
            cols |= 1 << (board[p] & 1)
    if n == 0:
        return False, np.int64(ALL_FACES)
    mask = np.int64(0)
    if n == 1:
        out[:] = _PAIR_ROWS[rank]
        return True, _PAIR_MASKS[rank]
    out[:] = -1
    if n + 1 > 5:
        return True, mask
    for r in range(1, 14):
        v = _hand(key + _WEIGHT[r])
        if v >= 0:
            if n + 1 == 5 and cols != 3:  # five tiles: a flush when the new one matches
                out[r * 2] = v + (BONUS if cols == 1 else 0)
                out[r * 2 + 1] = v + (BONUS if cols == 2 else 0)
            else:
                out[r * 2] = v
                out[r * 2 + 1] = v
            mask |= np.int64(3) << np.int64(r * 2)
    return True, mask


@njit(cache=True)
def _clear_cross(b, nb, allowed, lanes):
    nb[b, :, :] = False
    allowed[b, :, :] = ALL_FACES
    lanes[b, :, :] = 0


@njit(cache=True)
def _mark_lane(lanes, d, q, part):
    """Set square ``q``'s bit in the lane along ``d`` through it: part 0 its tiles, part 1
    the squares a play along the lane must touch (a tile, or a line across)."""
    at = _LANE_OF[d, q]
    lanes[part, at >> 4] |= 1 << (at & 15)


@njit(cache=True)
def _refresh_cross(board, xc, nb, allowed, lanes, squares, count):
    """After tiles were laid on ``squares``: the cross-checks of the empty squares at
    both ends of every line through them (the only ones that changed)."""
    for d in range(2):
        # the tiles of a play along d share their line along d: its ends once
        along = count > 1 and (squares[1] - squares[0] < SIZE) == (d == 0)
        for t in range(1 if along else count):
            for side in range(2):
                q = squares[t]
                while q >= 0 and board[q]:
                    q = _RAYS[d, q, side, 0]
                if q >= 0:
                    nb[d, q], allowed[d, q] = _cross_at(board, q, d, xc[d, q])
                    if nb[d, q]:  # a play along the other lane through q may touch it
                        _mark_lane(lanes, 1 - d, q, 1)


@njit(cache=True)
def _multisets(held, nrack, ms_size, ms_rkey, ms_mono, ms_leave, ms_ncls, ms_face, ms_mult,
               size_start):
    """Every multiset of faces the rack can lay (a 6/9 tile as 6 or 9), by size (those of
    size e from ``size_start[e]`` to ``size_start[e + 1]``): its distinct faces (its
    classes, ascending) and how many of each, hand key, colour (-1 mixed, else the one
    colour) and leave (numbered as ``_sequences`` numbers it). Returns (multisets, a mask
    of every face the rack can lay)."""
    nd, distinct, copies, n_leaves = _rack_tiles(held, nrack)
    rack_mask = np.int64(0)
    for i in range(nrack):
        rack_mask |= np.int64(1) << np.int64(held[i])
        if held[i] >> 1 == 6:
            rack_mask |= np.int64(1) << np.int64(held[i] + 6)
    # the multisets of each size counted (in size_start), then each size's first place
    for e in range(7):
        size_start[e] = 0
    take, size = np.int64(0), 0
    for _ in range(1, n_leaves):
        take, size = _next_take(take, size, copies)
        size_start[size] += _splits(take, distinct, nd)
    start = 0
    for e in range(1, 6):
        start, size_start[e] = start + size_start[e], start
    # each multiset written at its size's next place (size_start[e] counts up to the
    # next size's first place, put back below)
    take, size = np.int64(0), 0
    for leave in range(1, n_leaves):
        take, size = _next_take(take, size, copies)
        for split in range(_splits(take, distinct, nd)):  # how many are laid as nines
            rest = split
            st = size_start[size]
            size_start[size] += 1
            ncls = 0
            rkey = np.int64(0)
            colours = np.int64(0)
            for d in range(nd):
                taken = (take >> (4 * d)) & 15
                if taken == 0:
                    continue
                face = (distinct >> (5 * d)) & 31
                nines = 0
                if face >> 1 == 6:
                    nines = rest % (taken + 1)
                    rest //= taken + 1
                for half in range(2):  # the tile as held, then laid as a nine
                    many = nines if half else taken - nines
                    if many == 0:
                        continue
                    f = face + 6 * half
                    k = ncls  # insert in ascending order of faces
                    while k > 0 and ms_face[st, k - 1] > f:
                        ms_face[st, k] = ms_face[st, k - 1]
                        ms_mult[st, k] = ms_mult[st, k - 1]
                        k -= 1
                    ms_face[st, k] = f
                    ms_mult[st, k] = many
                    ncls += 1
                    rkey += many * _WEIGHT[f >> 1]
                colours |= 1 << (face & 1)
            ms_size[st] = size
            ms_ncls[st] = ncls
            ms_rkey[st] = rkey
            ms_mono[st] = -1 if colours == 3 else (0 if colours == 1 else 1)
            ms_leave[st] = leave
    for e in range(5, 0, -1):  # size e's count reached size e + 1's first place
        size_start[e + 1] = size_start[e]
    size_start[1] = 0
    return size_start[6], rack_mask


def _lane_windows() -> tuple[np.ndarray, np.ndarray]:
    """For each pattern of occupied squares in a lane (bit k: its k-th square), the
    windows a play of two or more tiles can fill: no tile just before or after, two or
    more empty squares. Each as ``i | j << 4 | empty << 8`` (first and last square), from
    ``start[mask]`` to ``start[mask + 1]``."""
    masks = np.arange(1 << SIZE)
    tiles_in = np.array([bin(m).count("1") for m in range(1 << SIZE)])
    found = np.zeros((1 << SIZE, SIZE * 4), np.int64)
    count = np.zeros(1 << SIZE, np.int64)
    for i in range(SIZE - 1):
        for j in range(i + 1, min(i + 5, SIZE)):
            empty = (j - i + 1) - tiles_in[masks & ((1 << (j + 1)) - (1 << i))]
            ok = (empty >= 2) & ((masks >> (j + 1)) & 1 == 0)
            if i:
                ok &= (masks >> (i - 1)) & 1 == 0
            rows = np.flatnonzero(ok)
            found[rows, count[rows]] = i | j << 4 | empty[rows] << 8
            count[rows] += 1
    start = np.zeros((1 << SIZE) + 1, np.int64)
    start[1:] = np.cumsum(count)
    return found[np.arange(SIZE * 4) < count[:, None]], start


_WINDOW_CODES, _WINDOW_START = _lane_windows()


@njit(cache=True)
def _orders(e, ncls, remaining, faces, shifts, bits, count):
    """Every distinct order of a multiset of ``e`` tiles (``ncls`` distinct faces,
    ``remaining[c]`` of face ``faces[c]``), each one's faces as a play key's bits, into
    ``bits`` from ``count`` on (room for e! more). Loops nested by hand (2 to 5 tiles).
    Returns the new count."""
    for c0 in range(ncls):
        if remaining[c0] == 0:
            continue
        remaining[c0] -= 1
        k0 = faces[c0] << shifts[0]
        for c1 in range(ncls):
            if remaining[c1] == 0:
                continue
            remaining[c1] -= 1
            k1 = k0 | (faces[c1] << shifts[1])
            if e == 2:
                bits[count] = k1
                count += 1
            else:
                for c2 in range(ncls):
                    if remaining[c2] == 0:
                        continue
                    remaining[c2] -= 1
                    k2 = k1 | (faces[c2] << shifts[2])
                    if e == 3:
                        bits[count] = k2
                        count += 1
                    else:
                        for c3 in range(ncls):
                            if remaining[c3] == 0:
                                continue
                            remaining[c3] -= 1
                            k3 = k2 | (faces[c3] << shifts[3])
                            if e == 4:
                                bits[count] = k3
                                count += 1
                            else:
                                for c4 in range(ncls):
                                    if remaining[c4]:
                                        bits[count] = k3 | (faces[c4] << shifts[4])
                                        count += 1
                            remaining[c3] += 1
                    remaining[c2] += 1
            remaining[c1] += 1
        remaining[c0] += 1
    return count


_DE_BRUIJN = 0x03F79D71B4CB0A89  # every 6-bit window of its bits differs
_DE_BRUIJN_PLACE = np.zeros(64, np.int64)
for _k in range(64):
    _DE_BRUIJN_PLACE[((_DE_BRUIJN << _k) % (1 << 64)) >> 58] = _k


@njit(cache=True)
def _lowest_bit(x):
    """The place of the lowest set bit of ``x`` (> 0): the top six bits of the lowest
    bit times a de Bruijn number name it."""
    return _DE_BRUIJN_PLACE[(((x & -x) * np.int64(_DE_BRUIJN)) >> np.int64(58)) & 63]


_FACE_SHIFTS = np.array([33, 24, 16, 8, 0], np.int64)  # where each face goes in a key
_ORDERS = 2048  # room for the distinct orders of a turn's multisets of two or more: each
# is a tile sequence of the rack; of all racks of five, 2 3 4 12 13 (faces) lays the most,
# 1,052


@njit(cache=True)
def _later_plays(board, xc, nb, allowed, lanes, nrack, sets, keys, ident):
    """Every legal play of a rack of ``nrack`` tiles on a board holding tiles, as keys,
    with each one's leave and sequence in ``ident`` (leave << 25 | the sequence's number
    this turn, under ``_ORDERS + 32``: a single tile's is ``_ORDERS`` + its face);
    returns how many (-1: more than the scratch holds)."""
    (ms_size, ms_rkey, ms_mono, ms_leave, ms_ncls, ms_face, ms_mult, size_start, n_sets,
     rack_mask, work) = sets
    # (the scratch below is the environment's, allocated once: _later_work)
    hand_st, hand_v, hand_n, order_bits, order_start, order_end, held, small = work
    hand_n[:] = -1  # -1: not listed yet
    count = 0
    squares, faces, at, take, rows, remaining, crossed_at = (
        small[0], small[1], small[2], small[3], small[4], small[5], small[6])
    # at: where each empty square of a window is in its lane; take: the faces each one
    # takes; rows: its row of cross-scores (none: the zero row)
    shifts = _FACE_SHIFTS
    # A multiset's distinct orders are the same in every window, so each multiset's are
    # built once a turn (their faces' key bits, from order_start[st] to order_end[st];
    # an order's number there is its sequence's number this turn) and copied into each
    # window where it makes a hand, those whose faces fit its crossed squares (73% of a
    # turn's plays cross none). held: each multiset's faces, as a mask.
    order_end[:n_sets] = -1  # -1: not laid yet
    orders = 0
    for li in range(_LANE_LENGTH.shape[0]):
        direction = _LANE_DIRECTION[li]
        cross = 1 - direction
        adds = xc[cross]
        n = _LANE_LENGTH[li]
        # the lane's occupied squares, those a play must touch (kept with the
        # cross-checks), and the empty squares where no tile of the rack fits across (a
        # window over one is dead), as bits
        touch = lanes[1, li]
        if not touch:
            continue
        tiles = lanes[0, li]
        blocked = 0
        crossing = touch & ~tiles
        while crossing:
            k = _lowest_bit(crossing)
            crossing &= crossing - 1
            if allowed[cross, _LANE_SQUARES[li, k]] & rack_mask == 0:
                blocked |= 1 << k
        for w in range(_WINDOW_START[tiles], _WINDOW_START[tiles + 1]):
            code = _WINDOW_CODES[w]
            e = code >> 8
            i = code & 15
            j = (code >> 4) & 15
            span = (1 << (j + 1)) - (1 << i)
            if j >= n or e > nrack or not touch & span or blocked & span:
                continue
            length = j - i + 1
            akey = np.int64(0)
            acols = 0
            m = 0
            row = 0  # the rank of the window's only tile (0: none)
            crossed = 0  # how many of its squares have a line across (crossed_at: which)
            for k in range(i, j + 1):
                q = _LANE_SQUARES[li, k]
                if tiles >> k & 1:
                    row = board[q] >> 1
                    akey += _WEIGHT[row]
                    acols |= 1 << (board[q] & 1)
                else:
                    if nb[cross, q]:
                        take[m] = allowed[cross, q]
                        rows[m] = q
                        crossed_at[crossed] = m
                        crossed += 1
                    else:
                        take[m] = ALL_FACES
                        rows[m] = SQUARES
                    squares[m] = q
                    at[m] = k
                    m += 1
            # the key's bits of the squares (as _key lays them out); the faces' are the
            # orders' own
            window_bits = (np.int64(squares[0]) << np.int64(38)) | (
                np.int64(direction) << np.int64(32))
            for k in range(1, e):  # each square's offset from the first along the lane
                window_bits |= np.int64(at[k] - at[0]) << np.int64(29 - 8 * (k - 1))
            bonus = BONUS if e == RACK_SIZE else 0
            flush_ok = length == 5 and acols != 3
            # the multisets of e tiles that make a hand with the window's tiles, and
            # their totals: most windows hold no tile or one, and the list for each such
            # content and size is made once a turn (list row * 4 + e - 2); another's,
            # each time (list 56)
            r = row * 4 + e - 2 if length - e <= 1 else 56
            if r == 56 or hand_n[r] < 0:
                m = 0
                for st in range(size_start[e], size_start[e + 1]):
                    v = _hand(akey + ms_rkey[st])
                    if v >= 0:
                        hand_st[r, m] = st
                        hand_v[r, m] = v
                        m += 1
                hand_n[r] = m
            for u in range(hand_n[r]):
                st = hand_st[r, u]
                base = hand_v[r, u] + bonus
                mono = ms_mono[st]
                if flush_ok and mono >= 0 and (acols == 0 or acols == 1 << mono):
                    base += BONUS
                if order_end[st] < 0:  # its distinct orders, laid once a turn
                    if orders + 120 > _ORDERS:
                        raise ValueError("more tile sequences than a rack can lay")
                    ncls = ms_ncls[st]
                    held[st] = 0
                    for c in range(ncls):
                        remaining[c] = ms_mult[st, c]
                        faces[c] = ms_face[st, c]
                        held[st] |= np.int64(1) << faces[c]
                    end = _orders(e, ncls, remaining, faces, shifts, order_bits, orders)
                    order_start[st] = orders
                    order_end[st] = orders = end
                if count + order_end[st] - order_start[st] > keys.shape[0]:
                    return -1
                leave = ms_leave[st] << np.int64(25)
                if crossed == 0:  # every order, scoring the same
                    head = (np.int64(1023 - base) * 8 + e) << np.int64(46)
                    for u in range(order_start[st], order_end[st]):
                        keys[count] = head | window_bits | order_bits[u]
                        ident[count] = leave | u
                        count += 1
                elif crossed == 1:  # the orders whose face at the crossed square fits it
                    shift = shifts[crossed_at[0]]
                    fits_there = take[crossed_at[0]]
                    if fits_there & held[st] == 0:
                        continue
                    scores = adds[rows[crossed_at[0]]]
                    for u in range(order_start[st], order_end[st]):  # (branch-free)
                        f = (order_bits[u] >> shift) & 31
                        total = base + scores[f]
                        keys[count] = (((1023 - total) * 8 + e) << np.int64(46)) | (
                            window_bits | order_bits[u])
                        ident[count] = leave | u
                        count += int((fits_there >> f) & 1)
                else:  # the orders whose face at every crossed square fits it
                    fits = True
                    for c in range(crossed):
                        fits = fits and take[crossed_at[c]] & held[st] != 0
                    if not fits:
                        continue
                    for u in range(order_start[st], order_end[st]):  # (branch-free)
                        total = base
                        fit = np.int64(1)
                        for c in range(crossed):
                            p = crossed_at[c]
                            f = (order_bits[u] >> shifts[p]) & 31
                            fit &= take[p] >> f
                            total += adds[rows[p], f]
                        keys[count] = (((1023 - total) * 8 + e) << np.int64(46)) | (
                            window_bits | order_bits[u])
                        ident[count] = leave | u
                        count += int(fit & 1)
    # single tiles: both lines through the square count
    for q in range(SQUARES):
        if not (nb[0, q] | nb[1, q]):  # (occupied squares have none)
            continue
        fit = allowed[0, q] & allowed[1, q] & rack_mask  # (every face where no line)
        if fit == 0:
            continue
        squares[0] = q
        for st in range(size_start[1], size_start[2]):
            f = ms_face[st, 0]
            if not (fit >> f) & 1:
                continue
            x = 0
            if nb[0, q]:
                x = xc[0, q, f]
            if nb[1, q]:
                x += xc[1, q, f]
            if count >= keys.shape[0]:
                return -1
            faces[0] = f
            keys[count] = _key(x, 1, squares, faces, 0)
            ident[count] = (ms_leave[st] << np.int64(25)) | (_ORDERS + f)
            count += 1
    return count


@njit(cache=True)
def _keep_best_ident(keys, ident, count, cap, kept):
    """Keep at most ``cap`` of a later turn's plays as kings_v1 does
    (kings_actions.keep_best), their leaves and sequences read from ``ident`` (as
    ``_later_plays`` numbers them), without sorting them all: the best play of every
    leave, then the best plays of the sequences, best first, then the best others.
    Writes the kept keys (in no order: ``_kth`` finds the one chosen) to ``kept``;
    returns how many.

    Keys are distinct, so a play is its sequence's (or leave's) best when its key is
    that best key: one pass finds the best keys, and a play's tier is then a comparison
    (no list of indices to follow)."""
    if count <= cap:
        kept[:count] = keys[:count]
        return count
    none = np.int64(0x7FFFFFFFFFFFFFFF)
    best = np.full(_ORDERS + 32, none, np.int64)  # each sequence's best key
    leave_of = np.empty(_ORDERS + 32, np.int64)  # each sequence's leave
    leave_best = np.full(32, none, np.int64)
    for i in range(count):  # (a hand's orders follow each other: their sequences differ)
        code = ident[i]
        h = code & ((1 << 25) - 1)  # the sequence's number
        best[h] = min(best[h], keys[i])
        leave_of[h] = code >> np.int64(25)
    for h in range(_ORDERS + 32):  # a leave's best play is its sequences' best
        if best[h] != none:
            leave_best[leave_of[h]] = min(leave_best[leave_of[h]], best[h])
    out = 0
    for leave in range(32):  # first the leaves' best plays
        if leave_best[leave] != none:
            kept[out] = leave_best[leave]
            out += 1
    firsts = np.empty(_ORDERS + 32, np.int64)  # the sequences' best plays not kept yet
    n_firsts = 0
    for h in range(_ORDERS + 32):
        if best[h] != none and best[h] != leave_best[leave_of[h]]:
            firsts[n_firsts] = best[h]
            n_firsts += 1
    if out + n_firsts >= cap:  # only the best of the sequences' best plays fit
        threshold = _kth(firsts[:n_firsts], cap - out - 1)
        for u in range(n_firsts):
            if firsts[u] <= threshold:
                kept[out] = firsts[u]
                out += 1
        return out
    # then the best others (the plays that are not their sequence's best)
    others = np.empty(count + 1, np.int64)  # (room for the write past the last)
    m = 0
    for i in range(count):  # (branch-free)
        others[m] = keys[i]
        m += keys[i] != best[ident[i] & ((1 << 25) - 1)]
    threshold = _kth(others[:m], cap - out - n_firsts - 1)
    for u in range(n_firsts):
        kept[out + u] = firsts[u]
    out += n_firsts
    n_best = 0
    for u in range(m):  # (branch-free: the best others moved to the front)
        others[n_best] = others[u]
        n_best += others[u] <= threshold
    kept[out:out + n_best] = others[:n_best]
    return out + n_best


# ----- the game --------------------------------------------------------------------------
# State, one row per slot: board (169 faces, 0 empty), racks (seat, 5 held faces, sorted)
# and their sizes, bag (held faces, drawn from the end) and its size, scores, the seat
# to move, turns so far, passes and scoreless turns in a row, over, history (the last
# turns, newest first: seat, action, tiles, points), the turn's kept plays (keys, in no
# order), how many, how many before the cap, the penalties, the random streams, the
# number of seats, the cross-checks (_refresh_cross), and what the observation and mask
# are kept up to date from (_observe).
@njit(cache=True)
def _sort_rack(rack, n):
    for i in range(1, n):
        x = rack[i]
        j = i - 1
        while j >= 0 and rack[j] > x:
            rack[j + 1] = rack[j]
            j -= 1
        rack[j + 1] = x


@njit(cache=True)
def _draw(b, s, seat, count):
    racks, rack_n, bag, bag_n = s[1], s[2], s[3], s[4]
    for _ in range(count):
        if bag_n[b] == 0:
            break
        bag_n[b] -= 1
        racks[b, seat, rack_n[b, seat]] = bag[b, bag_n[b]]
        rack_n[b, seat] += 1
    _sort_rack(racks[b, seat], rack_n[b, seat])


@njit(cache=True)
def _shuffle_bag(b, s):
    bag, bag_n, rng = s[3], s[4], s[16]
    for i in range(bag_n[b] - 1, 0, -1):  # Fisher-Yates
        j = below(rng, b, i + 1)
        bag[b, i], bag[b, j] = bag[b, j], bag[b, i]


@njit(cache=True)
def _new_game(b, s, bags, first_player):
    (board, racks, rack_n, bag, bag_n, scores, turn, turns, passes, scoreless, over,
     history, kept, n_kept, all_plays, penalties, rng, n, xc, nb, allowed, lanes,
     on_board, laid, shown) = s
    board[b, :] = 0
    on_board[b, :] = 0
    laid[b, 0] = -1  # the observation's board planes: to clear
    _clear_cross(b, nb, allowed, lanes)
    history[b, :, :] = 0
    turns[b] = 0
    passes[b] = 0
    scoreless[b] = 0
    over[b] = False
    for seat in range(n):
        scores[b, seat] = 0
        rack_n[b, seat] = 0
        penalties[b, seat] = 0
    bag_n[b] = TILES
    if bags.shape[0]:
        for i in range(TILES):
            bag[b, i] = bags[b, i]
    else:
        for i in range(TILES):
            bag[b, i] = _FULL[i]
        _shuffle_bag(b, s)
    first = first_player if first_player >= 0 else below(rng, b, n)
    for k in range(n):  # five tiles each from the first player round
        _draw(b, s, (first + k) % n, RACK_SIZE)
    turn[b] = first


@njit(cache=True)
def _later_work(scratch):
    """The scratch of ``_later_plays`` (hand lists, orders, a window's squares)."""
    return (scratch[17], scratch[18], scratch[19], scratch[20], scratch[21], scratch[22],
            scratch[23], scratch[24])


@njit(cache=True)
def _turn_plays(b, s, keys, seq_of, scratch):
    """Generate the plays of the seat to move and keep those kings_v1 keeps."""
    (board, racks, rack_n, bag, bag_n, scores, turn, turns, passes, scoreless, over,
     history, kept, n_kept, all_plays, penalties, rng, n, xc, nb, allowed, lanes,
     on_board, laid, shown) = s
    seat = turn[b]
    nrack = rack_n[b, seat]
    (seq_faces, seq_length, seq_set, set_size, set_rkey, set_mono, set_leave, set_first,
     set_count, size_start, ms_size, ms_rkey, ms_mono, ms_leave, ms_ncls, ms_face,
     ms_mult) = scratch[:17]
    empty = True
    for q in range(SQUARES):
        if board[b, q]:
            empty = False
            break
    if empty:
        n_seq, n_sets, n_leaves = _sequences(racks[b, seat], nrack, seq_faces, seq_length,
                                             seq_set, set_size, set_rkey, set_mono,
                                             set_leave, set_first, set_count, size_start)
        seqs = (seq_faces, seq_length, seq_set, set_size, set_rkey, set_mono, set_leave,
                set_first, set_count, n_seq, n_sets, size_start)
        n_kept[b], all_plays[b] = _opening(nrack, seqs, keys, seq_of, MAX_PLAYS, kept[b])
        return
    n_sets, rack_mask = _multisets(racks[b, seat], nrack, ms_size, ms_rkey, ms_mono,
                                   ms_leave, ms_ncls, ms_face, ms_mult, size_start)
    sets = (ms_size, ms_rkey, ms_mono, ms_leave, ms_ncls, ms_face, ms_mult, size_start,
            n_sets, rack_mask, _later_work(scratch))
    count = _later_plays(board[b], xc[b], nb[b], allowed[b], lanes[b], nrack, sets, keys,
                         seq_of)
    if count < 0:
        raise ValueError("more legal plays than the kernel's scratch holds")
    all_plays[b] = count
    n_kept[b] = _keep_best_ident(keys, seq_of, count, MAX_PLAYS, kept[b])


@njit(cache=True)
def _exchange_index_ok(rack, nrack, index):
    """The number of tiles exchange ``index`` (1-31) returns from the sorted rack, or 0
    when it names a tile past the rack or is not the lowest index of its tiles (among
    equal tiles, the lowest index takes the first ones)."""
    if index >> nrack:
        return 0
    size = 0
    for i in range(nrack):
        if index >> i & 1:
            if i and rack[i] == rack[i - 1] and not index >> (i - 1) & 1:
                return 0
            size += 1
    return size


@njit(cache=True)
def _penalty(face):
    r = face >> 1
    return 10 if r >= 10 else r


@njit(cache=True)
def _push_history(b, s, seat, code, tiles, points):
    history = s[11]
    for k in range(HISTORY - 1, 0, -1):
        for c in range(4):
            history[b, k, c] = history[b, k - 1, c]
    history[b, 0, 0] = seat
    history[b, 0, 1] = code
    history[b, 0, 2] = tiles
    history[b, 0, 3] = points


@njit(cache=True)
def _apply(b, s, action, gained):
    """Apply the action of the seat to move; False (nothing changed) if illegal."""
    (board, racks, rack_n, bag, bag_n, scores, turn, turns, passes, scoreless, over,
     history, kept, n_kept, all_plays, penalties, rng, n, xc, nb, allowed, lanes,
     on_board, laid, shown) = s
    seat = turn[b]
    rack = racks[b, seat]
    nrack = rack_n[b, seat]
    went_out = False
    if action == 0:
        passes[b] += 1
        scoreless[b] += 1
        _push_history(b, s, seat, PASS_CODE, 0, 0)
    elif action < FIRST_PLAY:
        if action < 0:
            return False
        size = _exchange_index_ok(rack, nrack, action)
        if size == 0 or size > bag_n[b]:
            return False
        returned = np.empty(size, np.int64)
        m = 0
        keep = np.empty(5, np.int64)
        kk = 0
        for i in range(nrack):
            if action >> i & 1:
                returned[m] = rack[i]
                m += 1
            else:
                keep[kk] = rack[i]
                kk += 1
        for i in range(kk):
            rack[i] = keep[i]
        rack_n[b, seat] = kk
        _draw(b, s, seat, size)  # the replacements first, then the tiles go back
        for i in range(size):
            bag[b, bag_n[b]] = returned[i]
            bag_n[b] += 1
        _shuffle_bag(b, s)
        passes[b] = 0
        scoreless[b] += 1
        _push_history(b, s, seat, EXCHANGE_CODE, size, 0)
    else:
        k = action - FIRST_PLAY
        if k >= n_kept[b] or action >= ACTIONS:
            return False
        squares, faces = laid[b, 1:6], laid[b, 6:11]  # (kept for _observe)
        key = _kth(kept[b, :n_kept[b]], k)  # the kept plays are in no order
        count, total = _decode(key, squares, faces)
        laid[b, 0] = count
        for t in range(count):
            f = faces[t]
            board[b, squares[t]] = f
            nb[b, 0, squares[t]] = nb[b, 1, squares[t]] = False  # (no line across a tile)
            for d in range(2):
                for part in range(2):
                    _mark_lane(lanes[b], d, squares[t], part)
            held = f - 6 if f >> 1 == 9 else f
            on_board[b, held] += 1
            for i in range(rack_n[b, seat]):
                if rack[i] == held:
                    for j in range(i, rack_n[b, seat] - 1):
                        rack[j] = rack[j + 1]
                    rack_n[b, seat] -= 1
                    break
        _refresh_cross(board[b], xc[b], nb[b], allowed[b], lanes[b], squares, count)
        went_out = rack_n[b, seat] == 0  # before the draw, as the engine decides it
        _draw(b, s, seat, RACK_SIZE - rack_n[b, seat])
        went_out = went_out and rack_n[b, seat] == 0
        scores[b, seat] += total
        gained[b, seat] += total
        passes[b] = 0
        scoreless[b] = 0
        _push_history(b, s, seat, PLAY_CODE, count, total)
    turns[b] += 1
    if went_out:
        over[b] = True
    elif bag_n[b] == 0 and passes[b] >= n:
        over[b] = True
    elif bag_n[b] > 0 and scoreless[b] >= SCORELESS_ROUNDS * n:
        over[b] = True
    if over[b]:
        for other in range(n):
            p = 0
            for i in range(rack_n[b, other]):
                p += _penalty(racks[b, other, i])
            penalties[b, other] = p
            gained[b, other] -= p
    turn[b] = (seat + 1) % n
    return True


# ----- what the seat to move sees ----------------------------------------------------------
def _exchange_tables() -> tuple[np.ndarray, np.ndarray]:
    """The legal exchange indices (1-31) as bits: of a sorted rack of n tiles whose
    tiles equal to the one before are the bits of ``repeats`` (as
    ``_exchange_index_ok`` decides them, [n, repeats]), and of the indices returning at
    most k tiles ([k])."""
    legal = np.zeros((RACK_SIZE + 1, 1 << RACK_SIZE), np.int64)
    for n in range(RACK_SIZE + 1):
        for repeats in range(1 << RACK_SIZE):
            for index in range(1, FIRST_PLAY):
                if index >> n:
                    continue
                if any(index >> i & 1 and repeats >> i & 1 and not index >> (i - 1) & 1
                       for i in range(1, n)):
                    continue
                legal[n, repeats] |= 1 << index
    at_most = np.array([sum(1 << index for index in range(1, FIRST_PLAY)
                            if bin(index).count("1") <= k) for k in range(RACK_SIZE + 1)],
                       np.int64)
    return legal, at_most


_EXCHANGES, _EXCHANGES_OF_AT_MOST = _exchange_tables()



@njit(cache=True)
def _observe(b, s, obs, mask):
    (board, racks, rack_n, bag, bag_n, scores, turn, turns, passes, scoreless, over,
     history, kept, n_kept, all_plays, penalties, rng, n, xc, nb, allowed, lanes,
     on_board, laid, shown) = s
    seat = turn[b]
    o = obs[b]
    if laid[b, 0] < 0:  # a new game: every plane cleared
        o[:] = 0
    else:  # only the squares the last play laid tiles on changed
        for t in range(laid[b, 0]):
            q = laid[b, 1 + t]
            f = board[b, q]
            o[O_BOARD + ((f >> 1) - 1) * SQUARES + q] = 1
            o[O_BOARD + (13 + 1 - (f & 1)) * SQUARES + q] = 1
    laid[b, 0] = 0
    for r in range(1, 14):  # the tiles not on the board, less this rack's below
        o[O_UNSEEN + r - 1] = _ALL_TILES[r * 2 + 1] - on_board[b, r * 2 + 1]  # light
        o[O_UNSEEN + 13 + r - 1] = _ALL_TILES[r * 2] - on_board[b, r * 2]  # dark
    rack = racks[b, seat]
    for i in range(rack_n[b, seat]):
        f = rack[i]
        o[O_RACK + 2 * i] = f >> 1
        o[O_RACK + 2 * i + 1] = 2 - (f & 1)
        o[O_UNSEEN + (f >> 1) - 1 + (0 if f & 1 else 13)] -= 1
    for k in range(n):
        other = (seat + k) % n
        o[O_SCORES + k] = scores[b, other] - penalties[b, other]
        o[O_RACK_SIZES + k] = rack_n[b, other]
    o[O_BAG] = bag_n[b]
    o[O_BAG + 1] = bag_n[b]
    for i in range(rack_n[b, seat], RACK_SIZE):  # (a rack the bag no longer fills)
        o[O_RACK + 2 * i] = 0
        o[O_RACK + 2 * i + 1] = 0
    for k in range(min(turns[b], HISTORY)):
        o[O_HISTORY + 4 * k] = (history[b, k, 0] - seat) % n + 1
        for c in range(1, 4):
            o[O_HISTORY + 4 * k + c] = history[b, k, c]
    o[O_GAME] = n
    o[O_GAME + 1] = turns[b]
    o[O_GAME + 2] = passes[b]
    o[O_GAME + 3] = scoreless[b]
    o[O_GAME + 4] = 0  # no Servant under the standard rules
    o[O_GAME + 5] = 0  # the seat to move, from the observer: itself
    m = mask[b]
    m[0] = 1
    nrack = rack_n[b, seat]
    repeats = 0  # which tiles of the sorted rack equal the one before
    for i in range(1, nrack):
        repeats |= (rack[i] == rack[i - 1]) << i
    exchanges = _EXCHANGES[nrack, repeats] & _EXCHANGES_OF_AT_MOST[min(bag_n[b], RACK_SIZE)]
    for index in range(1, FIRST_PLAY):
        m[index] = (exchanges >> index) & 1
    m[FIRST_PLAY:FIRST_PLAY + n_kept[b]] = 1
    if shown[b] > n_kept[b]:
        m[FIRST_PLAY + n_kept[b]:FIRST_PLAY + shown[b]] = 0
    shown[b] = n_kept[b]


@njit(cache=True)
def _step_all(s, actions, bags, obs, mask, rewards, gained, done, final, illegal,
              autoreset, keys, seq_of, seqs_scratch):
    scores, turn, over, penalties, n = s[5], s[6], s[10], s[15], s[17]
    for b in range(actions.shape[0]):
        for seat in range(n):
            rewards[b, seat] = 0.0
            gained[b, seat] = 0
            final[b, seat] = 0
        done[b] = False
        illegal[b] = False
        if over[b]:  # finished without autoreset: stays as it ended
            continue
        seat = turn[b]
        if not _apply(b, s, actions[b], gained):
            illegal[b] = True
            done[b] = True
            rewards[b, seat] = -1.0
            over[b] = True
        elif over[b]:
            done[b] = True
            best = -100000
            for other in range(n):
                best = max(best, scores[b, other] - penalties[b, other])
            winners = 0
            for other in range(n):
                if scores[b, other] - penalties[b, other] == best:
                    winners += 1
            for other in range(n):
                won = scores[b, other] - penalties[b, other] == best
                rewards[b, other] = 2.0 / winners - 1.0 if won else -1.0
        if done[b]:
            for other in range(n):
                final[b, other] = scores[b, other] - penalties[b, other]
            if autoreset:
                _new_game(b, s, bags[:0], -1)
        if not over[b]:
            _turn_plays(b, s, keys, seq_of, seqs_scratch)
            _observe(b, s, obs, mask)


@njit(cache=True)
def _reset_all(s, bags, first_players, obs, mask, keys, seq_of, seqs_scratch):
    for b in range(first_players.shape[0]):
        _new_game(b, s, bags, first_players[b])
        _turn_plays(b, s, keys, seq_of, seqs_scratch)
        _observe(b, s, obs, mask)


@njit(cache=True)
def _play_of(key):
    squares = np.empty(5, np.int64)
    faces = np.empty(5, np.int64)
    count, total = _decode(key, squares, faces)
    return squares[:count].copy(), faces[:count].copy(), total


def _decoded(key: np.int64) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    squares, faces, total = _play_of(key)
    return tuple(int(q) for q in squares), tuple(int(f) for f in faces), int(total)


class BatchStep(NamedTuple):
    obs: np.ndarray  # (B, 2619) int16: the seat to move's observation
    mask: np.ndarray  # (B, 2080) int8: its legal actions
    rewards: np.ndarray  # (B, players) float32, by seat
    points: np.ndarray  # (B, players) int16: each seat's final score's change this step
    done: np.ndarray  # (B,) bool: the game ended in this step (and started again)
    final_scores: np.ndarray  # (B, players) int16: how the ended games ended (0 elsewhere)
    illegal: np.ndarray  # (B,) bool: the game ended on an illegal action


class BatchedKings:
    """``batch_size`` games of Kings Cribbage for ``players`` seats (2 to 4, standard
    rules), stepped together (module doc)."""

    actions = ACTIONS
    observation_size = OBSERVATION_SIZE

    def __init__(self, batch_size: int, seed: int = 0, autoreset: bool = True,
                 players: int = 2, copy: bool = True) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, not {batch_size}")
        self.copy = copy  # return copies (the default) or the environment's own arrays
        if not 2 <= players <= MAX_PLAYERS:
            raise ValueError(f"Kings Cribbage is for 2 to {MAX_PLAYERS} players, not {players}")
        self.batch_size = b = int(batch_size)
        self.players = n = int(players)
        self.autoreset = autoreset
        self._seed = int(seed)
        i64 = np.int64
        self.board = np.zeros((b, SQUARES), i64)
        self.racks = np.zeros((b, n, RACK_SIZE), i64)
        self.rack_sizes = np.zeros((b, n), i64)
        self.bag = np.zeros((b, TILES), i64)
        self.bag_size = np.zeros(b, i64)
        self.scores = np.zeros((b, n), i64)
        self.turn = np.zeros(b, i64)
        self.turns = np.zeros(b, i64)
        self.passes = np.zeros(b, i64)
        self.scoreless = np.zeros(b, i64)
        self.over = np.zeros(b, np.bool_)
        self.history = np.zeros((b, HISTORY, 4), i64)
        self.kept = np.zeros((b, MAX_PLAYS), i64)
        self.n_kept = np.zeros(b, i64)
        self.plays_before_cap = np.zeros(b, i64)
        self.penalties = np.zeros((b, n), i64)
        # each empty square's cross-checks, kept up to date (_refresh_cross): what each
        # face scores there across a line along direction d, whether there is such a
        # line, and the mask of the faces it takes
        # (int8, 32 a row: a row is one cache line's half; a last row of zeros for the
        # squares with no line across)
        self.cross_scores = np.zeros((b, 2, SQUARES + 1, 32), np.int8)
        self.crossed = np.zeros((b, 2, SQUARES), np.bool_)
        self.cross_faces = np.full((b, 2, SQUARES), ALL_FACES, i64)
        # each lane's squares holding a tile (0) and those a play along it must touch
        # (1: a tile, or a line across), as bits, kept up to date with the cross-checks
        self.lane_bits = np.zeros((b, 2, len(_LANE_LENGTH)), i64)
        self.rng = seed_streams(self._seed, b)
        # what the observations and masks are kept up to date from (_observe): the faces
        # on each board (as held), the last play's tiles (a count, -1: a new game; its
        # squares, its faces), the plays each mask shows
        self._on_board = np.zeros((b, 28), i64)
        self._laid = np.zeros((b, 11), i64)
        self._shown = np.full(b, MAX_PLAYS, i64)
        self._bags = np.zeros((0, TILES), i64)
        self.obs = np.zeros((b, OBSERVATION_SIZE), np.int16)
        self.mask = np.zeros((b, ACTIONS), np.int8)
        self._rewards = np.zeros((b, n), np.float32)
        self._gained = np.zeros((b, n), np.int16)
        self._done = np.zeros(b, np.bool_)
        self._final = np.zeros((b, n), np.int16)
        self._illegal = np.zeros(b, np.bool_)
        self._pick = np.zeros(b, np.int64)
        self._pick_rng = seed_streams(self._seed ^ 0x5DEECE66D, b)
        # scratch of one turn: the plays before the cap, the rack's sequences
        self._keys = np.zeros(SCRATCH, i64)
        self._seq_of = np.zeros(SCRATCH, i64)
        sets = 1024
        self._sequences = (np.zeros((4096, 5), i64), np.zeros(4096, i64),
                           np.zeros(4096, i64), np.zeros(sets, i64), np.zeros(sets, i64),
                           np.zeros(sets, i64), np.zeros(sets, i64), np.zeros(sets, i64),
                           np.zeros(sets, i64), np.zeros(7, i64),
                           # the multisets of a later turn (_multisets)
                           np.zeros(sets, i64), np.zeros(sets, i64), np.zeros(sets, i64),
                           np.zeros(sets, i64), np.zeros(sets, i64), np.zeros((sets, 5), i64),
                           np.zeros((sets, 5), i64),
                           # the scratch of _later_plays (_later_work): each window
                           # content's hand lists (multisets, totals, how many), the
                           # orders of the multisets and where each one's are, the
                           # multisets' faces as masks, a window's squares
                           np.zeros((57, sets), i64), np.zeros((57, sets), i64),
                           np.zeros(57, i64), np.zeros(_ORDERS, i64), np.zeros(sets, i64),
                           np.zeros(sets, i64), np.zeros(sets, i64), np.zeros((7, 5), i64))

    def _state(self) -> tuple:
        return (self.board, self.racks, self.rack_sizes, self.bag, self.bag_size,
                self.scores, self.turn, self.turns, self.passes, self.scoreless, self.over,
                self.history, self.kept, self.n_kept, self.plays_before_cap,
                self.penalties, self.rng, self.players, self.cross_scores,
                self.crossed, self.cross_faces, self.lane_bits, self._on_board,
                self._laid, self._shown)

    def reset(self, seed: int | None = None, bags: np.ndarray | None = None,
              first_players: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Start a game in every slot; the observations and masks of the seats to move.

        ``bags`` (B, 104) gives each slot's first bag as held faces (``rank * 2 +
        colour``, colour 0 dark, 1 light, a 6/9 tile as its six), drawn from the end as
        the engine's bag list is; later games and the shakes after an exchange use the
        slot's stream. ``first_players`` (B,) fixes the seat that plays first."""
        if seed is not None:
            self._seed = int(seed)
            self.rng[:] = seed_streams(self._seed, self.batch_size)
            self._pick_rng[:] = seed_streams(self._seed ^ 0x5DEECE66D, self.batch_size)
        b = self.batch_size
        if bags is None:
            self._bags = np.zeros((0, TILES), np.int64)
        else:
            bags = np.asarray(bags, np.int64)
            if bags.shape != (b, TILES):
                raise ValueError(f"bags must have the shape ({b}, {TILES}), not {bags.shape}")
            if not (np.sort(bags, axis=1) == _FULL).all():
                raise ValueError("every bag must hold the 104 tiles of the game once each")
            self._bags = bags
        if first_players is None:
            firsts = np.full(b, -1, np.int64)
        else:
            firsts = np.asarray(first_players, np.int64)
            if firsts.shape != (b,) or not np.isin(firsts, range(self.players)).all():
                raise ValueError(f"first_players must be {b} seats, each 0 to "
                                 f"{self.players - 1}")
        _reset_all(self._state(), self._bags, firsts, self.obs, self.mask, self._keys,
                   self._seq_of, self._sequences)
        self._bags = np.zeros((0, TILES), np.int64)  # given bags serve the first game
        return self._out(self.obs), self._out(self.mask)

    def step(self, actions: np.ndarray) -> BatchStep:
        """Apply ``actions`` (B,), one index per game for its seat to move (module doc)."""
        actions = np.asarray(actions, np.int64)
        if actions.shape != (self.batch_size,):
            raise ValueError(f"actions must have the shape ({self.batch_size},), not "
                             f"{actions.shape}")
        _step_all(self._state(), actions, self._bags, self.obs, self.mask, self._rewards,
                  self._gained, self._done, self._final, self._illegal, self.autoreset,
                  self._keys, self._seq_of, self._sequences)
        out = self._out
        return BatchStep(out(self.obs), out(self.mask), out(self._rewards), out(self._gained),
                         out(self._done), out(self._final), out(self._illegal))

    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

    def to_act(self) -> np.ndarray:
        """The seat to move in each game."""
        return self.turn

    def play(self, slot: int, index: int) -> tuple[tuple[int, ...], tuple[int, ...], int]:
        """The play behind action ``index`` (32 or more) of game ``slot`` now: its squares
        (row x 13 + column), the faces laid on them (``rank * 2 + colour``, colour 0 dark,
        1 light; a 6/9 tile laid as a nine has rank 9) and its total."""
        k = index - FIRST_PLAY
        if not 0 <= k < self.n_kept[slot]:
            raise ValueError(f"{index} is not a play of slot {slot} now")
        return _decoded(np.sort(self.kept[slot, :self.n_kept[slot]])[k])

    def plays(self, slot: int) -> list[tuple[tuple[int, ...], tuple[int, ...], int]]:
        """Every play game ``slot`` offers now, in action order (index 32 onwards), each
        as :meth:`play` gives it."""
        return [_decoded(key) for key in np.sort(self.kept[slot, :self.n_kept[slot]])]

    def random_actions(self) -> np.ndarray:
        """A uniformly random legal action for every game (a stream of its own per slot)."""
        random_actions(self.mask, self._pick_rng, self._pick)
        return self._out(self._pick)


__all__ = ["OBSERVATION_SIZE", "BatchStep", "BatchedKings"]
