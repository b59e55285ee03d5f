"""Plays: the worked examples of RULES.md and sources/000, the rules of "A turn"
checked one by one, and the move generator against the brute-force reference.

Interpretation assumed where RULES.md is not explicit: a one-tile play forms or
extends both lines through the tile (each scored when 2+ tiles long).
"""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kings_reference import full_bag, play_key, ref_check, ref_hand, ref_legal_plays

from kingscrib.kings import fastgen, movegen
from kingscrib.kings.board import parse_square, square_name
from kingscrib.kings.game import Game
from kingscrib.kings.moves import Pass, Play
from kingscrib.kings.play import IllegalPlay, check_play
from kingscrib.kings.rules import RuleSet
from kingscrib.kings.tiles import Tile, parse_tiles

REDUCED = RuleSet(reduced_first_bonus=True)


def B(**squares: str) -> dict[int, Tile]:
    """A board or a play from keyword squares: B(G7="8L", H7="7D")."""
    return {parse_square(k): Tile.parse(v) for k, v in squares.items()}


# Both generators of the engine: movegen (Position.legal_moves) and fastgen (Game).
GENERATORS = {"movegen": movegen.legal_plays, "fastgen": fastgen.legal_plays}
legal_plays = movegen.legal_plays


def engine_set(board, rack, rules=RuleSet(), generate=movegen.legal_plays) -> dict:
    """The engine's legal plays as {play key: score}; each play must come once."""
    plays = generate(board, rack, rules)
    found = {}
    for sp in plays:
        key = play_key(sp.play.placed)
        assert key not in found, f"{sp.play} generated twice"
        found[key] = sp.total
        assert sp.total == check_play(board, sp.play.placed, rules, rack).total
    return found


def assert_same_plays(board, rack, rules=RuleSet()):
    ref = ref_legal_plays(board, rack, Tile, rules.reduced_first_bonus)
    for name, generate in GENERATORS.items():
        _same(board, rack, engine_set(board, rack, rules, generate), ref, name)


def _same(board, rack, mine, ref, name):
    missing = {k: v for k, v in ref.items() if k not in mine}
    extra = {k: v for k, v in mine.items() if k not in ref}
    wrong = {k: (mine[k], ref[k]) for k in mine.keys() & ref.keys() if mine[k] != ref[k]}

    def show(d):
        return [(sorted((square_name(s), r, c) for s, r, c in k), v) for k, v in list(d.items())[:5]]

    assert not missing and not extra and not wrong, (
        f"{name}: board {({square_name(s): str(t) for s, t in board.items()})} rack {rack}:"
        f" missing {show(missing)} extra {show(extra)} wrong {show(wrong)}")


def assert_scores(board, placed, total, rack=None, rules=RuleSet()):
    """check_play gives ``total``, the reference agrees, and the generator has the play."""
    score = check_play(board, placed, rules, rack)
    assert score.total == total, score.describe()
    assert ref_check(board, placed, rules.reduced_first_bonus) == total
    if rack is None:
        rack = [t.held() for t in placed.values()]
    for generate in GENERATORS.values():
        plays = {sp.play: sp.total for sp in generate(board, rack, rules)}
        assert plays.get(Play.of(placed)) == total
    return score


def hands(score) -> dict[str, int]:
    return {h.text: h.points for h in score.hands}


# ----- worked examples -----------------------------------------------------------

def test_extending_78_to_7833_scores_4():
    # RULES.md: "78 on the board extended to 7833 scores 4" (the pre-existing fifteen counts).
    board = B(G7="7L", H7="8D")
    score = assert_scores(board, B(I7="3L", J7="3D"), 4)
    assert hands(score) == {"7833": 4}


def test_connecting_7A7A():
    # sources/000 "Connecting": a new hand 7A7A (8 points) laid against the board; the
    # line across it through the connecting tile (787: 7+8 twice, a pair of 7s) scores too.
    board = B(G5="7D", G6="8D")
    score = assert_scores(board, B(G7="7L", H7="AL", I7="7D", J7="AD"), 8 + 6)
    assert hands(score) == {"7A7A": 8, "787": 6}


def test_connecting_5QKK():
    board = B(E5="5L", E6="KL")
    score = assert_scores(board, B(D7="5D", E7="QL", F7="KD", G7="KL"), 8 + 4)
    assert hands(score) == {"5QKK": 8, "5KQ": 4}


