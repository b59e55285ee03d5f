"""cribbage_v0 and cribbage_v1: the PettingZoo API, seeding, the action encoding, no leaks, rewards."""

from __future__ import annotations

import random
from itertools import combinations

import numpy as np
import pytest
from classic.classic_reference import ref_score
from env_support import play_random, quiet_api_test, redeal_hidden
from pettingzoo.test import seed_test

from kingscrib.classic.cards import deck
from kingscrib.classic.game import Claim, Discard, Play
from kingscrib.env import cribbage_v0, cribbage_v1
from kingscrib.env.base import IllegalEnvAction
from kingscrib.env.cribbage import ACTIONS, FIRST_CLAIM, FIRST_PAIR, GO, action_index

OPTIONS = [(2, {}), (3, {"muggins": True}), (4, {"skunk": True, "muggins": True})]


VERSIONS = [cribbage_v0, cribbage_v1]


@pytest.mark.parametrize("players,rules", OPTIONS)
@pytest.mark.parametrize("module", VERSIONS)
def test_api(module, players, rules):
    quiet_api_test(module.env(players=players, rules=rules), cycles=400)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("module", VERSIONS)
def test_seed_test(module, players):
    seed_test(lambda: module.env(players=players, rules={"muggins": True}),
              num_cycles=200)


def test_reset_with_a_seed_is_reproducible():
    def run(seed):
        env = cribbage_v0.env(players=3)
        play_random(env, seed, np.random.default_rng(0))
        return env.unwrapped.game.record()

    assert run(4) == run(4)
    assert run(4)["deals"] != run(5)["deals"]


def test_the_action_indexes_are_one_to_one():
    """Every card, every pair of cards, Go and every claim have their own index."""
    seen = set()
    for card in deck():
        seen.add(action_index(Play(card)))
    assert seen == set(range(52))
    pairs = {action_index(Discard((a, b))) for a, b in combinations(deck(), 2)}
    assert len(pairs) == 1326 and min(pairs) == FIRST_PAIR and max(pairs) == GO - 1
    claims = {action_index(Claim(p)) for p in range(30)}
    assert claims == set(range(FIRST_CLAIM, ACTIONS))
    assert GO not in seen | pairs | claims


def _engine_legal(env) -> set[int]:
    return {action_index(a) for a in env.game.legal_actions()}


@pytest.mark.parametrize("players,rules", OPTIONS)
def test_the_mask_is_exactly_the_engine_legal_set(players, rules):
    env = cribbage_v0.raw_env(players=players, rules=rules)
    env.reset(seed=players)
    rng = np.random.default_rng(players)
    kinds = set()
    gos = 0
    while env.agents and not env._over():
        mask = env.observe(env.agent_selection)["action_mask"]
        legal = set(np.flatnonzero(mask).tolist())
        if env._go_queue:
            assert legal == {GO}
            gos += 1
        else:
            assert legal == _engine_legal(env)
            assert env.agent_selection == env.possible_agents[env.game.to_act]
            kinds.add(env.game.phase)
            for index in legal:
                action = env.engine_action(index)
                assert action in env.game.legal_actions()
        env.step(int(rng.choice(sorted(legal))))
    assert gos > 0
    assert kinds == ({"discard", "play", "show"} if rules.get("muggins") else
                     {"discard", "play"})


def test_every_go_said_is_an_agent_turn():
    """The seats the engine passes over with a go each get exactly one Go turn, in order."""
    env = cribbage_v0.raw_env(players=2, render_mode="ansi")
    env.reset(seed=9)
    rng = np.random.default_rng(3)
    said = []
    while not env._over():
        agent = env.agent_selection
        mask = env.observe(agent)["action_mask"]
        if mask[GO]:
            said.append(env.possible_agents.index(agent))
            assert 0 < env._go_count <= 31
            assert f"must say go at {env._go_count}" in env.render()
        before = len(env.game.events)
        env.step(int(rng.choice(np.flatnonzero(mask))))
        said_now = [e.seat for e in env.game.events[before:] if e.kind == "go-said"]
        if env._over():
            break
        assert env._go_queue == said_now or not said_now
    engine_gos = [e.seat for e in env.game.events if e.kind == "go-said"]
    # every go the engine recorded was answered by its seat (the last may end the game)
    assert said == engine_gos[:len(said)] and len(engine_gos) - len(said) <= 2


def test_an_illegal_index_is_refused_and_changes_nothing():
    env = cribbage_v0.env()
    env.reset(seed=1)
    before = env.unwrapped.game.record()
    agent = env.agent_selection
    with pytest.raises(IllegalEnvAction, match=f"action 0 is not legal for {agent}"):
        env.step(0)  # a single card is not a discard with two players
    with pytest.raises(IllegalEnvAction):
        env.step(-1)
    assert env.unwrapped.game.record() == before
    assert env.agent_selection == agent


def _same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


