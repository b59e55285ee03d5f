"""The best-score mode (C core and pure Python) equals the highest total of the full
generator and of the reference generator, on random positions."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kings_positions import position_after

from kingscrib.kings import fastgen, movegen
from kingscrib.kings.board import PLAYABLE
from kingscrib.kings.rules import RuleSet
from kingscrib.kings.tiles import full_set

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check(board, rack, rules=RuleSet()) -> None:
    expected = max((r[1] for r in fastgen.generate(board, rack, rules, use_core=False)),
                   default=None)
    assert fastgen.best_score(board, rack, rules, use_core=False) == expected
    assert fastgen.best_score(board, rack, rules) == expected


@SETTINGS
@given(seed=st.integers(0, 10**6), turns=st.integers(0, 40))
def test_best_score_is_the_generators_maximum_in_game_positions(seed: int, turns: int) -> None:
    game = position_after(seed, turns)
    if not game.is_over:
        check(game.board, game.racks[game.turn], game.rules)


@SETTINGS
@given(seed=st.integers(0, 10**6), tiles=st.integers(0, 40), rack_size=st.integers(0, 5),
       reduced=st.booleans())
def test_best_score_is_the_generators_maximum_on_scattered_boards(
        seed: int, tiles: int, rack_size: int, reduced: bool) -> None:
    """Tiles dropped anywhere (lines need not be valid hands), racks of any size."""
    board, rack = scattered_board(seed, tiles, rack_size)
    check(board, rack, RuleSet(reduced_first_bonus=reduced))


def scattered_board(seed: int, tiles: int, rack_size: int) -> tuple[dict, list]:
    """``tiles`` tiles dropped on random squares and a rack of ``rack_size`` from the rest."""
    rng = random.Random(seed)
    pool = full_set()
    rng.shuffle(pool)
    squares = rng.sample(sorted(PLAYABLE), tiles)
    board = {q: pool.pop().faces()[0] for q in squares}
    return board, [pool.pop() for _ in range(rack_size)]


@pytest.mark.parametrize("seed", range(3))
def test_best_score_matches_the_reference_generator(seed: int) -> None:
    """Against the readable reference generator, independent of fastgen."""
    game = position_after(seed, 12)
    rack = game.racks[game.turn]
    expected = max((p.total for p in movegen.legal_plays(game.board, rack, game.rules)),
                   default=None)
    assert fastgen.best_score(game.board, rack, game.rules) == expected
    assert fastgen.best_score(game.board, rack, game.rules, use_core=False) == expected


def _old_best(board, rack, rules=RuleSet()):
    """How the defence found the best reply before: build every play, take the top score."""
    return max((r[1] for r in fastgen.generate(board, rack, rules, one_span=True)), default=None)


@pytest.mark.parametrize("seed", [3, 11])
def test_equity_makes_the_same_choices_as_with_the_full_generator(seed: int, monkeypatch) -> None:
    """The best-score mode changes the equity player's speed, not its play: a whole game
    with the same seed gives the same actions as the full-generator path."""
    from kingscrib.players.kings import defence
    from kingscrib.players.kings.driver import play_game
    from kingscrib.players.kings.equity import EquityPlayer

    def actions(players_seed: int) -> list[str]:
        game = play_game([EquityPlayer(seed=players_seed), EquityPlayer(seed=players_seed + 1)],
                         seed=seed)
        return [str(entry) for entry in game.history]

    fast = actions(seed)
    monkeypatch.setattr(defence, "best_score", _old_best)
    assert actions(seed) == fast
    assert len(fast) > 10
