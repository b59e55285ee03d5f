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


def test_a_wrong_crib_count_names_the_crib_flush_rule():
    crib = next(s for s in lessons("cribbage")[1].steps if s.setup.get("crib"))
    verdict = check(crib, "8")  # 4 for the fifteens and 4 for a flush the crib lacks
    assert not verdict.ok
    assert "the crib is worth 4" in verdict.message
    assert "a flush in the crib needs all five cards" in verdict.message


def test_the_explanation_lists_every_fifteen_card_by_card():
    step = lessons("cribbage")[0].steps[0]  # 5♥ J♦ 2♣ 8♠, starter 7♣
    for verdict in (check(step, "6"), check(step, "4")):
        listed = " ".join(verdict.breakdown)
        for fifteen in ("5♥+J♦", "8♠+7♣", "5♥+2♣+8♠"):
            assert fifteen in listed
    runs = " ".join(check(lessons("cribbage")[0].steps[1], "8").breakdown)
    assert "5♣+K♥" in runs and "3♥ 4♠ 5♣" in runs and "3♥ 4♦ 5♣" in runs


def test_lessons_read_cards_in_the_game_s_one_grammar():
    deal = lessons("cribbage")[1].steps[1]  # 5♥ 5♠ J♦ 6♣ 9♣ K♠, best 6♣ 9♣
    for answer in ("6C 9C", "6♣ 9♣", "#4 #5", "9 6♣"):
        assert check(deal, answer).ok, answer
    asked = check(deal, "9 6")  # 6 is the rank 6♣ and the place #6 (K♠)
    assert not asked.ok and "Type 9♣ 6♣ or 9♣ #6" in asked.message
    peg = lessons("cribbage")[2].steps[0]  # count 8, hand 7♦ 2♣ K♥ 4♠: 7♦ makes 15
    assert check(peg, "7").ok and check(peg, "#1").ok
    asked = check(peg, "2")  # the rank 2♣, or the place #2 (2♣): one card, no question
    assert not asked.ok and "another card scores 2" in asked.message
    asked = check(peg, "4")  # the rank 4♠, or the place #4 (4♠)
    assert "?" not in asked.message
    three = check(lessons("cribbage")[1].steps[2], "2 K")  # 7♥ 8♥ 7♠ 8♦ K♣ 2♠
    assert not three.ok and "Type 2♠ K♣ or #2 K♣" in three.message