def test_connecting_and_extending_87879_7447_is_42():
    # sources/000: 7447 = 8, 87879 = 24, five tiles in one turn = 10; total 42.
    board = B(H8="4L", H9="4D", H10="7D")
    placed = B(G7="8L", H7="7L", I7="8D", J7="7D", K7="9L")
    score = assert_scores(board, placed, 42)
    assert hands(score) == {"87879": 24, "7447": 8}
    assert score.five_tile_bonus == 10 and score.first_play_bonus == 0


def test_parallel_9TJJ5_is_28():
    # sources/000: 9TJJ5 = 14, 69 = 2, 5T = 2, five tiles = 10; total 28.
    board = B(C7="8L", D7="7D", E7="6L", F7="5D")
    placed = B(E8="9D", F8="TL", G8="JD", H8="JL", I8="5L")
    score = assert_scores(board, placed, 28)
    assert hands(score) == {"9TJJ5": 14, "69": 2, "5T": 2}


def test_flush_bonus_when_a_hand_of_five_is_one_colour():
    # 23JJ5 all light (source 002's flush example): its value plus 10 for the flush.
    board = B(G7="2L", H7="3L")
    placed = B(I7="JL", J7="JL", K7="5L")
    value, valid = ref_hand([2, 3, 11, 11, 5])
    assert valid
    score = assert_scores(board, placed, value + 10)
    assert score.hands[0].flush
    # The same with one dark tile: no flush.
    placed_dark = B(I7="JL", J7="JD", K7="5L")
    assert check_play(board, placed_dark).total == value


def test_flush_needs_not_make_the_hand_valid_but_the_hand_must_be_valid():
    # 78768 (RULES.md source 002's example) light: a valid hand and a flush.
    placed = B(G7="7L", H7="8L", I7="7L", J7="6L", K7="8L")
    value, valid = ref_hand([7, 8, 7, 6, 8])
    assert valid
    assert check_play({}, placed).total == value + 10 + 10 + 10  # flush, five, first


def test_flush_counted_for_each_hand_extended_to_five():
    # A cross: the play completes a light row of five and a light column of five.
    board = B(E7="2L", F7="3L", G7="JL", H7="JL",  # row: 23JJ + 5 at I7
              I3="4L", I4="5L", I5="6L", I6="5L")  # column: 4565 + 5? keep valid below
    placed = B(I7="5L")
    row_value, row_ok = ref_hand([2, 3, 11, 11, 5])
    col_value, col_ok = ref_hand([4, 5, 6, 5, 5])
    assert row_ok and col_ok
    assert_scores(board, placed, row_value + 10 + col_value + 10)


@pytest.mark.parametrize("rules, total", [(RuleSet(), 20), (REDUCED, 10)])
def test_first_play_bonuses(rules, total):
    # Five tiles as the first play: 5555J = 28 plus the bonuses.
    placed = B(E4="5L", F4="5D", G4="5L", H4="5D", I4="JL")
    assert check_play({}, placed, rules).total == 28 + total
    # Fewer than five tiles: the first-play bonus alone, with or without the option.
    assert check_play({}, B(E4="5L", F4="TD"), rules).total == 2 + 10


def test_reduced_first_bonus_does_not_touch_later_five_tile_plays():
    board = B(C7="8L", D7="7D", E7="6L", F7="5D")
    placed = B(E8="9D", F8="TL", G8="JD", H8="JL", I8="5L")
    assert check_play(board, placed, REDUCED).total == 28


def test_six_nine_face_is_chosen_when_placed():
    board = B(G7="6L", H7="6D")
    rack = parse_tiles("6L 2D")  # the 6/9 tile may go down as a 9
    plays = {sp.play: sp.total for sp in legal_plays(board, rack)}
    assert plays[Play.of(B(I7="6L"))] == 6  # three of a kind
    assert plays[Play.of(B(G8="9L"))] == 2 + 0  # 6 over 9: a fifteen (across: only 9)
    assert check_play(board, B(G8="9L"), rack=parse_tiles("9L")).total == 2


# ----- the rules of a play, one by one -------------------------------------------

BOARD = B(G7="7L", H7="8D")


