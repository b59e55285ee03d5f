"""The opening's capped plays found from its tile sequences equal capping every play."""

from __future__ import annotations

import random

import pytest

from kingscrib.env.kings_actions import MAX_PLAYS, keep_best
from kingscrib.env.kings_openings import opening_plays
from kingscrib.kings.fastgen import best_plays
from kingscrib.kings.rules import RuleSet
from kingscrib.kings.tiles import full_set

RULES = [RuleSet(), RuleSet(reduced_first_bonus=True)]


def racks(count: int, seed: int):
    rng = random.Random(seed)
    tiles = full_set()
    for _ in range(count):
        yield sorted(rng.sample(tiles, rng.choice((5, 5, 5, 4, 3, 2))))
    yield sorted(t for t in tiles if t.rank == 5)[:4] + [tiles[-1]]  # four of a kind


@pytest.mark.parametrize("rules", RULES, ids=["standard", "reduced_first_bonus"])
def test_capped_openings_equal_the_full_generators(rules):
    caps = (MAX_PLAYS, 300, 40)  # small caps reach every tier of keep_best
    for rack in racks(60, seed=len(str(rules))):
        every = best_plays({}, rack, rules)
        for cap in caps:
            kept, count, build = opening_plays(rack, rules, cap, keep_best)
            assert count == len(every), rack
            assert kept == keep_best(every, cap), (rack, cap)
            first, _, _ = opening_plays(rack, rules, cap, None)
            assert first == every[:cap], (rack, cap)
        assert build() == every, rack


def test_an_openings_factored_turn_is_small_and_masks_as_every_play_does():
    """The factored encoding keeps an opening's tile sequences, not its (here 40,542)
    plays, and its masks equal those made from the list of every play, tiles placed or
    not."""
    import pickle

    import numpy as np

    from kingscrib.env.kings_factored import COMMIT, Placing, placement
    from kingscrib.kings.tiles import parse_tiles

    rack = parse_tiles("5L 5D 5L JD TL")
    rules = RuleSet()
    every = best_plays({}, rack, rules)
    assert len(every) == 40_542
    _, _, source = opening_plays(rack, rules, MAX_PLAYS, keep_best)
    compact, full = Placing(source), Placing(every)
    base = type("Base", (), {"mask": np.ones(COMMIT + 1, np.int8)})()
    rng = random.Random(1)
    for _ in range(3):  # place a tile the mask allows, three times
        mask = compact.mask(base)
        assert np.array_equal(mask, full.mask(base))
        places = [i for i in np.flatnonzero(mask) if 32 <= i < COMMIT]
        square, face = placement(int(rng.choice(places)))
        compact.placed[square] = full.placed[square] = face
    assert len(pickle.dumps(compact)) < 20_000 < len(pickle.dumps(full)) // 50
