"""The learned player: its features count points as the rules do, it only ever picks
legal actions, and the shipped weights play whole games through the engine contract."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kingscrib.classic import record as cribbage_record
from kingscrib.classic.cards import deck
from kingscrib.classic.discard import rank_points
from kingscrib.classic.game import ClassicGame
from kingscrib.classic.pegging import peg_score
from kingscrib.classic.rules import RuleSet
from kingscrib.players.classic import TWO_PLAYER_NAMES, make_player, play_game
from kingscrib.players.classic.learned import (
    DISCARD_FEATURES,
    PLAY_FEATURES,
    WEIGHTS,
    LearnedPlayer,
    Net,
    Weights,
    discard_features,
    peg_points,
    play_features,
    shipped_weights,
)
from kingscrib.players.classic.simple import RandomPlayer


def random_weights(seed: int) -> Weights:
    """Weights that score actions all differently (the last layer is not zero)."""
    rng = np.random.default_rng(seed)
    nets = []
    for size in (DISCARD_FEATURES, PLAY_FEATURES):
        net = Net.initial([size, 16, 1], rng)
        w, b = net.layers[-1]
        net.layers[-1] = (rng.standard_normal(w.shape).astype(np.float32), b)
        nets.append(net)
    return Weights(nets[0], nets[1])


@st.composite
def counts(draw):
    """A pile of the current count (cards in order, the count kept at 31 or under) and a
    card that may be laid on it."""
    cards = draw(st.permutations(list(range(52))))
    pile, total = [], 0
    length = draw(st.integers(0, 7))
    for c in cards:
        if len(pile) == length:
            break
        if total + min(c // 4 + 1, 10) <= 31:
            pile.append(c)
            total += min(c // 4 + 1, 10)
    rest = [c for c in cards if c not in pile and total + min(c // 4 + 1, 10) <= 31]
    if not rest:
        rest = [c for c in cards if c not in pile]
        pile, total = [], 0
    return pile, total, draw(st.sampled_from(rest))


@settings(max_examples=300, deadline=None)
@given(counts())
def test_peg_points_are_the_rules_count(case):
    pile, total, card = case
    row = np.full((1, 7), -1)
    row[0, :len(pile)] = pile
    got = peg_points(row, np.array([card]), np.array([total]))
    assert got.tolist() == [peg_score([c // 4 + 1 for c in pile] + [card // 4 + 1]).total]


def test_discard_features_hold_the_kept_hands_points_and_whose_crib():
    rng = random.Random(3)
    cards = [c.number for c in deck()]
    kept = np.array([rng.sample(cards, 4) for _ in range(200)])
    thrown = np.array([[c for c in rng.sample(cards, 6) if c not in k][:2] for k in kept])
    dealer = np.array([i % 2 for i in range(200)])
    x = discard_features(kept, thrown, dealer)
    assert x.shape == (200, DISCARD_FEATURES)
    static = x[:, 13 + 91]
    expected = [rank_points(tuple(sorted(c // 4 + 1 for c in k))) / 10 for k in kept]
    assert np.allclose(static, expected)
    assert (x[:, :13].sum(axis=1) == 4).all()  # four ranks kept
    own, theirs = x[:, 106:119], x[:, 211:224]  # the thrown ranks, in the owner's block
    assert (own.sum(axis=1) == 2 * dealer).all() and (theirs.sum(axis=1) == 2 * (1 - dealer)).all()
    assert (x[:, -1] == dealer).all()


def test_play_features_count_the_points_and_the_new_count():
    # 5 then 10 on a 5-5 count: a pair royal? no, a ten makes 20; the 5 makes 15 and three of a kind
    pile = np.array([[16, 17, -1, -1, -1, -1, -1]] * 2)  # 5C 5D
    card = np.array([18, 36])  # 5H, TC
    hand = np.array([[18, 36, -1, -1]] * 2)
    seen = np.zeros((2, 13))
    x = play_features(card, pile, np.array([10, 10]), hand, seen, np.array([2, 2]),
                      np.array([1, 1]))
    assert x.shape == (2, PLAY_FEATURES)
    assert x[0, 13] * 4 == 8 and x[1, 13] == 0  # fifteen and three fives: 2 + 6
    assert x[0, 15 + 15] == 1 and x[1, 15 + 20] == 1  # the counts made


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10**6))
def test_the_learned_player_only_picks_legal_actions(seed):
    me = LearnedPlayer(seed, random_weights(seed))
    other = RandomPlayer(seed)
    game = ClassicGame(RuleSet(), seed=seed)
    decisions = 0
    while game.phase != "over":
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        if seat == 0:
            action = me.choose(view)
            assert action in view.legal
            decisions += 1
        else:
            action = other.choose(view)
        game.apply(action)
    assert decisions > 10


def test_the_shipped_weights_load_and_play_through_the_engine_contract():
    assert WEIGHTS.exists() and 10_000 < WEIGHTS.stat().st_size < 5_000_000
    weights = Weights.load(WEIGHTS)
    assert weights.discard.layers[0][0].shape[0] == DISCARD_FEATURES
    player = make_player("learned", 7)
    assert isinstance(player, LearnedPlayer) and player.weights is shipped_weights()
    hard = make_player("hard", 8)
    game = ClassicGame.start(seed=11, names=["learned", "hard"])
    while not game.is_over:
        seat = game.to_move()
        assert seat is not None
        chooser = player if seat == 0 else hard
        game.apply(chooser.choose(game.view(seat)), seat)
    assert max(game.scores) == 121 and len(game.winners()) == 1
    again = cribbage_record.replay(game.record())
    assert again.scores == game.scores


def test_the_learned_player_is_deterministic_and_two_player_only():
    def run():
        return play_game(RuleSet(), 5, [make_player("learned", 1), make_player("medium", 2)]).record()

    assert run() == run()
    assert TWO_PLAYER_NAMES == ("learned",)
    with pytest.raises(ValueError, match="two-player"):
        play_game(RuleSet(players=3), 1, [make_player("learned", i) for i in range(3)])
