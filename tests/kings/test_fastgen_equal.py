"""The fast generator returns exactly the reference generator's plays, scores and order."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kings_positions import position_after

from kingscrib.kings import fastgen, movegen
from kingscrib.kings.board import PLAYABLE
from kingscrib.kings.rules import RuleSet
from kingscrib.kings.tiles import Tile, full_set, parse_tiles

SETTINGS = settings(max_examples=20, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def same(board, rack, rules=RuleSet()) -> None:
    ref = movegen.legal_plays(board, rack, rules)
    fast = fastgen.legal_plays(board, rack, rules)
    assert [(p.play, p.total) for p in fast] == [(p.play, p.total) for p in ref]
    # The pure-Python path (the fallback when the C core is not built) agrees too.
    python = sorted(fastgen.generate(board, rack, rules, use_core=False))
    assert [(fastgen.to_play(r[2], r[3]), r[1]) for r in python] == \
        [(p.play, p.total) for p in ref]
    # The C core's raw plays are the pure-Python ones, sort codes included.
    assert sorted(fastgen.generate(board, rack, rules)) == python


@SETTINGS
@given(seed=st.integers(0, 10**6), turns=st.integers(1, 40))
def test_same_plays_in_game_positions(seed: int, turns: int) -> None:
    game = position_after(seed, turns)
    if not game.is_over:
        same(game.board, game.racks[game.turn], game.rules)


@SETTINGS
@given(seed=st.integers(0, 10**6), tiles=st.integers(1, 40), rack_size=st.integers(1, 5))
def test_same_plays_on_scattered_boards(seed: int, tiles: int, rack_size: int) -> None:
    """Tiles dropped anywhere (lines need not be valid hands): the rules still decide."""
    rng = random.Random(seed)
    pool = full_set()
    rng.shuffle(pool)
    squares = rng.sample(sorted(PLAYABLE), tiles)
    board = {}
    for s in squares:
        t = pool.pop()
        if t.is_six_nine and rng.random() < 0.5:
            t = Tile(9, t.colour)
        board[s] = t
    rack = pool[:rack_size]
    same(board, rack)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6), reduced=st.booleans(), size=st.integers(1, 3))
def test_same_first_plays(seed: int, reduced: bool, size: int) -> None:
    rng = random.Random(seed)
    rack = rng.sample(full_set(), size)
    same({}, rack, RuleSet(reduced_first_bonus=reduced))


def test_first_play_with_a_full_rack_and_flushes() -> None:
    # 5 tiles of one colour score a flush and the five-tile bonus; both bonus rules.
    for rules in (RuleSet(), RuleSet(reduced_first_bonus=True)):
        same({}, parse_tiles("5L 5L 5L 5L TL"), rules)
        same({}, parse_tiles("6D 6D 3D 3D"), rules)


def test_one_span_first_plays_are_the_distinct_sequences() -> None:
    rack = parse_tiles("5L 5D 5L JD TL")
    every = fastgen.generate({}, rack)
    one = fastgen.generate({}, rack, one_span=True)
    assert {r[3] for r in one} == {r[3] for r in every}
    assert len({r[3] for r in one}) == len(one)
    best = max(r[1] for r in every)
    assert max(r[1] for r in one) == best


def test_the_c_core_is_built_or_the_fallback_is_used() -> None:
    # Either way legal_plays works; NATIVE tells which path ran.
    assert isinstance(fastgen.NATIVE, bool)


def test_breakdown_matches_the_rules() -> None:
    game = position_after(11, 12)
    fast = fastgen.legal_plays(game.board, game.racks[game.turn], game.rules)
    for sp in fast[:30]:
        assert sp.score.total == sp.total
        assert sp.to_json()["score"] == sp.total
