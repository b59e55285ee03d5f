"""Formats: positions (RULES.md Part 3) and the human move notation."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kings_reference import full_bag, ref_legal_plays
from test_kings_plays import position_pool

from kingscrib.kings.board import parse_square
from kingscrib.kings.moves import Exchange, Pass, Play
from kingscrib.kings.notation import NotationError, format_play, parse_action, parse_play
from kingscrib.kings.position import Position, PositionError
from kingscrib.kings.rules import RuleSet
from kingscrib.kings.tiles import Tile, parse_tiles

EXAMPLE = {"board": {"G7": "8L", "H7": "7D"}, "rack": ["7L", "6D", "AL", "KD", "4L"],
           "bag": 60, "rules": {"reduced_first_bonus": False}}


def B(**squares: str) -> dict[int, Tile]:
    return {parse_square(k): Tile.parse(v) for k, v in squares.items()}


# ----- positions -----------------------------------------------------------------

def test_the_example_position():
    p = Position.from_json(EXAMPLE)
    assert p.board == B(G7="8L", H7="7D")
    assert p.rack == parse_tiles("7L 6D AL KD 4L")
    assert p.bag == 60 and p.rules == RuleSet()
    assert Position.from_json(json.dumps(EXAMPLE)) == p
    assert Position.from_json(p.to_json()) == p
    moves = p.legal_moves()
    ref = ref_legal_plays(p.board, p.rack, Tile)
    assert {frozenset((s, t.rank, t.colour) for s, t in m.play.tiles): m.total
            for m in moves} == ref
    assert moves[0].total == max(ref.values())
    for m in moves[:20]:
        data = m.to_json()
        assert data["score"] == m.total
        assert Play.from_json(data) == m.play
        assert p.check(m.play).total == m.total


def test_bag_and_rules_may_be_left_out_and_nine_is_read_as_six():
    p = Position.from_json({"board": {}, "rack": ["9L", "9D"]})
    assert p.rack == parse_tiles("6L 6D") and p.bag is None and p.rules == RuleSet()
    assert p.first_play
    assert Position.from_json({"board": {"G7": "9L", "H7": "6L"}, "rack": []}).board == B(
        G7="9L", H7="6L")


@pytest.mark.parametrize("data", [
    "not json", "[1, 2]", 7, None, [],
    {"board": [], "rack": []},
    {"board": {"A1": "7L"}, "rack": []},  # the corner patch
    {"board": {"C2": "7L"}, "rack": []},
    {"board": {"N1": "7L"}, "rack": []},
    {"board": {"G14": "7L"}, "rack": []},
    {"board": {"G7": "7X"}, "rack": []},
    {"board": {"G7": 7}, "rack": []},
    {"board": {"G7": "7L", "g7": "8L"}, "rack": []},
    {"board": {}, "rack": "7L 8L"},
    {"board": {}, "rack": ["7L"] * 6},
    {"board": {}, "rack": ["ZZ"]},
    {"board": {}, "rack": [None]},
    {"board": {"G7": "7L", "H7": "7L", "I7": "7L"}, "rack": ["7L", "7L"]},  # five 7L
    {"board": {}, "rack": ["6L"] * 5, "bag": 0, "x": 1},
    {"board": {"G7": "9L", "H7": "9L", "I7": "6L", "J7": "6L", "K7": "9L", "L7": "6L",
               "M7": "9L", "G8": "6L"}, "rack": ["6L"]},  # nine light 6/9 tiles
    {"board": {}, "rack": [], "bag": -1},
    {"board": {}, "rack": [], "bag": 1.5},
    {"board": {}, "rack": [], "bag": True},
    {"board": {}, "rack": [], "bag": "60"},
    {"board": {}, "rack": ["7L"], "bag": 104},
    {"board": {}, "rack": [], "rules": {"nobs": True}},
    {"board": {}, "rack": [], "rules": {"joker": "yes"}},
    {"board": {}, "rack": [], "rules": {"exchange": "never"}},
    {"board": {}, "rack": [], "rules": []},
])
def test_malformed_positions_are_refused(data):
    with pytest.raises(PositionError):
        Position.from_json(data)


_leaf = st.one_of(st.none(), st.booleans(), st.integers(-5, 200), st.floats(allow_nan=False),
                  st.sampled_from(["7L", "9D", "TL", "G7", "A1", "M13", "", "x", "10L", "KD"]))
_json = st.recursive(_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=6),
    st.dictionaries(st.sampled_from(["board", "rack", "bag", "rules", "G7", "H7", "joker",
                                     "exchange", "solitaire", "A1"]), inner, max_size=4)),
    max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(_json)
def test_any_json_is_a_position_or_a_position_error(data):
    try:
        p = Position.from_json(data)
    except PositionError:
        return
    assert len(p.rack) <= 5
    assert Position.from_json(p.to_json()) == p


# ----- notation ------------------------------------------------------------------

BOARD = B(G7="8L", H7="7D")
RACK = parse_tiles("7L 6D AL KD 4L")


@pytest.mark.parametrize("text, placed", [
    ("D7 across AL 6D 7L", B(D7="AL", E7="6D", F7="7L")),
    ("I7 across 7L", B(I7="7L")),
    ("I7 7L", B(I7="7L")),
    ("i7 7l", B(I7="7L")),
    ("F7 across 7L (8L) (7D) 9D", B(F7="7L", I7="9D")),
    ("F7 across 7 (8) (7D) 9", B(F7="7L", I7="9D")),
    ("G6 down 7L (8L)", B(G6="7L")),
    ("G6 down 7(8)", B(G6="7L")),
    ("I7 across AL4L", B(I7="AL", J7="4L")),
])
def test_parse_play(text, placed):
    assert parse_play(text, BOARD, RACK) == Play.of(placed)


@pytest.mark.parametrize("text", [
    "", "   ", "Z9 across 7L", "A1 7L", "G7 across", "I7 7L 4L", "I7 across 7X",
    "G7 7L", "I7 across (7L)", "F7 across 7L 8L", "F7 across 7L (7D)", "I7 across 7L ((8L))",
    "I7 across 7L)", "I7 across (8L", "M7 across 4L AL", "I7 across 8L", "I7 across 7L 7L",
    "I7 across 5L", "I7 across 1", "I7 sideways 7L", "I7 across 7LL",
])
def test_bad_notation_is_refused(text):
    with pytest.raises(NotationError):
        parse_action(text, BOARD, RACK)


def test_colours_are_needed_when_the_rack_does_not_decide():
    rack = parse_tiles("7L 7D AL")
    with pytest.raises(NotationError):
        parse_play("I7 7", BOARD, rack)
    assert parse_play("I7 7D", BOARD, rack) == Play.of(B(I7="7D"))
    with pytest.raises(NotationError):
        parse_play("I7 7", BOARD, None)
    assert parse_play("I7 7D", BOARD, None) == Play.of(B(I7="7D"))


def test_exchange_and_pass():
    assert parse_action("pass", BOARD, RACK) == Pass()
    assert parse_action("  PASS ", BOARD, RACK) == Pass()
    assert parse_action("exchange 7L KD", BOARD, RACK) == Exchange.of(parse_tiles("7L KD"))
    assert parse_action("x 7 K", BOARD, RACK) == Exchange.of(parse_tiles("7L KD"))
    assert parse_action("exchange 9D", BOARD, RACK) == Exchange.of(parse_tiles("6D"))
    for bad in ("exchange", "exchange 5L", "exchange (7L)", "exchange 7L 7L", "pass 7L"):
        with pytest.raises(NotationError):
            parse_action(bad, BOARD, RACK)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.integers(1, 5), st.randoms(use_true_random=False))
def test_notation_round_trips_on_every_legal_play(index, size, rnd):
    pool = position_pool()
    board = pool[index % len(pool)]
    unseen = full_bag()
    for t in board.values():
        unseen[(t.held().rank, t.colour)] -= 1
    rack = rnd.sample([Tile(r, c) for (r, c), n in unseen.items() for _ in range(n)], size)
    position = Position(dict(board), rack)
    for move in position.legal_moves():
        text = format_play(move.play, board)
        assert parse_play(text, board, rack) == move.play, text
        assert parse_play(text, board) == move.play, text
        assert position.parse(text) == move.play
        assert position.notation(move.play) == text
