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
