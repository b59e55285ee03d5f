"""cribbage_v1's observation is an information state: histories its seat sees alike give
that seat the same legal actions, and each action scores the same in all of them.

The converse of the leak tests (which redeal what a seat may not see and require the
observation to stay the same)."""

from __future__ import annotations

import random
from itertools import combinations

import numpy as np
import pytest
from env_support import fork_game, redeal_hidden

from kingscrib.classic.cards import deck
from kingscrib.classic.game import Claim, Play
from kingscrib.classic.pegging import can_play, peg_score
from kingscrib.classic.show import score_show
from kingscrib.env import cribbage_v0, cribbage_v1
from kingscrib.env.cribbage import FIRST_CLAIM, GO, PAIR_INDEX

OPTIONS = [(2, {}), (3, {"muggins": True}), (4, {"muggins": True})]
CARD_OF = {card.number: card for card in deck()}


def _points(env, index: int) -> tuple[int, ...]:
    """What the action itself scores, per seat: the card laid (pairs, runs, 15, 31), or
    the claim and the muggins or over-claim it leaves. Go, last card and the show of hidden hands that
    may follow are chance to the seat, and left out."""
    if env._go_queue:
        return ()
    game = fork_game(env.game)
    action = env.engine_action(index)
    events = game.apply(action)
    kinds = {"peg"} if isinstance(action, Play) else {"show", "muggins", "overclaim"} \
        if isinstance(action, Claim) else set()
    scored = [0] * env.rules.players
    for event in events:
        if event.kind in kinds:
            scored[event.seat] += event.points
        if isinstance(action, Play) and event.kind == "peg":
            break  # later events (go, last card, the show) are the next seats'
    return tuple(scored)


def _key(observation: dict) -> bytes:
    return b"".join(observation[k].tobytes() for k in sorted(observation))


def _reordered(game, rng: random.Random):
    """The game as if the current count's cards had been laid in another order, each
    seat laying the same cards at the same turns (the counts never pass 31: the cards
    sum to the count). None when there is no other such order."""
    d = game._deal
    k = len(d.pile)
    tail = d.played[len(d.played) - k:]
    by_seat: dict[int, list] = {}
    for seat, card in tail:
        by_seat.setdefault(seat, []).append(card)
    if all(len(cards) < 2 for cards in by_seat.values()):
        return None
    for cards in by_seat.values():
        rng.shuffle(cards)
    new_tail = [(seat, by_seat[seat].pop()) for seat, _ in tail]
    if new_tail == tail:
        return None
    other = fork_game(game)
    other._deal.played[len(d.played) - k:] = new_tail
    other._deal.pile = [card for _, card in new_tail]
    return other


def _histories(module, players: int, rules: dict, games: int):
    """(observation key, legal actions, points of each) of the seat to act, at every turn
    of ``games`` random games and in histories the seat may not tell apart from them:
    hidden cards dealt otherwise, and the current count's cards laid in other orders."""
    env = module.raw_env(players=players, rules=rules)
    rng = random.Random(players)
    np_rng = np.random.default_rng(players)
    for seed in range(games):
        env.reset(seed=seed)
        while not env._over():
            agent = env.agent_selection
            seat = env.possible_agents.index(agent)
            real = env.game
            variants = [real, redeal_hidden(real, seat, rng)]
            if real.phase == "play":
                variants += [g for g in (_reordered(real, rng) for _ in range(3)) if g]
            for game in variants:
                env.game, env._mask_step = game, -1
                obs = env.observe(agent)
                legal = tuple(np.flatnonzero(obs["action_mask"]).tolist())
                yield _key(obs["observation"]), legal, tuple(_points(env, i) for i in legal)
            env.game, env._mask_step = real, -1
            env.step(int(np_rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))


def _conflicts(module, players, rules, games) -> tuple[int, int]:
    """(observations seen from more than one history, those whose histories differ in
    legal actions or in what an action scores)."""
    first: dict[bytes, tuple] = {}
    shared, conflicts = set(), set()
    for key, legal, points in _histories(module, players, rules, games):
        if key in first:
            shared.add(key)
            if first[key] != (legal, points):
                conflicts.add(key)
        else:
            first[key] = (legal, points)
    return len(shared), len(conflicts)


@pytest.mark.parametrize("players,rules", OPTIONS)
def test_histories_seen_alike_are_alike_to_the_seat(players, rules):
    shared, conflicts = _conflicts(cribbage_v1, players, rules, games=2)
    assert shared > 100  # many observations were reached by several histories
    assert conflicts == 0


