"""The best-equity mode (the expert's play-outs) finds the same play as building every play
and taking the best score + leave, and its equity is what the reference generator and the
leave table give independently."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kings_positions import position_after
from test_best_score import scattered_board

from kingscrib.kings import fastgen, movegen
from kingscrib.kings.play import check_play
from kingscrib.kings.tiles import NINE, SIX
from kingscrib.players.kings.equity import best_static, best_static_native
from kingscrib.players.kings.leaves import shipped

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TABLE = shipped()


def _penalty(tile) -> int:
    rank = SIX if tile.rank == NINE else tile.rank
    return min(rank, 10)


def brute_equity(board, rack, bag: int, rules, opp_penalty: int) -> float | None:
    """The best score + leave over the reference generator's plays, the leave valued from
    the tiles left on the rack (the rules of :mod:`kingscrib.players.kings.equity`)."""
    best = None
    for p in movegen.legal_plays(board, rack, rules):
        left = list(rack)
        for _, tile in p.play.tiles:
            left.remove(tile.held())
        if bag == 0:
            leave = opp_penalty + 5.0 if not left else -float(sum(_penalty(t) for t in left))
        else:
            leave = TABLE.value(left)
            played = len(rack) - len(left)
            if bag < played:
                leave *= bag / played
        eq = p.total + leave
        best = eq if best is None else max(best, eq)
    return best


def check(board, rack, rules, bag: int, opp_penalty: int) -> None:
    expected = best_static(board, rack, bag, rules, TABLE, opp_penalty)
    got = best_static_native(board, rack, bag, rules, TABLE, opp_penalty)
    assert got == expected  # the same play, ties broken the same way
    if got[1] is not None:  # and it is a legal play of the position
        play = fastgen.to_play(got[1][2], got[1][3])
        assert got[1][1] == check_play(board, play.placed, rules).total


@SETTINGS
@given(seed=st.integers(0, 10**6), turns=st.integers(1, 40), bag=st.sampled_from([0, 1, 2, 4, 30]),
       opp_penalty=st.integers(0, 40))
def test_best_equity_finds_the_play_the_full_generator_ranks_first(
        seed: int, turns: int, bag: int, opp_penalty: int) -> None:
    game = position_after(seed, turns)
    if not game.is_over:
        check(game.board, game.racks[game.turn], game.rules, bag, opp_penalty)


@SETTINGS
@given(seed=st.integers(0, 10**6), tiles=st.integers(1, 40), rack_size=st.integers(0, 5),
       bag=st.sampled_from([0, 3, 30]))
def test_best_equity_on_scattered_boards(seed: int, tiles: int, rack_size: int, bag: int) -> None:
    """Tiles dropped anywhere (lines need not be valid hands), racks of any size."""
    board, rack = scattered_board(seed, tiles, rack_size)
    check(board, rack, position_after(0, 0).rules, bag, 9)


@pytest.mark.parametrize("seed, bag", [(0, 30), (1, 2), (2, 0), (5, 30)])
def test_best_equity_matches_the_reference_generator(seed: int, bag: int) -> None:
    """The equity found equals the best score + leave over the readable reference
    generator's plays, the leave valued here from the tiles kept."""
    game = position_after(seed, 10 + seed)
    rack = game.racks[game.turn]
    eq, raw = best_static_native(game.board, rack, bag, game.rules, TABLE, 12)
    expected = brute_equity(game.board, rack, bag, game.rules, 12)
    assert raw is not None and expected is not None
    assert eq == pytest.approx(expected, abs=1e-9)


def test_best_equity_refuses_what_it_cannot_do() -> None:
    game = position_after(3, 6)
    rack = game.racks[game.turn]
    with pytest.raises(ValueError, match="not empty"):
        fastgen.best_equity({}, rack, [0.0] * 32)
    if fastgen.NATIVE:
        with pytest.raises(ValueError, match="leave values"):
            fastgen.best_equity(game.board, rack, [0.0] * 3)