@pytest.mark.parametrize("players,rules", OPTIONS)
@pytest.mark.parametrize("module", VERSIONS)
def test_no_observation_shows_what_its_seat_may_not_know(module, players, rules):
    rng = random.Random(1)
    np_rng = np.random.default_rng(1)
    env = module.raw_env(players=players, rules=rules)
    env.reset(seed=2)
    checked = 0
    while not env._over() and checked < 60:
        if env.game.phase in ("discard", "play"):
            for seat, agent in enumerate(env.possible_agents):
                seen = env.observe(agent)
                real = env.game
                env.game = redeal_hidden(env.game, seat, rng)
                env._mask_step = -1
                assert _same(seen["observation"], env.observe(agent)["observation"])
                env.game = real
                env._mask_step = -1
                if agent != env.agent_selection:
                    assert not seen["action_mask"].any()
            checked += 1
        env.step(int(np_rng.choice(np.flatnonzero(
            env.observe(env.agent_selection)["action_mask"]))))
    assert checked == 60
    # The check has teeth: another hand for the seat is seen.
    env.reset(seed=2)
    seat = env.game.to_act
    seen = env.observe(env.agent_selection)["observation"]
    d = env.game._deal
    d.held[seat], d.held[(seat + 1) % players] = d.held[(seat + 1) % players], d.held[seat]
    assert not _same(seen, env.observe(env.agent_selection)["observation"])


def test_observation_arrays_mean_what_docs_say():
    env = cribbage_v0.raw_env(players=4)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    while env.game.phase != "play" or len(env.game.pile) < 3:
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)
                                                ["action_mask"]))))
    game = env.game
    seat = 2
    o = env.observe("player_2")["observation"]
    assert set(np.flatnonzero(o["hand"])) == {c.number for c in game.hand(seat)}
    assert set(np.flatnonzero(o["pile"])) == {c.number for c in game.pile}
    assert np.flatnonzero(o["starter"]).tolist() == [game.starter.number]
    for who, card in game._deal.played:
        assert o["played"][(who - seat) % 4, card.number] == 1
    assert list(o["scores"]) == [game.scores[(seat + k) % 4 % 2] for k in range(4)]
    assert o["status"][0] == 1 and o["status"][2] == game.count
    assert o["status"][1] == (game.dealer - seat) % 4
    assert o["status"][4] == 52 - len(game.hand(seat)) - 1 - 1 - len(game._deal.played)


def test_partners_share_rewards_and_shaping_adds_up():
    rng = np.random.default_rng(0)
    for shaping in (0.0, 0.02):
        env = cribbage_v0.env(players=4, shaping=shaping)
        totals = play_random(env, 3, rng)
        game = env.unwrapped.game
        for seat, agent in enumerate(env.possible_agents):
            side = seat % 2
            outcome = 1.0 if game.winner == side else -1.0
            shaped = shaping * (game.scores[side] - game.scores[1 - side])
            assert totals[agent] == pytest.approx(outcome + shaped)
        assert totals["player_0"] == pytest.approx(totals["player_2"])


def test_three_players_one_winner():
    env = cribbage_v0.env(players=3)
    totals = play_random(env, 8, np.random.default_rng(8))
    assert sorted(totals.values()) == [-1.0, -1.0, 1.0]
    assert totals[f"player_{env.unwrapped.game.winner}"] == 1.0


def test_render_and_options():
    env = cribbage_v0.env(players=2, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert "discard" in text and "to act, holding" in text
    with pytest.raises(ValueError, match="classic Cribbage is for 2, 3 or 4 players"):
        cribbage_v0.env(players=5)
    with pytest.raises(ValueError, match="unknown rule"):
        cribbage_v0.env(rules={"mugins": True})
    assert cribbage_v0.raw_env(rules={"players": 3, "muggins": True}).rules.muggins


def test_a_claim_is_asked_without_telling_the_hand_value_and_over_claiming_costs():
    """With muggins every claim from 0 to 29 is legal at every hand shown, so the mask
    says nothing of the value; a claim above it pegs the value and gives the excess to
    the next seat (docs/rl.md)."""
    env = cribbage_v0.raw_env(players=2, rules={"muggins": True})
    rng = np.random.default_rng(5)
    env.reset(seed=5)
    values, checked = set(), 0
    while not env._over() and checked < 6:
        agent = env.agent_selection
        mask = env.observe(agent)["action_mask"]
        item = env.game.show_item
        if item is None or env._go_queue:
            env.step(int(rng.choice(np.flatnonzero(mask))))
            continue
        value = ref_score(list(item.cards), env.game.starter, crib=item.kind == "crib")
        values.add(value)
        assert set(np.flatnonzero(mask).tolist()) == set(range(FIRST_CLAIM, ACTIONS))
        assert env.infos[agent] == {"go": False}
        claim = min(29, value + 3)
        me, other = env.game.rules.side_of(item.seat), 1 - env.game.rules.side_of(item.seat)
        before = list(env.game.scores)
        env.step(FIRST_CLAIM + claim)
        if env._over():
            break
        assert env.game.scores[me] - before[me] == value
        assert env.game.scores[other] - before[other] == claim - value
        checked += 1
    assert checked == 6 and len(values) > 1  # hands of different values, the same mask
