"""Training the learned player: self-play returns split pegging from the show as the
rules do, and a few rounds of training change the weights."""

from __future__ import annotations

import numpy as np

from kingscrib.classic.cards import Card
from kingscrib.classic.show import score_show
from kingscrib.env.batched_cribbage import BatchedCribbage
from kingscrib.training.learned import SelfPlay, Settings, initial_weights, train

SUITS = "CDHS"


def card(n: int) -> Card:
    return Card(n // 4 + 1, SUITS[n % 4])


def cards(bits: int) -> list[Card]:
    return [card(n) for n in range(52) if bits >> n & 1]


def test_a_deals_points_are_its_pegging_its_show_and_his_heels():
    """Every deal self-play closes: its points = the pegging it kept apart + the show
    counted here with the rules' own scorer + two for his heels."""
    env = BatchedCribbage(16, seed=5)
    play = SelfPlay(env, initial_weights((8,), 2), seed=5)
    checked = 0
    for _ in range(400):
        kept, discards, starter, dealer = (env.kept.copy(), env.discards.copy(),
                                           env.starter.copy(), env.dealer.copy())
        uids = play.uid.copy()
        before = len(play.final_uid)
        play.step(epsilon=0.5)
        if len(play.final_uid) == before:
            continue
        for uid, peg, total in zip(play.final_uid[-1], play.final_peg[-1],
                                   play.final_total[-1]):
            slot = int(np.nonzero(uids == uid)[0][0])
            d = int(dealer[slot])
            st = card(int(starter[slot]))
            show = np.zeros(2)
            show[1 - d] += score_show(cards(int(kept[slot, 1 - d])), st).total
            show[d] += score_show(cards(int(kept[slot, d])), st).total
            crib = cards(int(discards[slot, 0] | discards[slot, 1]))
            show[d] += score_show(crib, st, crib=True).total
            heels = np.zeros(2)
            heels[d] = 2 if st.rank == 11 else 0
            assert np.allclose(total, peg + show + heels)
            assert peg.sum() >= 1  # at least the last card's go
            checked += 1
    assert checked > 30


def test_training_a_few_rounds_changes_the_weights():
    env = BatchedCribbage(32, seed=1)
    settings = Settings(steps=32 * 8 * 6, batch=32, rollout=8, updates=4, minibatch=64,
                        hidden=(8,), seed=3)
    start = initial_weights(settings.hidden, settings.seed)
    before = [w.copy() for w, _ in start.discard.layers + start.play.layers]
    seen = []
    weights = train(env, settings, start, report=seen.append)
    after = [w for w, _ in weights.discard.layers + weights.play.layers]
    assert len(seen) == 6 and seen[-1].steps == 32 * 8 * 6 and seen[-1].deals > 0
    assert all(np.isfinite(a).all() for a in after)
    assert any(not np.array_equal(a, b) for a, b in zip(after, before))
    assert seen[-1].discard_loss > 0 and seen[-1].play_loss > 0
