"""The batched Kings Cribbage environment plays kings_v1's game: hundreds of random games
side by side with ``kings_v1`` on the same bags, step by step."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium import spaces

from kingscrib.env.batched_kings import OBSERVATION_SIZE, TILES, BatchedKings
from kingscrib.env.kings import observation_space
from kingscrib.env.kings_actions import ACTIONS, FIRST_PLAY, MAX_PLAYS
from kingscrib.env.kings_v1 import KingsEnvV1
from kingscrib.kings.fastgen import face_tile
from kingscrib.kings.tiles import RACK_SIZE, full_set

FULL = np.array(sorted(t.rank * 2 + (t.colour == "L") for t in full_set()))


class PackedEnv(KingsEnvV1):
    """``kings_v1`` whose game starts from a given bag and first player."""

    def __init__(self, bag: np.ndarray, first: int, players: int) -> None:
        self._bag, self._first = bag, first
        super().__init__(players=players, notation=False)

    def _start(self, seed: int) -> None:
        super()._start(seed)
        game = self.game
        game.racks = [[] for _ in range(game.players)]
        game.bags = [[face_tile(int(f)) for f in self._bag]]
        game.first_player = game.turn = self._first
        for k in range(game.players):
            game._draw((self._first + k) % game.players, RACK_SIZE)


def play_both(games: int, seed: int, players: int, observe_every: int = 1) -> dict:
    """Random games in both environments; every step must agree. What was compared."""
    rng = np.random.default_rng(seed)
    bags = np.array([rng.permutation(FULL) for _ in range(games)])
    firsts = rng.integers(0, players, games)
    batched = BatchedKings(games, seed=seed, autoreset=False, players=players)
    obs, mask = batched.reset(bags=bags, first_players=firsts)
    engines = [PackedEnv(bags[g], int(firsts[g]), players) for g in range(games)]
    for env in engines:
        env.reset(seed=0)
    space = observation_space(players)
    live = np.ones(games, bool)
    seen = {"steps": 0, "plays": 0, "exchanges": 0, "passes": 0, "capped": 0,
            "capped_later": 0}
    while live.any():
        actions = batched.random_actions().copy()
        expected = {}
        for g in np.flatnonzero(live):
            env = engines[g]
            agent = env.agent_selection
            assert batched.to_act()[g] == env.possible_agents.index(agent), (g, seen)
            seen_by = env.observe(agent)
            assert np.array_equal(mask[g], seen_by["action_mask"]), (
                g, seen, np.flatnonzero(mask[g] != seen_by["action_mask"])[:10])
            info = env.infos[agent]
            assert batched.plays_before_cap[g] == info["plays_before_cap"], (g, seen)
            seen["capped"] += info["plays_before_cap"] > MAX_PLAYS
            seen["capped_later"] += info["plays_before_cap"] > MAX_PLAYS and bool(env.game.board)
            if info["plays_before_cap"] > MAX_PLAYS:  # past the cap: the very plays kept
                assert batched.plays(g) == [
                    (tuple(squares), tuple(faces), total)
                    for _, total, squares, faces in env.turn_actions().plays], (g, seen)
            if seen["steps"] % observe_every == 0:
                flat = spaces.flatten(space, seen_by["observation"])
                assert np.array_equal(obs[g], flat), (g, seen, np.flatnonzero(obs[g] != flat))
            a = int(actions[g])
            if a >= FIRST_PLAY:  # the same play behind the index, scored alike
                _, total, squares, faces = env.turn_actions().plays[a - FIRST_PLAY]
                assert batched.play(g, a) == (squares, faces, total), (g, seen)
                seen["plays"] += 1
            else:
                seen["exchanges" if a else "passes"] += 1
            before = env._seat_points()
            env.step(a)
            after = env._seat_points()
            expected[g] = ([x - y for x, y in zip(after, before)],
                           [env.rewards[p] for p in env.possible_agents], env.finished())
            seen["steps"] += 1
        result = batched.step(actions)
        obs, mask = result.obs, result.mask  # copies: the next step does not change them
        for g, (points, rewards, over) in expected.items():
            assert result.points[g].tolist() == points, (g, seen)
            assert result.rewards[g].tolist() == rewards, (g, seen)
            assert bool(result.done[g]) == over, (g, seen)
            if over:
                assert result.final_scores[g].tolist() == engines[g]._seat_points()
                live[g] = False
            elif 0 < actions[g] < FIRST_PLAY:
                # an exchange shook the bag: the engine's bag takes the batched order (the
                # same tiles; the order is hidden from every seat)
                inside = batched.bag[g, :batched.bag_size[g]]
                bag = engines[g].game.bags[0]
                assert sorted(inside) == sorted(t.rank * 2 + (t.colour == "L") for t in bag)
                bag[:] = [face_tile(int(f)) for f in inside]
    return seen


def test_hundreds_of_random_games_agree_with_kings_v1_step_by_step():
    """Same seat, mask, plays (in order, past the cap too), observation, points and
    rewards at every step of 200 two-player games."""
    seen = play_both(200, seed=1, players=2)
    assert seen["steps"] > 200 * 30
    assert seen["plays"] > 1000 and seen["exchanges"] > 1000 and seen["passes"] > 100
    assert seen["capped"] > 200  # most openings are past the cap, and some later turns:
    assert seen["capped_later"] > 100


@pytest.mark.parametrize("players", [3, 4])
def test_three_and_four_seats_agree_with_kings_v1(players):
    seen = play_both(30, seed=players, players=players, observe_every=3)
    assert seen["steps"] > 30 * 30


def test_an_illegal_action_ends_that_game_only_with_a_penalty():
    env = BatchedKings(3, seed=5)
    obs, mask = env.reset()
    seat = int(env.to_act()[1])
    actions = env.random_actions().copy()
    actions[1] = FIRST_PLAY + int(env.n_kept[1])  # one past the last play
    result = env.step(actions)
    assert result.illegal.tolist() == [False, True, False]
    assert result.done.tolist() == [False, True, False]
    assert result.rewards[1, seat] == -1.0 and result.rewards[1, 1 - seat] == 0.0
    assert result.rewards[[0, 2]].tolist() == [[0, 0], [0, 0]]
    assert env.turns[1] == 0 and result.mask[1, 0] == 1  # the slot started a new game


def test_a_slots_games_depend_on_the_seed_and_slot_only_and_repeat():
    def run(size, seed):
        env = BatchedKings(size, seed=seed)
        env.reset()
        total = np.zeros((size, 2))
        for _ in range(120):
            total += env.step(env.random_actions()).rewards
        return total

    small = run(4, 9)
    assert np.array_equal(small, run(16, 9)[:4])
    assert np.array_equal(small, run(4, 9))
    assert not np.array_equal(run(4, 10), small)


def test_bad_arguments_are_refused_with_the_reason():
    env = BatchedKings(2)
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros(3, int))
    with pytest.raises(ValueError, match="104 tiles"):
        env.reset(bags=np.zeros((2, TILES), int))
    with pytest.raises(ValueError, match="0 to 1"):
        env.reset(first_players=np.array([0, 2]))
    with pytest.raises(ValueError, match="2 to 4 players"):
        BatchedKings(2, players=5)
    with pytest.raises(ValueError, match="not a play"):
        env.play(0, 31)


def test_the_spaces_match_kings_v1():
    assert spaces.flatdim(observation_space(2)) == OBSERVATION_SIZE
    assert BatchedKings.actions == ACTIONS


def test_what_reset_and_step_return_is_a_copy_the_next_step_leaves_alone():
    """As in batched Cribbage: kept arrays stay as returned; ``copy=False`` hands out the
    environment's own arrays, which the next step rewrites."""
    env = BatchedKings(4, seed=4)
    obs, mask = env.reset()
    kept = [(obs, obs.copy()), (mask, mask.copy())]
    first = env.step(env.random_actions())
    kept += [(a, a.copy()) for a in (first.obs, first.mask, first.rewards, first.points)]
    for _ in range(5):
        env.step(env.random_actions())
    for returned, snapshot in kept:
        assert np.array_equal(returned, snapshot)

    fast = BatchedKings(4, seed=4, copy=False)
    obs, _ = fast.reset()
    before = obs.copy()
    step = fast.step(fast.random_actions())
    assert step.obs is obs and not np.array_equal(obs, before)
