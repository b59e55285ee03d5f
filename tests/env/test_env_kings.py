"""kings_v0: the PettingZoo API, seeding, the action encoding, no leaks, rewards."""

from __future__ import annotations

import copy
import random
from collections import Counter
from itertools import product

import numpy as np
import pytest
from env_support import play_random, quiet_api_test
from pettingzoo.test import seed_test

from kingscrib.env import kings_v0, kings_v1
from kingscrib.env.base import IllegalEnvAction, outcome_rewards
from kingscrib.env.kings_actions import (
    FIRST_EXCHANGE,
    FIRST_PLAY,
    MAX_PLAYS,
    PASS,
    exchange_tiles,
)
from kingscrib.env.kings_factored import COMMIT, FIRST_PLACE, placement
from kingscrib.kings.game import Game
from kingscrib.kings.movegen import legal_plays as reference_plays
from kingscrib.kings.notation import parse_action
from kingscrib.kings.record import check_record
from kingscrib.kings.rules import RuleSet

OPTIONS = [
    (2, {}),
    (3, {"joker": True, "servant": True}),
    (4, {"exchange": "when-stuck", "reduced_first_bonus": True}),
    (2, {"solitaire": True}),
]


@pytest.mark.parametrize("players,rules", OPTIONS)
def test_api(players, rules):
    quiet_api_test(kings_v0.env(players=players, rules=rules), cycles=150)


def test_seed_test():
    seed_test(lambda: kings_v0.env(players=3), num_cycles=60)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_v1_api_and_seeding(players):
    quiet_api_test(kings_v1.env(players=players, rules={"joker": players == 3}), cycles=80)
    seed_test(lambda: kings_v1.env(players=players), num_cycles=40)


def _moves_after(seed: int, steps: int, **kwargs) -> tuple[list[int], dict]:
    env = kings_v0.env(**kwargs)
    env.reset(seed=seed)
    rng = np.random.default_rng(99)
    taken = []
    for _ in range(steps):
        obs, *_ = env.last()
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        taken.append(a)
        env.step(a)
    return taken, env.unwrapped.game.to_record()


def test_reset_with_a_seed_is_reproducible():
    a = _moves_after(5, 12)
    b = _moves_after(5, 12)
    c = _moves_after(6, 12)
    assert a == b
    assert a[1]["turns"] != c[1]["turns"]
    env = kings_v0.env()
    env.reset(seed=11)
    first = env.unwrapped.game_seed
    env.reset()
    second = env.unwrapped.game_seed
    env.reset(seed=11)
    assert env.unwrapped.game_seed == first
    env.reset()
    assert env.unwrapped.game_seed == second  # the games after a seeded reset repeat too


