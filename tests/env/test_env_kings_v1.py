"""kings_v1's enumerated encoding: past the cap it keeps the best play of every leave and
of every tile sequence, says what it dropped, and describes each play for policies that
score actions."""

from __future__ import annotations

import random

import numpy as np
import pytest

from kingscrib.env import kings_v1
from kingscrib.env.kings_actions import (
    FEATURES,
    FIRST_PLAY,
    MAX_PLAYS,
    keep_best,
    leave_key,
    turn_actions,
)
from kingscrib.kings.tiles import parse_tiles


def _held(tile) -> tuple[int, str]:
    return (6 if tile.rank == 9 else tile.rank), tile.colour


def _opening(rack: str):
    env = kings_v1.raw_env()
    env.reset(seed=0)
    env.game.racks[env.game.turn] = parse_tiles(rack)
    env._turn_key = -1
    return env


def test_an_opening_over_the_cap_keeps_every_leave_and_tile_sequence():
    env = _opening("5L 5D 5L JD TL")
    game = env.game
    every = game.legal_moves()  # the engine's own list, best first
    assert len(every) == 40542
    kept = [env.turn_actions().action(i) for i in
            np.flatnonzero(env.observe(env.agent_selection)["action_mask"][FIRST_PLAY:])
            + FIRST_PLAY]
    assert len(kept) == MAX_PLAYS and set(kept) <= {sp.play for sp in every}
    total = {sp.play: sp.total for sp in every}
    assert [total[p] for p in kept] == sorted((total[p] for p in kept), reverse=True)
    assert total[kept[0]] == every[0].total

    def leave(play):
        return tuple(sorted(_held(t) for _, t in play.tiles))

    def sequence(play):
        return tuple(t for _, t in play.tiles)

    for key in (leave, sequence):
        best: dict = {}
        for sp in every:
            best[key(sp.play)] = max(best.get(key(sp.play), -1), sp.total)
        got: dict = {}
        for play in kept:
            got[key(play)] = max(got.get(key(play), -1), total[play])
        assert got == best, key.__name__  # each one's best score is among the kept
    info = env._info(game.turn)
    assert info["plays_before_cap"] == 40542
    assert info["plays_dropped"] == 40542 - MAX_PLAYS
    # kings_v0's cap, the first 2,048 plays, loses some leaves here
    first = {leave(sp.play) for sp in every[:MAX_PLAYS]}
    assert first < {leave(sp.play) for sp in every}


def test_keep_best_keeps_each_tier_in_reference_order():
    rng = random.Random(3)
    for _ in range(200):
        raw = sorted((rng.randrange(50), rng.randrange(30), (rng.randrange(169),),
                      tuple(rng.choice([12, 13, 18, 19, 4]) for _ in range(rng.randint(1, 3))))
                     for _ in range(rng.randint(1, 120)))
        cap = rng.randint(1, 60)
        kept = keep_best(raw, cap)
        assert len(kept) == min(cap, len(raw))
        assert kept == sorted(kept) and all(k in raw for k in kept)
        leaves = {leave_key(r) for r in raw}
        if len(leaves) <= cap:
            for key in leaves:
                assert next(r for r in raw if leave_key(r) == key) in kept
        else:  # the best of the first ``cap`` leaves, in reference order
            firsts = []
            for r in raw:
                if leave_key(r) not in {leave_key(f) for f in firsts}:
                    firsts.append(r)
            assert kept == firsts[:cap]
        if len(raw) <= cap:
            assert kept == raw


def _mid_game(seed: int, turns: int, **kwargs):
    env = kings_v1.raw_env(**kwargs)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while len(env.game.history) < turns or not env.game.board:
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)
                                                ["action_mask"]))))
    return env


def test_each_play_is_described_by_its_features():
    env = _mid_game(4, 6, features=True)
    game = env.game
    seat = game.turn
    obs = env.observe(env.agent_selection)
    rows = obs["observation"]["plays"]
    assert env.observation_space(env.agent_selection).contains(obs)
    actions = env.turn_actions()
    plays = np.flatnonzero(obs["action_mask"][FIRST_PLAY:])
    assert len(plays) > 100 and not rows[len(plays):].any()
    scores = {sp.play: sp.total for sp in game.legal_moves()}
    rack = sorted(game.racks[seat])
    n = 5
    for k in plays:
        play = actions.action(FIRST_PLAY + int(k))
        row = dict(zip(FEATURES, rows[k].tolist()))
        assert row["score"] == scores[play] and row["tiles"] == len(play.tiles)
        for i, (square, tile) in enumerate(play.tiles):
            assert (row[f"square_{i}"], row[f"rank_{i}"], row[f"colour_{i}"]) == (
                square + 1, tile.rank, 1 if tile.colour == "L" else 2)
        assert all(row[f"square_{i}"] == 0 for i in range(len(play.tiles), n))
        left = list(rack)
        for _, tile in play.tiles:
            left.remove(next(t for t in left if _held(t) == _held(tile)))
        assert [(row[f"leave_rank_{i}"], row[f"leave_colour_{i}"]) for i in range(n)] == [
            (t.rank, 1 if t.colour == "L" else 2) for t in left] + [(0, 0)] * (n - len(left))
    other = env.possible_agents[(seat + 1) % 2]
    assert not env.observe(other)["observation"]["plays"].any()
    info = env._info(seat)
    assert info["plays_dropped"] == 0 and info["plays_before_cap"] == len(plays)


def test_features_are_for_the_enumerated_encoding():
    with pytest.raises(ValueError, match="the factored encoding has no play indexes"):
        kings_v1.env(encoding="factored", features=True)
    env = kings_v1.raw_env(encoding="factored")
    env.reset(seed=1)
    assert env._info(env.game.turn)["plays_dropped"] == 0  # every play can be placed


def test_v0_keeps_the_first_plays():
    env = _opening("5L 5D 5L JD TL")
    v0 = turn_actions(env.game)
    assert v0.plays == v0.uncapped[:MAX_PLAYS]


@pytest.mark.parametrize("kwargs,games", [
    ({"players": 2}, 4), ({"players": 3, "rules": {"joker": True, "servant": True}}, 3),
    ({"players": 2, "encoding": "factored"}, 2),
])
def test_the_environment_plays_the_games_the_checked_engine_plays(kwargs, games):
    """The environment applies its plays without checking them again (Game.play_legal):
    replayed through the engine's checked path, its games give the same turns, score
    breakdowns included, and the same final state."""
    from kingscrib.kings.game import Game

    env = kings_v1.env(**kwargs)
    rng = np.random.default_rng(5)
    for g in range(games):
        env.reset(seed=g)
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            env.step(None if terminated or truncated else
                     int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        game = env.unwrapped.game
        assert game.is_over and any(t.action == "play" for t in game.history)
        replayed = Game.from_record(game.to_record())
        assert replayed.history == game.history
        assert (replayed.board, replayed.racks, replayed.scores, replayed.end) == \
            (game.board, game.racks, game.scores, game.end)
