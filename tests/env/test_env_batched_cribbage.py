"""The batched Cribbage environment plays by the engine's rules: thousands of random games
side by side with ``cribbage_v1`` on the same packs, step by step."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium import spaces

from kingscrib.classic.cards import deck
from kingscrib.classic.game import ClassicGame
from kingscrib.env.batched_cribbage import OBSERVATION_SIZE, BatchedCribbage
from kingscrib.env.cribbage import ACTIONS, GO
from kingscrib.env.cribbage_v1 import CribbageEnvV1, observation_space

CARDS = deck()  # deck()[i].number == i
DEALS = 48  # packs given per game: far more deals than a two-player game takes


class PackedGame(ClassicGame):
    """An engine game dealt from given packs, with a given first dealer."""

    def __init__(self, packs: np.ndarray, first_dealer: int, **kwargs) -> None:
        self._packs = packs
        self._first = first_dealer
        super().__init__(**kwargs)

    def _cut_for_deal(self) -> int:
        return self._first

    def _shuffled_pack(self):
        return [CARDS[i] for i in self._packs[len(self.deals)]]


class PackedEnv(CribbageEnvV1):
    """``cribbage_v1`` whose game is a :class:`PackedGame`."""

    def __init__(self, packs: np.ndarray, first_dealer: int, players: int = 2) -> None:
        self._packs, self._first = packs, first_dealer
        super().__init__(players=players)

    def _start(self, seed: int) -> None:
        super()._start(seed)
        self.game = PackedGame(self._packs, self._first, rules=self.rules, seed=seed,
                               names=list(self.possible_agents))


def random_packs(games: int, seed: int, players: int = 2) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    packs = np.argsort(rng.random((games, DEALS, 52)), axis=2)
    return packs, rng.integers(0, players, games)


def play_both(games: int, seed: int, check_observations: bool, players: int = 2) -> int:
    """Random games in both environments; every step must agree. The steps compared."""
    packs, dealers = random_packs(games, seed, players)
    batched = BatchedCribbage(games, seed=seed, autoreset=False, players=players)
    obs, mask = batched.reset(decks=packs, first_dealers=dealers)
    engines = [PackedEnv(packs[g], int(dealers[g]), players) for g in range(games)]
    for env in engines:
        env.reset(seed=0)
    space = observation_space()
    live = np.ones(games, bool)
    steps = 0
    while live.any():
        actions = batched.random_actions().copy()
        seats = batched.to_act().copy()
        expected = {}
        for g in np.flatnonzero(live):
            env = engines[g]
            agent = env.agent_selection
            seat = env.possible_agents.index(agent)
            assert seats[g] == seat, (g, steps)
            seen = env.observe(agent)
            assert np.array_equal(mask[g], seen["action_mask"]), (g, steps)
            if check_observations:
                flat = spaces.flatten(space, seen["observation"])
                assert np.array_equal(obs[g], flat), (g, steps, np.flatnonzero(obs[g] != flat))
            before = env._seat_points()
            env.step(int(actions[g]))
            after = env._seat_points()
            expected[g] = ([a - b for a, b in zip(after, before)],
                           [env.rewards[a] for a in env.possible_agents], env.finished())
            steps += 1
        result = batched.step(actions)
        obs, mask = result.obs, result.mask
        for g, (points, rewards, over) in expected.items():
            assert result.points[g].tolist() == points, (g, steps)
            assert result.rewards[g].tolist() == rewards, (g, steps)
            assert bool(result.done[g]) == over, (g, steps)
            if over:
                assert result.final_scores[g].tolist() == engines[g]._seat_points()
                assert engines[g].game.deals.__len__() < DEALS
                live[g] = False
    return steps


def test_hundreds_of_random_games_agree_with_the_engine_step_by_step():
    """Same seat to act, same mask and same points at every step of 800 games."""
    steps = play_both(800, seed=1, check_observations=False)
    assert steps > 800 * 100


def test_observations_are_cribbage_v1s_flattened():
    """The observation of the seat to act equals cribbage_v1's, flattened, at every step."""
    play_both(300, seed=2, check_observations=True)


@pytest.mark.parametrize("players", [3, 4])
def test_three_and_four_seats_agree_with_the_engine_step_by_step(players):
    """Same seat to act, mask, observation, points and rewards at every step of hundreds
    of three- and four-seat games: one card each to the crib (and one from the pack with
    three), several gos said in a row, partners pegging on one score with four."""
    steps = play_both(80, seed=10 + players, check_observations=True, players=players)
    assert steps > 80 * 100
    steps = play_both(120, seed=20 + players, check_observations=False, players=players)
    assert steps > 120 * 100