def test_the_mask_is_exactly_the_engine_legal_set():
    """Mid-game, the plays under the mask are the reference generator's plays in the
    reference order; exchanges are the distinct sub-multisets of the rack; pass is legal."""
    env = kings_v0.raw_env(players=2)
    env.reset(seed=3)
    rng = np.random.default_rng(1)
    for _ in range(6):
        obs = env.observe(env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    game = env.game
    obs = env.observe(env.agent_selection)
    mask = obs["action_mask"]
    actions = env.turn_actions()
    expected = reference_plays(game.board, game.racks[game.turn], game.rules)
    assert 0 < len(expected) <= MAX_PLAYS
    got = [actions.action(i) for i in range(FIRST_PLAY, FIRST_PLAY + mask[FIRST_PLAY:].sum())]
    assert got == [sp.play for sp in expected]
    assert not mask[FIRST_PLAY + len(expected):].any()
    rack = sorted(game.racks[game.turn])
    distinct = 1
    for n in Counter(rack).values():
        distinct *= n + 1
    assert mask[FIRST_EXCHANGE:FIRST_PLAY].sum() == distinct - 1  # the bag holds plenty
    exchanged = {tuple(exchange_tiles(rack, i)) for i in range(FIRST_EXCHANGE, FIRST_PLAY)
                 if mask[i]}
    assert len(exchanged) == distinct - 1
    assert mask[PASS] == 1


def test_info_carries_each_legal_action_in_notation():
    env = kings_v0.env(players=2)
    env.reset(seed=8)
    rng = np.random.default_rng(2)
    for _ in range(5):
        obs, _, _, _, info = env.last()
        legal = info["legal"]
        assert sorted(legal) == np.flatnonzero(obs["action_mask"]).tolist()
        game = env.unwrapped.game
        actions = env.unwrapped.turn_actions()
        for index in rng.choice(list(legal), 10):
            parsed = parse_action(legal[int(index)], game.board, game.racks[game.turn])
            assert parsed == actions.action(int(index))
        env.step(int(rng.choice(list(legal))))


def test_an_opening_is_capped_to_its_best_plays():
    env = kings_v0.raw_env()
    env.reset(seed=0)
    game = env.game
    game.racks[game.turn] = [game.racks[game.turn][0]] * 0 + _tiles("5L 5D 5L JD TL")
    env._turn_key = -1
    actions = env.turn_actions()
    assert actions.all_plays == 40542
    assert len(actions.plays) == MAX_PLAYS
    totals = [p[1] for p in actions.plays]
    assert totals == sorted(totals, reverse=True)
    best = max(sp.total for sp in game.legal_moves())
    assert totals[0] == best


def _tiles(text: str):
    from kingscrib.kings.tiles import parse_tiles

    return parse_tiles(text)


def test_when_stuck_masks_pass_and_exchange_while_a_play_exists():
    env = kings_v0.raw_env(rules={"exchange": "when-stuck"})
    env.reset(seed=4)
    mask = env.observe(env.agent_selection)["action_mask"]
    assert mask[FIRST_PLAY] == 1
    assert not mask[:FIRST_PLAY].any()


def test_an_illegal_index_is_refused_and_changes_nothing():
    env = kings_v0.env()
    env.reset(seed=1)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.unwrapped.game.to_record()
    agent = env.agent_selection
    with pytest.raises(IllegalEnvAction, match=f"action {illegal} is not legal for {agent}"):
        env.step(illegal)
    with pytest.raises(IllegalEnvAction):
        env.step(10**6)
    assert env.unwrapped.game.to_record() == before
    assert env.agent_selection == agent


def _hide_differently(game: Game, seat: int, rng: random.Random) -> Game:
    """The same game with every tile the seat cannot see dealt out differently: the other
    racks and the bag(s) hold the same number of tiles, from the same unseen multiset."""
    other = copy.deepcopy(game)
    pools = [r for s, r in enumerate(other.racks) if s != seat] + other.bags
    hidden = [t for pool in pools for t in pool]
    rng.shuffle(hidden)
    for pool in pools:
        n = len(pool)
        pool[:] = hidden[:n]
        del hidden[:n]
    return other


def _same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


@pytest.mark.parametrize("players,rules", OPTIONS)
def test_no_observation_shows_what_its_seat_may_not_know(players, rules):
    """Redealing the hidden tiles (other racks, the bag) never changes what a seat
    observes; changing the seat's own rack does (so the comparison can fail)."""
    rng = random.Random(players)
    np_rng = np.random.default_rng(players)
    env = kings_v0.raw_env(players=players, rules=rules)
    for seed in range(3):
        env.reset(seed=seed)
        for step in range(12):
            if env.game.is_over:
                break
            for seat in range(players):
                agent = env.possible_agents[seat]
                seen = env.observe(agent)
                real = env.game
                env.game = _hide_differently(real, seat, rng)
                env._turn_key = -1
                redealt = env.observe(agent)
                env.game = real
                env._turn_key = -1
                assert _same(seen["observation"], redealt["observation"]), (seed, step, seat)
                if seat != env.game.turn:
                    assert not seen["action_mask"].any()
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(np_rng.choice(np.flatnonzero(mask))))
    # The check has teeth: a different own rack is seen.
    env.reset(seed=0)
    seat = env.game.turn
    seen = env.observe(env.agent_selection)["observation"]
    env.game.racks[seat], env.game.bags[0][:5] = env.game.bags[0][:5], env.game.racks[seat]
    assert not _same(seen, env.observe(env.agent_selection)["observation"])


def test_observation_arrays_mean_what_docs_say():
    env = kings_v0.raw_env(players=3)
    env.reset(seed=12)
    rng = np.random.default_rng(4)
    for _ in range(7):
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)
                                                ["action_mask"]))))
    game = env.game
    seat = 1
    o = env.observe("player_1")["observation"]
    for square, tile in game.board.items():
        row, col = divmod(square, 13)
        assert o["board"][tile.rank - 1, row, col] == 1
        assert o["board"][13 if tile.colour == "L" else 14, row, col] == 1
    assert o["board"][:13].sum() == o["board"][13:].sum() == len(game.board)
    rack = sorted(game.racks[seat])
    assert [tuple(x) for x in o["rack"][:len(rack)]] == [
        (t.rank, 1 if t.colour == "L" else 2) for t in rack]
    assert o["unseen"].sum() == 104 - len(game.board) - len(rack)
    assert list(o["scores"][:3]) == [game.scores[(seat + k) % 3] for k in range(3)]
    assert list(o["rack_sizes"][:3]) == [len(game.racks[(seat + k) % 3]) for k in range(3)]
    assert list(o["bag"]) == [game.tiles_in_bags, game.tiles_in_bags]
    last = game.history[-1]
    assert o["history"][0, 0] == (last.player - seat) % 3 + 1
    assert o["history"][0, 3] == last.gained
    assert o["game"][0] == 3 and o["game"][1] == len(game.history)
    assert o["game"][5] == (game.turn - seat) % 3


