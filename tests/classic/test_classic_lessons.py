"""Every Cribbage lesson can be solved, and its checker accepts exactly the right
answers: every number, every discard and every card of each step is put to the checker
and compared with the reference's count (tests/classic/classic_reference.py), an
exhaustive average over the starters and cribs, or the reference's pegging score."""

from __future__ import annotations

from itertools import combinations

import pytest
from classic_reference import full_deck, ref_peg, ref_score

from kingscrib.classic.cards import Card, parse_cards
from kingscrib.learn import check, lessons
from kingscrib.learn.lesson import DISCARD, NUMBER, PEG

STEPS = [(lesson.id, n, step) for lesson in lessons("cribbage")
         for n, step in enumerate(lesson.steps)]
IDS = [f"{lesson_id}-{n}" for lesson_id, n, _ in STEPS]


def right_number(step) -> int:
    hand, starter = parse_cards(step.setup["hand"]), Card.parse(step.setup["starter"])
    total = ref_score(hand, starter, step.setup.get("crib", False))
    return total - step.setup.get("claimed", 0)


def mean_hand(keep: list[Card], unseen: list[Card]) -> float:
    return sum(ref_score(keep, s) for s in unseen) / len(unseen)


def best_discards(cards: list[Card], dealer: bool) -> set[frozenset]:
    """The discards of highest hand + signed crib expectation; the crib is averaged over
    every starter and pair of unseen cards (slow, plain)."""
    unseen = [c for c in full_deck() if c not in cards]
    values = {}
    for throw in combinations(cards, 2):
        keep = [c for c in cards if c not in throw]
        crib = 0.0
        deals = 0
        for starter in unseen:
            rest = [c for c in unseen if c != starter]
            for pair in combinations(rest, 2):
                crib += ref_score(list(throw) + list(pair), starter, crib=True)
                deals += 1
        values[frozenset(throw)] = mean_hand(keep, unseen) + (1 if dealer else -1) * crib / deals
    top = max(values.values())
    return {throw for throw, v in values.items() if v > top - 1e-6}


@pytest.mark.parametrize(("lesson_id", "n", "step"), STEPS, ids=IDS)
def test_the_checker_accepts_exactly_the_right_answers(lesson_id, n, step):
    assert check(step, step.intended).ok
    if step.answer == NUMBER:
        assert [k for k in range(40) if check(step, str(k)).ok] == [right_number(step)]
        verdict = check(step, str(right_number(step) + 2))
        assert not verdict.ok and verdict.breakdown
        assert not check(step, "ten").ok
    elif step.answer == DISCARD:
        cards = parse_cards(step.setup["cards"])
        accepted = {frozenset(throw) for throw in combinations(cards, 2)
                    if check(step, [str(c) for c in throw]).ok}
        assert accepted == best_discards(cards, step.setup["dealer"])
        assert not check(step, "AS 2S").ok  # cards not in the hand
    elif step.answer == PEG:
        pile = [c.rank for c in parse_cards(step.setup["pile"])]
        hand = parse_cards(step.setup["hand"])
        count = sum(min(r, 10) for r in pile)
        playable = [c for c in hand if count + min(c.rank, 10) <= 31]
        scores = {c: ref_peg(pile + [c.rank]) for c in playable}
        best = max(scores.values(), default=None)
        for card in hand:
            assert check(step, str(card)).ok == (card in scores and scores[card] == best)
        assert check(step, "go").ok == (not playable)


def test_a_wrong_count_says_what_the_hand_is_worth():
    step = lessons("cribbage")[0].steps[1]
    verdict = check(step, "8")
    assert not verdict.ok and "worth 10" in verdict.message
    assert "double run of three" in verdict.breakdown[0]
