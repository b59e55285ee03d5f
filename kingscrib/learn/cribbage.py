"""The classic Cribbage lessons and their checker.

Counting steps are checked against the show's own scoring
(:func:`kingscrib.classic.show.score_show`), discards against the exact expectations of
:func:`kingscrib.classic.discard.analyse_discards`, and cards in the play against
:func:`kingscrib.classic.pegging.peg_score`.
"""

from __future__ import annotations

from typing import Any

from kingscrib.classic.cards import Card, parse_cards
from kingscrib.classic.discard import analyse_discards
from kingscrib.classic.naming import WhichCards, read_cards
from kingscrib.classic.pegging import MAX_COUNT, can_play, count_of, peg_score
from kingscrib.classic.show import ShowScore, score_show, show_combinations
from kingscrib.counting import JACK
from kingscrib.learn.lesson import DISCARD, NUMBER, PEG, Lesson, Step, Verdict

GO_WORDS = ("go",)
SAME_EXPECTATION = 1e-9  # discards whose expectations differ by less are equally good


def _step(answer: str, task: str, setup: dict[str, Any], goal: tuple[str, Any],
          intended: str, hint: str = "") -> Step:
    return Step("cribbage", answer, task, setup, goal, intended, hint)


def _count(task: str, hand: str, starter: str, intended: str, hint: str = "",
           crib: bool = False) -> Step:
    return _step(NUMBER, task, {"hand": hand.split(), "starter": starter, "crib": crib},
                 ("count", None), intended, hint)


def _peg(task: str, pile: str, hand: str, intended: str, hint: str = "") -> Step:
    return _step(PEG, task, {"pile": pile.split(), "hand": hand.split()}, ("peg", None),
                 intended, hint)


LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "counting", "cribbage", "Counting a hand",
        "In the show your four cards count with the starter, the card cut face up: 2 for"
        " each set of cards adding to 15 (A is 1, 10 J Q K are 10), 2 for each pair, 1 a"
        " card for each run of 3 or more (a double run counts twice), 4 for a flush of"
        " your four cards in one suit (5 if the starter matches too), and 1 for nobs: the"
        " jack of the starter's suit.",
        (
            _count("Count the fifteens: type the points of 5♥ J♦ 2♣ 8♠ with the starter 7♣.",
                   "5H JD 2C 8S", "7C", "6", "5+J, 8+7 and 5+2+8."),
            _count("A pair and runs: count 3♥ 4♠ 4♦ 5♣ with the starter K♥.",
                   "3H 4S 4D 5C", "KH", "10",
                   "Two runs of 3-4-5 (one for each 4), the pair of 4s, and 5+K."),
            _count("A flush: count J♠ 2♠ 7♠ 9♠ with the starter 4♦.", "JS 2S 7S 9S", "4D",
                   "6", "Four spades is a flush of 4; the jack of spades is no nobs with"
                        " a diamond starter."),
            _count("Nobs: count J♣ 3♦ 8♥ A♠ with the starter 7♣.", "JC 3D 8H AS", "7C",
                   "3", "7+8 is a fifteen, and the jack of clubs matches the starter."),
        ),
    ),
    Lesson(
        "the-crib", "cribbage", "The crib",
        "Each player lays two cards away to the crib, which belongs to the dealer and is"
        " counted last, like a hand, except that a flush in the crib counts only when all"
        " five cards, starter included, are one suit. The dealer lays away cards that"
        " help the crib; the other player keeps them out of it.",
        (
            _count("Count this crib: 2♥ 6♥ 8♥ Q♥ with the starter 5♠.", "2H 6H 8H QH", "5S",
                   "4", "2+8+5 and Q+5; four hearts are no flush in a crib without a heart"
                        " starter.",
                   crib=True),
            _step(DISCARD, "You deal: lay away the two cards that are worth most to you"
                  " (your hand and your crib).",
                  {"cards": "5H 5S JD 6C 9C KS".split(), "dealer": True}, ("discard", None),
                  "6C 9C", "Keep the two 5s with the jack and king: 15s with every ten."),
            _step(DISCARD, "Your opponent deals: lay away two cards that give their crib"
                  " least and keep your hand strong.",
                  {"cards": "7H 8H 7S 8D KC 2S".split(), "dealer": False},
                  ("discard", None), "2S KC", "7 7 8 8 is a double double run."),
        ),
    ),
    Lesson(
        "the-play", "cribbage", "The play: fifteen, go and 31",
        "In the play each player lays a card in turn, saying the running count, which"
        " never goes above 31. Making 15 or 31 scores 2; a pair of the last card 2 (three"
        " of a kind 6); a run among the last cards 1 a card. When you cannot lay a card"
        " without passing 31 you say \"go\"; the last player to lay a card scores 1.",
        (
            _peg("The count is 8. Lay the card that scores.", "8H", "7D 2C KH 4S", "7D",
                 "8 + 7 = 15."),
            _peg("The count is 25. Lay the card that scores.", "KC QD 5S", "6H 3C 2D",
                 "6H", "25 + 6 = 31."),
            _peg("The count is 29 and every card you hold would pass 31: say go.",
                 "KC QD 9S", "5H 3D 8C", "go", "Type go."),
        ),
    ),
    Lesson(
        "muggins", "cribbage", "Muggins",
        "With the muggins rule each player counts their own hand aloud; points they miss"
        " can be claimed by an opponent, who says \"muggins\" and scores them.",
        (
            _step(NUMBER, "Your opponent shows 6♣ 6♦ 7♥ 8♠ with the starter 9♦ and"
                  " counts 12. How many points can you take? Type the number.",
                  {"hand": "6C 6D 7H 8S".split(), "starter": "9D", "crib": False,
                   "claimed": 12}, ("missed", 12), "4",
                  "A double run of four is 8, the pair 2, the fifteens 6: 16 in all."),
        ),
    ),
)


