"""``status[6]`` of the Cribbage observation is the deal's number, 1 in the first deal, as
docs/rl.md says, in ``cribbage_v1`` and in the batched engine alike."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from kingscrib.env import cribbage_v1
from kingscrib.env.batched_cribbage import O_STATUS, BatchedCribbage

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


def test_the_deal_number_counts_the_deals_begun():
    env = cribbage_v1.env()
    env.reset(seed=11)
    deal, last_phase, seen = 1, 0, set()
    rng = np.random.default_rng(1)
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        status = obs["observation"]["status"]
        if status[0] == 0 and last_phase != 0:  # a discard after a show: a new deal
            deal += 1 if seen else 0
        last_phase = status[0]
        if status[0] != 3:
            assert status[6] == deal
            seen.add(deal)
        action = None if terminated or truncated else int(
            rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
    assert len(env.unwrapped.game.deals) == deal > 3
    assert seen == set(range(1, deal + 1))


def test_the_batched_engine_starts_at_deal_one_and_the_docs_say_so():
    env = BatchedCribbage(4, seed=2)
    obs, _ = env.reset()
    assert (obs[:, O_STATUS + 6] == 1).all()
    text = DOCS.read_text()
    assert "the deal's number (1 in the first deal" in text
    assert "deals so far" not in text