@pytest.mark.parametrize("final,sides,expected", [
    ([140, 122], [0, 1], [1.0, -1.0]),
    ([100, 100], [0, 1], [0.0, 0.0]),
    ([90, 100, 100], [0, 1, 2], [-1.0, 0.0, 0.0]),
    ([50, 50, 50, 10], [0, 1, 2, 3], [2 / 3 - 1, 2 / 3 - 1, 2 / 3 - 1, -1.0]),
    ([121, 90], [0, 1, 0, 1], [1.0, -1.0, 1.0, -1.0]),
])
def test_outcome_rewards(final, sides, expected):
    assert outcome_rewards(final, sides) == pytest.approx(expected)


def test_rewards_at_the_end_and_with_shaping():
    rng = np.random.default_rng(0)
    for shaping in (0.0, 0.01):
        env = kings_v0.env(players=3, shaping=shaping)
        totals = play_random(env, 21, rng)
        game = env.unwrapped.game
        final = game.final_scores
        top = max(final)
        winners = [s for s in range(3) if final[s] == top]
        for seat, agent in enumerate(env.possible_agents):
            outcome = 2 / len(winners) - 1 if seat in winners else -1.0
            others = [final[o] for o in range(3) if o != seat]
            shaped = shaping * (final[seat] - sum(others) / 2)
            assert totals[agent] == pytest.approx(outcome + shaped)


def test_render_draws_the_board():
    env = kings_v0.env(render_mode="ansi")
    env.reset(seed=2)
    obs, *_ = env.last()
    env.step(FIRST_PLAY)
    text = env.render()
    mover = env.agent_selection
    assert "A  B  C" in text and f"{mover} to move" in text
    game = env.unwrapped.game
    assert sum(line.count("L") + line.count("D") for line in text.splitlines()[1:14]) == \
        len(game.board)


def test_every_rule_option_reaches_the_engine():
    for values in product([False, True], ["anytime", "when-stuck"]):
        rules = {"joker": values[0], "exchange": values[1]}
        env = kings_v0.raw_env(rules=rules)
        env.reset(seed=0)
        assert env.game.rules == RuleSet.from_json(rules)
    with pytest.raises(ValueError, match="unknown rule 'jokers'"):
        kings_v0.env(rules={"jokers": True})
    with pytest.raises(ValueError, match="solitaire option is for two seats"):
        kings_v0.env(players=3, rules={"solitaire": True})


# ----- the factored encoding -------------------------------------------------------------

def test_factored_api_and_seeding():
    quiet_api_test(kings_v0.env(players=2, encoding="factored"), cycles=120)
    seed_test(lambda: kings_v0.env(players=2, encoding="factored"), num_cycles=60)


def test_factored_placements_reach_exactly_the_legal_plays():
    """Exploring every masked sequence of placements from a mid-game position commits
    exactly the reference generator's plays, and never reaches a dead end."""
    env = kings_v0.raw_env(players=2, encoding="factored")
    env.reset(seed=4)  # 468 legal plays of up to 4 tiles
    rng = np.random.default_rng(1)
    while len(env.game.history) < 6:
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)
                                                ["action_mask"]))))
    game = env.game
    expected = {sp.play for sp in reference_plays(game.board, game.racks[game.turn],
                                                  game.rules)}
    placing = env.placing()
    base = env.turn_actions()
    committed, seen = set(), set()

    def explore():
        key = frozenset(placing.placed.items())
        if key in seen:
            return
        seen.add(key)
        mask = placing.mask(base)
        assert mask.any()  # every partial placement can be finished
        if mask[COMMIT]:
            committed.add(placing.play())
        for index in np.flatnonzero(mask[FIRST_PLACE:COMMIT]) + FIRST_PLACE:
            square, face = placement(int(index))
            placing.placed[square] = face
            explore()
            del placing.placed[square]

    explore()
    assert len(expected) > 100
    assert committed == expected


def test_factored_games_replay_through_the_engine():
    env = kings_v0.env(players=3, encoding="factored", rules={"joker": True})
    rng = np.random.default_rng(5)
    for seed in range(6):
        play_random(env, seed, rng)
        game = env.unwrapped.game
        assert check_record(game.to_record()).final_scores == game.final_scores


def test_factored_observation_shows_the_tiles_placed_so_far():
    env = kings_v0.env(encoding="factored")
    env.reset(seed=2)
    obs, _, _, _, info = env.last()
    place = int(np.flatnonzero(obs["action_mask"][FIRST_PLACE:COMMIT])[0]) + FIRST_PLACE
    assert info["legal"][place].startswith("place ")
    agent = env.agent_selection
    env.step(place)
    assert env.agent_selection == agent  # the turn goes on
    obs, _, _, _, info = env.last()
    square, face = placement(place)
    row, column = divmod(square, 13)
    assert obs["observation"]["placing"][:, row, column].sum() == 2
    assert not obs["action_mask"][:FIRST_PLAY].any()  # no pass or exchange mid-play
    assert not env.unwrapped.game.board  # nothing reaches the board before commit
    with pytest.raises(ValueError, match="encoding must be one of enumerated, factored"):
        kings_v0.env(encoding="tiles")