def _cards(cards: tuple[Card, ...], joint: str = " ") -> str:
    return joint.join(c.pretty() for c in cards)


def _combinations(hand: list[Card], starter: Card, crib: bool) -> str:
    """Every combination card by card: ``fifteens 5♥+J♦, 8♠+7♣ (4); a pair 4♠ 4♦ (2)``."""
    found = show_combinations(hand, starter, crib)
    parts = []
    for kind, name in (("fifteen", "fifteens"), ("pair", "pairs"), ("run", "runs"),
                       ("flush", "a flush"), ("nobs", "nobs")):
        these = [c for c in found if c.kind == kind]
        if not these:
            continue
        if len(these) == 1 and kind in ("fifteen", "pair", "run"):
            name = {"fifteen": "a fifteen", "pair": "a pair", "run": "a run"}[kind]
        joint = "+" if kind == "fifteen" else " "
        listed = ", ".join(_cards(c.cards, joint) for c in these)
        parts.append(f"{name} {listed} ({sum(c.points for c in these)})")
    return "; ".join(parts) if parts else "no fifteen, pair, run, flush or nobs"


def _rules_at_stake(hand: list[Card], starter: Card, crib: bool) -> list[str]:
    """The rules of the show this hand turns on, said when a count is wrong."""
    rules = []
    if len({c.suit for c in hand}) == 1 and starter.suit != hand[0].suit:
        rules.append("a flush in the crib needs all five cards, the starter included, in"
                     " one suit" if crib else
                     "four cards of one suit in the hand are a flush of 4, the starter"
                     " need not match")
    jacks = [c for c in hand if c.rank == JACK]
    if jacks and all(c.suit != starter.suit for c in jacks):
        rules.append("nobs is only the jack of the starter's suit")
    return rules


def _breakdown(hand: list[Card], starter: Card, crib: bool,
               score: ShowScore) -> tuple[str, ...]:
    return (score.explain(), _combinations(hand, starter, crib) + f"; total {score.total}")