@pytest.mark.parametrize("board, placed, fragment", [
    (BOARD, B(I7="7D", I9="8L"), "gap"),  # not touching each other, gap at I8
    (BOARD, B(I7="3L", K7="3D"), "gap"),
    (BOARD, B(I8="7D", J9="8L"), "one row or one column"),
    (BOARD, B(K10="7D", K11="8L"), "touch"),
    (BOARD, B(A7="7D", B7="8L"), "touch"),
    (BOARD, B(G7="7D"), "taken"),
    ({}, B(G7="5L"), "first play"),
    (B(E7="5L", F7="5D", G7="5L", H7="5D"), B(I7="5L", J7="5D"), "at most 5"),
    (B(E7="AL", F7="2L", G7="3L", H7="4L", I7="5L"), B(J7="6D"), "at most 5"),
    (B(E7="AL", F7="2L", G7="3L", H7="4L", I7="5L"), B(D7="6D"), "at most 5"),
    (BOARD, B(I7="QL"), "invalid"),
])
def test_illegal_plays_are_refused_with_a_reason(board, placed, fragment):
    with pytest.raises(IllegalPlay) as err:
        check_play(board, placed)
    assert fragment in str(err.value)
    assert ref_check(board, placed) is None


def test_invalid_hand_names_the_tile_as_people_read_it():
    board = B(G7="6L", H7="6D", I7="6L")
    with pytest.raises(IllegalPlay) as err:
        check_play(board, B(J7="TD"))
    # The tile as the board shows it (10, not the engine's T), its colour in a word.
    assert "hand 6 6 6 10 (G7-J7)" in str(err.value)
    assert "dark 10 at J7 scores nothing" in str(err.value)
    assert "TD" not in str(err.value)
    assert ref_check(board, B(J7="TD")) is None


def test_invalid_cross_hand_is_refused_even_when_the_line_along_is_valid():
    # As source 002's illegal examples: fine along the play, invalid across it.
    board = B(G6="7L", G7="8D")
    with pytest.raises(IllegalPlay):
        check_play(board, B(G8="QD", H8="5L"))  # G column 78Q: Q scores nothing
    assert ref_check(board, B(G8="QD", H8="5L")) is None


def test_tiles_must_come_from_the_rack():
    rack = parse_tiles("7D 3L 3L 6D KL")
    with pytest.raises(IllegalPlay, match="rack"):
        check_play(BOARD, B(I7="3L", J7="3D"), rack=rack)
    assert check_play(BOARD, B(I7="3L", J7="3L"), rack=rack).total == 4
    with pytest.raises(IllegalPlay, match="rack"):
        check_play(BOARD, B(I7="7L"), rack=rack)
    # the 6/9 tile goes down as a 9 from a rack holding a 6
    assert check_play(B(G7="6L"), B(H7="9D"), rack=rack).total == 2


@pytest.mark.parametrize("name", ["A1", "B1", "C1", "A2", "B2", "C2"])
def test_corner_patch_is_not_on_the_board(name):
    with pytest.raises(ValueError):
        parse_square(name)
    row, col = int(name[1]) - 1, "ABC".index(name[0])
    square = row * 13 + col
    board = B(D1="7L", D2="8L", A3="7L", A4="8L")
    with pytest.raises(IllegalPlay):
        check_play(board, {square: Tile(7, "D")})


def test_corner_squares_next_to_the_patch_are_playable():
    board = B(D1="7L", D2="8L")
    assert check_play(board, B(E1="8D")).total == 2
    assert check_play(board, B(D3="7D")).total == 4 + 2  # 787: two fifteens and a pair
    assert check_play({}, B(D1="5L", E1="TD")).total == 12
    assert check_play({}, B(A3="5L", A4="TD")).total == 12


def test_board_edges():
    assert check_play({}, B(I13="5L", J13="5D", K13="5L", L13="5D", M13="JD")).total == 48
    assert check_play({}, B(M9="5L", M10="5D", M11="5L", M12="5D", M13="JD")).total == 48


def test_a_play_may_pass_over_tiles_already_there():
    # F7 and I7 around 78: one line FGHI with no gap.
    board = B(G7="7L", H7="8D")
    assert check_play(board, B(F7="7D", I7="8L")).total == ref_check(board, B(F7="7D", I7="8L"))
    # ... and a line with a hole is refused.
    with pytest.raises(IllegalPlay, match="gap"):
        check_play(board, B(E7="7D", I7="8L"))


def test_single_tile_scores_both_lines():
    board = B(G6="5L", F7="TL")  # G7 joins a column with 5 and a row with T
    assert_scores(board, B(G7="TD"), 2 + 2 + 0)  # 5T down (2), TT across (2)


# ----- the generator against the reference ---------------------------------------

@pytest.mark.parametrize("rack", ["6L 9D 5L", "5L 5D JD", "AL 2D 3L"])
def test_first_plays_match_reference(rack):
    assert_same_plays({}, parse_tiles(rack))