def test_the_check_finds_cribbage_v0_s_lost_play_order():
    """cribbage_v0 sees the current count as a set: laid in another order, the same
    cards look alike and yet peg differently."""
    shared, conflicts = _conflicts(cribbage_v0, 2, {}, games=2)
    assert conflicts > 0


def _predicted(observation: dict, rules) -> tuple[set[int], dict[int, tuple[int, ...]]]:
    """The seat to act's legal actions and what each scores, read from its observation
    alone (the observer is index 0 of every seat-indexed array)."""
    o = observation
    phase, players, must_go, show_kind = (int(o["status"][i]) for i in (0, 3, 7, 8))
    hand = [CARD_OF[i] for i in np.flatnonzero(o["hand"])]
    none = (0,) * players
    if must_go:
        return {GO}, {GO: ()}
    if phase == 0:  # discard
        if rules.discards == 1:
            legal = {c.number for c in hand}
        else:
            legal = {PAIR_INDEX[(a.number, b.number)] for a, b in combinations(hand, 2)}
        return legal, {i: none for i in legal}
    if phase == 1:  # play: the current count in the order it was laid
        rows = np.flatnonzero(o["sequence_in_count"])
        pile = [CARD_OF[int(np.flatnonzero(o["sequence"][r])[0])].rank for r in rows]
        count = int(o["status"][2])
        points = {}
        for card in hand:
            if can_play(card.rank, count):
                points[card.number] = (peg_score(pile + [card.rank]).total,) + none[1:]
        return set(points), points
    shown = [CARD_OF[i] for i in np.flatnonzero(o["show"])]
    starter = CARD_OF[int(np.flatnonzero(o["starter"])[0])]
    true = score_show(shown, starter, crib=show_kind == 2).total
    points = {}
    for claim in range(29 + 1):  # any claim a hand could make: the mask tells nothing
        scored = [0] * players
        counted = min(claim, true)  # an over-claim is corrected to the true value
        scored[0] += counted
        if o["scores"][0] + counted < 121:  # a claim that wins leaves nothing to take
            # the next seat takes what was missed, or what was claimed too much
            scored[1 % players] += abs(true - claim)
        points[FIRST_CLAIM + claim] = tuple(scored)
    return set(points), points


@pytest.mark.parametrize("players,rules", OPTIONS)
def test_the_observation_alone_gives_the_legal_actions_and_what_each_scores(players,
                                                                            rules):
    env = cribbage_v1.raw_env(players=players, rules=rules)
    rng = np.random.default_rng(7)
    checked = set()
    for seed in range(3):
        env.reset(seed=seed)
        while not env._over():
            agent = env.agent_selection
            seat = env.possible_agents.index(agent)
            obs = env.observe(agent)
            legal, points = _predicted(obs["observation"], env.rules)
            assert legal == set(np.flatnonzero(obs["action_mask"]).tolist())
            for index in legal:
                real = _points(env, index)
                # the engine's points per seat, turned to the observer's order
                from_observer = tuple(real[(seat + k) % players]
                                      for k in range(players)) if real else ()
                assert from_observer == points[index], (seed, index)
            checked.add(int(obs["observation"]["status"][0]) + 10 * int(bool(env._go_queue)))
            env.step(int(rng.choice(sorted(legal))))
    # discards, cards, gos and (with muggins) claims were all checked
    assert checked == ({0, 1, 2, 11} if rules.get("muggins") else {0, 1, 11})


def test_the_sequence_arrays_mean_what_docs_say():
    env = cribbage_v1.raw_env(players=3)
    env.reset(seed=11)
    rng = np.random.default_rng(11)
    deal = env.game._deal
    while not (deal.said_go and 0 < len(deal.pile) < len(deal.played)):  # a go, a reset
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)
                                                ["action_mask"]))))
        deal = env.game._deal
    seat = 1
    o = env.observe("player_1")["observation"]
    laid = len(deal.played)
    assert [int(np.flatnonzero(row)[0]) for row in o["sequence"][:laid]] == [
        card.number for _, card in deal.played]
    assert [int(np.flatnonzero(row)[0]) for row in o["sequence_seat"][:laid]] == [
        (who - seat) % 3 for who, _ in deal.played]
    assert not o["sequence"][laid:].any() and not o["sequence_seat"][laid:].any()
    assert o["sequence_in_count"].tolist() == [0] * (laid - len(deal.pile)) + [1] * len(
        deal.pile) + [0] * (16 - laid)
    assert set(np.flatnonzero(o["said_go"])) == {(s - seat) % 3 for s in deal.said_go}
    assert o["status"][8] == 0  # no hand is being shown