def _check_number(step: Step, answer: object) -> Verdict:
    setup = step.setup
    hand, starter = parse_cards(setup["hand"]), Card.parse(setup["starter"])
    crib = bool(setup.get("crib", False))
    score = score_show(hand, starter, crib=crib)
    breakdown = _breakdown(hand, starter, crib, score)
    text = str(answer).strip()
    if not text.isdecimal():
        return Verdict(False, "Type a number of points, e.g. 6.")
    said = int(text)
    kind = step.goal[0]
    truth = score.total if kind == "count" else score.total - step.goal[1]
    if said == truth:
        return Verdict(True, f"Right: {truth}.", breakdown)
    whose = "the crib" if crib else "the hand"
    what = f"{whose} is worth" if kind == "count" else \
        f"{whose} is worth {score.total}, they counted {step.goal[1]}: you take"
    at_stake = _rules_at_stake(hand, starter, crib)
    rules = (f" The rule{'s' if len(at_stake) > 1 else ''}: {'; '.join(at_stake)}."
             if at_stake else "")
    return Verdict(False, f"Not {said}: {what} {truth}.{rules}", breakdown)


def _read_cards(answer: object, held: list[Card], count: int) -> list[Card]:
    """The cards named in the one grammar of the game (:mod:`kingscrib.classic.naming`),
    places counted in ``held`` as it is shown."""
    text = " ".join(answer) if isinstance(answer, list) else str(answer)
    cards = read_cards(text, held)
    if len(cards) != count:
        raise ValueError(f"choose {count} card{'s' if count > 1 else ''}, not {len(cards)}")
    return cards


def _check_discard(step: Step, answer: object) -> Verdict:
    cards = parse_cards(step.setup["cards"])
    try:
        chosen = set(_read_cards(answer, cards, 2))
    except WhichCards as which:
        return Verdict(False, str(which))
    except ValueError as e:
        return Verdict(False, f"Not a discard: {e}.")
    options = analyse_discards(cards, dealer=step.setup["dealer"])
    best = options[0]
    mine = next(o for o in options if set(o.discard) == chosen)
    said = (f"laying away {' '.join(c.pretty() for c in mine.discard)}: hand"
            f" {mine.hand:.2f}, crib {mine.crib:+.2f}, on average {mine.total:.2f}",)
    if mine.total >= best.total - SAME_EXPECTATION:
        return Verdict(True, f"Right: the best discard, worth {mine.total:.2f} on average.",
                       said)
    return Verdict(False, f"Worth {mine.total:.2f} on average; laying away"
                          f" {' '.join(c.pretty() for c in best.discard)} is worth"
                          f" {best.total:.2f}.", said)


def _check_peg(step: Step, answer: object) -> Verdict:
    pile = parse_cards(step.setup["pile"])
    hand = parse_cards(step.setup["hand"])
    count = count_of([c.rank for c in pile])
    playable = [c for c in hand if can_play(c.rank, count)]
    text = str(answer).strip().lower()
    if text in GO_WORDS:
        if playable:
            return Verdict(False, f"You cannot say go: {playable[0].pretty()} can be laid"
                                  f" on {count}.")
        return Verdict(True, "Right: go. The other player lays what they can; the last"
                             " card laid scores 1.")
    try:
        (card,) = _read_cards(answer, hand, 1)
    except WhichCards as which:
        return Verdict(False, str(which))
    except ValueError as e:
        return Verdict(False, f"Not a card you can lay: {e}.")
    if card not in playable:
        return Verdict(False, f"{card.pretty()} would make {count + card.points}, above"
                              f" {MAX_COUNT}.")
    best = max(peg_score([c.rank for c in pile] + [c.rank]).total for c in playable)
    got = peg_score([c.rank for c in pile] + [card.rank])
    said = (f"{card.pretty()} makes {count + card.points}: "
            + (", ".join(got.reasons()) + f" for {got.total}" if got.total else "no points"),)
    if got.total == best:
        return Verdict(True, f"Right: {got.total} points.", said)
    return Verdict(False, f"It scores {got.total}; another card scores {best}.", said)


def check_step(step: Step, answer: object) -> Verdict:
    try:
        if step.answer == NUMBER:
            return _check_number(step, answer)
        if step.answer == DISCARD:
            return _check_discard(step, answer)
        if step.answer == PEG:
            return _check_peg(step, answer)
    except ValueError as e:
        return Verdict(False, f"Not an answer: {e}.")
    raise ValueError(f"a cribbage step is answered by a number, a discard or a card,"
                     f" not {step.answer!r}")


__all__ = ["LESSONS", "check_step"]