def test_first_plays_with_five_tiles_are_legal_and_scored_right():
    rack = parse_tiles("5L 5D 5L JD 5D")
    for rules, generate in ((RuleSet(), movegen.legal_plays), (REDUCED, movegen.legal_plays),
                            (RuleSet(), fastgen.legal_plays), (REDUCED, fastgen.legal_plays)):
        plays = generate({}, rack, rules)
        assert plays
        for sp in plays:
            assert ref_check({}, sp.play.placed, rules.reduced_first_bonus) == sp.total
        best = plays[0]
        assert best.total == 28 + (20 if rules == RuleSet() else 10)
        # 5555J in every stretch of 5 squares (rows 1-2 have 10 squares, the others 13;
        # columns the same), in each of the 5!/(2!2!) = 30 colour orders.
        fives = [sp for sp in plays if len(sp.play) == 5]
        assert len(fives) == 2 * (2 * 6 + 11 * 9) * 30


def _first_play(game: Game, rng: random.Random) -> Play:
    """A random legal first play found without the (slow) full generator."""
    rack = game.racks[game.turn]
    for _ in range(1000):
        k = rng.randint(2, len(rack))
        tiles = rng.sample(rack, k)
        faces = [rng.choice(t.faces()) for t in tiles]
        if not ref_hand([f.rank for f in faces])[1]:
            continue
        across = rng.random() < 0.5
        row, col = rng.randrange(2, 13 - (0 if across else k)), rng.randrange(3, 13 - (k if across else 0))
        squares = [(row + (0 if across else i)) * 13 + col + (i if across else 0) for i in range(k)]
        return Play.of(dict(zip(squares, faces)))
    return None


@cache
def position_pool() -> list[tuple[dict, list]]:
    """Boards of random games (random legal moves from random seeds), with the tiles
    not on the board."""
    pool = []
    for seed in range(6):
        rng = random.Random(seed)
        game = Game.new(2, seed=1000 + seed)
        first = _first_play(game, rng)
        if first is None:
            continue
        game.play(first)
        for _ in range(14):
            plays = game.legal_moves()
            game.play(rng.choice(plays).play if plays else Pass())
            if game.is_over:
                break
            pool.append(dict(game.board))
    return pool


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.integers(1, 5), st.randoms(use_true_random=False))
def test_midgame_plays_match_reference(index, size, rnd):
    pool = position_pool()
    board = pool[index % len(pool)]
    unseen = full_bag()
    for t in board.values():
        unseen[(t.held().rank, t.colour)] -= 1
    tiles = [Tile(r, c) for (r, c), n in unseen.items() for _ in range(n)]
    rack = rnd.sample(tiles, size)
    assert_same_plays(board, rack)


def test_a_crowded_board_with_many_sixes_and_nines():
    board = B(F6="6L", G6="9D", F7="9L", G7="6D", H7="6L", E9="5L", E10="TL")
    # board hands: 69 across, 96 down, 966 across (F7..H7): 9+6 twice, 66 pair
    assert_same_plays(board, parse_tiles("6L 6D 9L 5D"))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.randoms(use_true_random=False), st.integers(1, 5),
       st.booleans(), st.booleans())
def test_check_play_agrees_with_reference_on_any_placement(index, rnd, size, across, near):
    """Arbitrary placements, mostly illegal: legal exactly when the reference says so,
    with the same score; an illegal one raises IllegalPlay with a message."""
    pool = position_pool()
    board = pool[index % len(pool)] if index % 7 else {}
    squares = [r * 13 + c for r in range(13) for c in range(13) if not (r < 2 and c < 3)]
    if near and board:
        anchor = rnd.choice(sorted(board))
    else:
        anchor = rnd.choice(squares)
    step = 1 if across else 13
    start = anchor - step * rnd.randint(0, size)
    line = [start + step * i for i in range(size + rnd.randint(0, 2))]
    line = [s for s in line if s in squares and s not in board]
    if rnd.random() < 0.2 and line:
        line[-1] = rnd.choice(squares)  # likely off the line
    faces = [Tile(rnd.randint(1, 13), rnd.choice("LD")) for _ in line]
    placed = dict(zip(line, faces))
    if not placed:
        return
    expected = ref_check(board, placed)
    try:
        got = check_play(board, placed).total
    except IllegalPlay as err:
        assert str(err)
        got = None
    assert got == expected, (placed, board)