@pytest.mark.parametrize("players", [3, 4])
def test_several_seats_say_go_one_after_another(players):
    """The go queue holds two or three seats at once in some steps (each then gets its
    turn with only Go legal), which the step-by-step comparison above goes through."""
    env = BatchedCribbage(64, seed=players, players=players)
    env.reset()
    most = 0
    for _ in range(2000):
        env.step(env.random_actions())
        queued = (env.go_queue >= 0).sum(axis=1)
        most = max(most, int(queued.max()))
        go_turns = queued > 0
        assert (env.mask[go_turns].sum(axis=1) == 1).all()
        assert (env.mask[go_turns, GO] == 1).all()
    assert most == players - 1


def test_partners_share_the_score_and_the_reward():
    env = BatchedCribbage(64, seed=4, players=4)
    env.reset()
    ended = 0
    for _ in range(3000):
        result = env.step(env.random_actions())
        assert np.array_equal(env.scores[:, :2], env.scores[:, 2:])
        assert np.array_equal(result.points[:, :2], result.points[:, 2:])
        for g in np.flatnonzero(result.done):
            won = result.final_scores[g] == 121
            assert won.sum() == 2 and won[0] == won[2]
            assert result.rewards[g].tolist() == np.where(won, 1.0, -1.0).tolist()
            ended += 1
    assert ended > 20


def test_an_illegal_action_ends_that_game_only_with_a_penalty():
    env = BatchedCribbage(3, seed=5)
    obs, mask = env.reset()
    seat = env.to_act()[1]
    before = env.obs.copy()
    actions = env.random_actions().copy()
    actions[1] = GO  # never legal while discarding
    result = env.step(actions)
    assert result.illegal.tolist() == [False, True, False]
    assert result.done.tolist() == [False, True, False]
    assert result.rewards[1, seat] == -1.0 and result.rewards[1, 1 - seat] == 0.0
    assert result.rewards[[0, 2]].tolist() == [[0, 0], [0, 0]]
    # the slot started a new game: fifteen discards to choose from again
    assert result.mask[1].sum() == 15 and not np.array_equal(result.obs[1], before[1])


def test_a_slots_games_depend_on_the_seed_and_slot_only():
    def first_hands(size, seed):
        env = BatchedCribbage(size, seed=seed)
        obs, _ = env.reset()
        return obs[:, :OBSERVATION_SIZE].copy()

    small, large = first_hands(4, 9), first_hands(64, 9)
    assert np.array_equal(small, large[:4])
    assert not np.array_equal(first_hands(4, 10), small)


def test_a_seeded_run_repeats_exactly():
    def run(seed):
        env = BatchedCribbage(32, seed=seed)
        env.reset()
        total = np.zeros((32, 2))
        for _ in range(400):
            total += env.step(env.random_actions()).rewards
        return total

    assert np.array_equal(run(3), run(3))


def test_bad_arguments_are_refused_with_the_reason():
    env = BatchedCribbage(2)
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros(3, int))
    with pytest.raises(ValueError, match="each card index"):
        env.reset(decks=np.zeros((2, 1, 52), int))
    with pytest.raises(ValueError, match="0 or 1"):
        env.reset(first_dealers=np.array([0, 2]))
    with pytest.raises(ValueError, match="at least 1"):
        BatchedCribbage(0)
    with pytest.raises(ValueError, match="0 to 2"):
        BatchedCribbage(2, players=3).reset(first_dealers=np.array([0, 3]))
    with pytest.raises(ValueError, match="2, 3 or 4 players"):
        BatchedCribbage(2, players=5)


def test_what_reset_and_step_return_is_a_copy_the_next_step_leaves_alone():
    """A rollout buffer that keeps the returned arrays without copying them stays right;
    ``copy=False`` hands out the environment's own arrays, which the next step rewrites."""
    env = BatchedCribbage(8, seed=4)
    obs, mask = env.reset()
    kept = [(obs, obs.copy()), (mask, mask.copy())]
    first = env.step(env.random_actions())
    kept += [(a, a.copy()) for a in (first.obs, first.mask, first.rewards, first.points)]
    actions = env.random_actions()
    saved = actions.copy()
    for _ in range(5):
        env.random_actions()
        env.step(env.random_actions())
    for returned, snapshot in kept:
        assert np.array_equal(returned, snapshot)
    assert np.array_equal(actions, saved)

    fast = BatchedCribbage(8, seed=4, copy=False)
    obs, _ = fast.reset()
    before = obs.copy()
    step = fast.step(fast.random_actions())
    assert step.obs is obs and not np.array_equal(obs, before)


def test_the_spaces_match_cribbage_v1():
    assert spaces.flatdim(observation_space()) == OBSERVATION_SIZE
    assert BatchedCribbage.actions == ACTIONS
