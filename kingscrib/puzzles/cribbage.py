"""Cribbage puzzles (two players): the best discard, and the best card in the play.

* best discard: six cards dealt, lay two away; options ranked by the exact expected
  points (:func:`kingscrib.classic.discard.analyse_discards`: the hand kept over every
  starter, the crib over every way it can be filled, for you or against you). "Scores
  most now" is the option keeping the four cards that count most without a starter.
* best card: options ranked by the play's search (:func:`kingscrib.players.classic.
  pegsearch.card_values`: the rest of the play solved exactly for every holding the
  opponent may have, each weighed by how likely it is; every holding, none sampled),
  in points pegged, yours less theirs. "Scores most now" is the card pegging most at once.

A position is a puzzle when the best option is ahead of the second by the game kind's
margin and is not one that scores most now.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kingscrib.classic.cards import Card, parse_cards
from kingscrib.classic.discard import analyse_discards
from kingscrib.classic.game import PlayerView
from kingscrib.classic.naming import WhichCards, read_cards
from kingscrib.classic.pegging import MAX_COUNT, count_of, peg_score
from kingscrib.classic.rules import RuleSet
from kingscrib.counting import card_points, count_hand
from kingscrib.puzzles.puzzle import Puzzle

DISCARD = "best-discard"
CARD = "best-card"
DISCARD_MARGIN = 1.0  # expected points the best discard is ahead of the second
CARD_MARGIN = 1.0  # expected points pegged (yours less theirs) the best card is ahead
EVERY_HOLDING = 10**9  # search every holding of the opponent (see pegsearch.EXACT_LIMIT)


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(map(str, cards))


def _kept_now(keep: Sequence[Card]) -> int:
    """What the four cards kept count whatever the starter: fifteens, pairs, runs, and
    4 for a flush in the hand."""
    flush = 4 if len({c.suit for c in keep}) == 1 else 0
    return count_hand(sorted(c.rank for c in keep)).total + flush


# ----- the best discard ---------------------------------------------------------------
@dataclass(frozen=True)
class Choice:
    """One option with its value, what it scores now, and its numbers for the breakdown."""

    answer: str
    value: float
    now: int
    numbers: dict[str, Any]


def discard_choices(position: dict[str, Any]) -> list[Choice]:
    """Every way to lay two of the six cards away, best first."""
    hand = parse_cards(position["hand"])
    options = analyse_discards(hand, dealer=bool(position["dealer"]))
    return [Choice(_cards(o.discard), o.total, _kept_now(o.keep),
                   {**o.to_json(), "now": _kept_now(o.keep)}) for o in options]


def discard_position(hand: Sequence[Card], dealer: bool) -> dict[str, Any]:
    return {"hand": [str(c) for c in hand], "dealer": dealer}


def _discard_theme(best: Choice, greedy: Choice, dealer: bool) -> str:
    hand_gain = best.numbers["hand"] - greedy.numbers["hand"]
    crib_gain = best.numbers["crib"] - greedy.numbers["crib"]
    if crib_gain > hand_gain:
        return "feed your own crib" if dealer else "keep good cards out of their crib"
    return "keep the hand the starter helps"


# ----- the best card in the play ------------------------------------------------------
def play_view(position: dict[str, Any]) -> PlayerView:
    """The seat's view of a play position (seat 0 is the player, seat 1 the opponent)."""
    hand = tuple(parse_cards(position["hand"]))
    pile = tuple(parse_cards(position["pile"]))
    played = tuple((0 if who == "me" else 1, Card.parse(c)) for who, c in position["played"])
    mine = tuple(c for s, c in played if s == 0)
    return PlayerView(
        seat=0, rules=RuleSet(players=2), phase="play", dealer=0 if position["dealer"] else 1,
        hand=hand, kept=hand + mine, discards=tuple(parse_cards(position["discards"])),
        starter=Card.parse(position["starter"]), pile=pile, count=count_of(
            [c.rank for c in pile]), played=played, scores=(0, 0),
        cards_left=(len(hand), int(position["opponent_cards"])), legal=(), show_item=None)


def card_choices(position: dict[str, Any]) -> list[Choice]:
    """Every rank the player may lay now (cards of one rank play alike), best first."""
    from kingscrib.players.classic.expert import go_floor
    from kingscrib.players.classic.levels import unseen_by
    from kingscrib.players.classic.pegsearch import card_values

    view = play_view(position)
    pile = tuple(c.rank for c in view.pile)
    values = card_values(tuple(c.rank for c in view.hand), pile,
                         [c.rank for c in unseen_by(view)], view.cards_left[1],
                         tuple(c.rank for s, c in view.played if s == 1), go_floor(view),
                         random.Random(0), exact_limit=EVERY_HOLDING)
    out = []
    for rank, value in values.items():
        cards = [c for c in view.hand if c.rank == rank]
        now = peg_score(pile + (rank,)).total
        out.append(Choice(str(cards[0]), value, now,
                          {"cards": [str(c) for c in cards], "now": now,
                           "pegging": round(value, 4)}))
    out.sort(key=lambda c: -c.value)
    return out


def _card_theme(best: Choice, greedy: Choice, pile: Sequence[int]) -> str:
    after = count_of(list(pile)) + card_points(Card.parse(best.answer).rank)
    if after < 15 and count_of(list(pile)) + card_points(Card.parse(greedy.answer).rank) < 15:
        return "set up your next card"
    return "do not give them a reply"


# ----- puzzles ----------------------------------------------------------------------
def choices(kind: str, position: dict[str, Any]) -> list[Choice]:
    return discard_choices(position) if kind == DISCARD else card_choices(position)


def margin_of(kind: str) -> float:
    return DISCARD_MARGIN if kind == DISCARD else CARD_MARGIN


def make_puzzle(kind: str, position: dict[str, Any], puzzle_id: str) -> Puzzle | None:
    found = choices(kind, position)
    if len(found) < 2:
        return None
    best, second = found[0], found[1]
    top_now = max(c.now for c in found)
    if best.value - second.value < margin_of(kind) or best.now >= top_now:
        return None
    greedy = max(found, key=lambda c: (c.now, c.value))
    if kind == DISCARD:
        theme = _discard_theme(best, greedy, bool(position["dealer"]))
    else:
        theme = _card_theme(best, greedy, [Card.parse(c).rank for c in position["pile"]])
    return Puzzle(puzzle_id, "cribbage", kind, position, best.answer,
                  round(best.value - second.value, 3), best.numbers, second.numbers, top_now,
                  theme, 0)


def read_answer(puzzle: Puzzle, text: str) -> list[Card]:
    """The cards of an answer (two to lay away, or one to lay); ValueError says what is
    wrong with it."""
    held = parse_cards(puzzle.position["hand"])
    need = 2 if puzzle.kind == DISCARD else 1
    words = text.replace(",", " ").split()  # each word names one card
    if len(words) != need:  # a word that is no card is said first, then how many to name
        try:
            read_cards(text, held)
        except WhichCards:
            pass
        except ValueError as e:
            if "is not a card" in str(e):
                raise
        raise ValueError(f"name {'two cards to lay away' if need == 2 else 'one card to lay'},"
                         f" not {len(words)}")
    cards = read_cards(text, held)
    if puzzle.kind == CARD:
        pile = [Card.parse(c).rank for c in puzzle.position["pile"]]
        if count_of(pile) + card_points(cards[0].rank) > MAX_COUNT:
            raise ValueError(f"{cards[0]} would take the count past {MAX_COUNT}"
                             f" (it is {count_of(pile)})")
    return cards


def choice_of(puzzle: Puzzle, cards: Sequence[Card], found: Sequence[Choice]) -> Choice:
    """The option the answer ``cards`` is."""
    if puzzle.kind == DISCARD:
        wanted = _cards(sorted(cards))
        return next(c for c in found if c.answer == wanted)
    return next(c for c in found if Card.parse(c.answer).rank == cards[0].rank)


def is_best(puzzle: Puzzle, cards: Sequence[Card], best: str | None = None) -> bool:
    """Whether ``cards`` are the ``best`` answer (the puzzle's stated one by default); in
    the play any card of the best rank is as good."""
    best = puzzle.answer if best is None else best
    if puzzle.kind == DISCARD:
        return _cards(sorted(cards)) == best
    return cards[0].rank == Card.parse(best).rank


def check(puzzle: Puzzle) -> list[str]:
    """What is wrong with a Cribbage puzzle, analysed again from scratch."""
    found = choices(puzzle.kind, puzzle.position)
    if len(found) < 2:
        return ["fewer than two options"]
    problems = []
    best, second = found[0], found[1]
    margin = best.value - second.value
    try:
        cards = read_answer(puzzle, puzzle.answer)
    except ValueError as e:
        return [f"the answer {puzzle.answer!r} cannot be read: {e}"]
    if not is_best(puzzle, cards, best.answer):
        problems.append(f"the best option is {best.answer}, not {puzzle.answer}")
    if abs(margin - puzzle.margin) > 0.001:
        problems.append(f"the margin is {margin:.3f}, not {puzzle.margin}")
    if margin < margin_of(puzzle.kind):
        problems.append(f"the margin {margin:.3f} is under {margin_of(puzzle.kind)}")
    top_now = max(c.now for c in found)
    if best.now >= top_now:
        problems.append("the best option is also the one that scores most now")
    if top_now != puzzle.top_now:
        problems.append(f"the most scored now is {top_now}, not {puzzle.top_now}")
    return problems


# ----- explaining an answer ----------------------------------------------------------
def _discard_line(o: dict[str, Any], dealer: bool) -> str:
    crib = "your crib" if dealer else "their crib"
    return (f"lay away {' '.join(o['discard'])}, keep {' '.join(o['keep'])}: hand "
            f"{o['hand']:.2f} expected, {crib} {o['crib']:+.2f} = {o['total']:.2f}"
            f" (the four count {o['now']} before the starter)")


def _card_line(o: dict[str, Any]) -> str:
    now = f"scores {o['now']} now" if o["now"] else "scores nothing now"
    return f"{' or '.join(o['cards'])}: {now}, {o['pegging']:+.2f} pegged (yours less theirs)"


def judge(puzzle: Puzzle, text: str) -> tuple[bool, list[str]]:
    """Whether ``text`` is the best option, and why; ValueError when it cannot be one."""
    cards = read_answer(puzzle, text)
    right = is_best(puzzle, cards)
    dealer = bool(puzzle.position["dealer"])
    line = (_discard_line if puzzle.kind == DISCARD
            else lambda o, _d: _card_line(o))
    lines = [f"Best: {line(puzzle.breakdown, dealer)} ({puzzle.theme})."]
    if right:
        lines.append(f"It is {puzzle.margin:.2f} points ahead of the next best.")
        return True, lines
    found = choices(puzzle.kind, puzzle.position)
    mine = choice_of(puzzle, cards, found).numbers
    lines.append(f"Yours: {line(mine, dealer)}.")
    if puzzle.kind == DISCARD:
        lost = puzzle.breakdown["total"] - mine["total"]
        lines.append(f"It gave up {lost:.2f} points: {mine['hand'] - puzzle.breakdown['hand']:+.2f}"
                     f" in the hand, {mine['crib'] - puzzle.breakdown['crib']:+.2f} in the crib.")
    else:
        lost = puzzle.breakdown["pegging"] - mine["pegging"]
        more = mine["now"] - puzzle.breakdown["now"]
        now = (f"although it scores {more} more now" if more > 0 else
               "and scores the same now" if more == 0 else f"and scores {-more} less now")
        lines.append(f"It gave up {lost:.2f} points in the rest of the play, {now}.")
    return False, lines


# ----- self-play ----------------------------------------------------------------------
SELFPLAY_PLAYER = "baseline"  # fast; deals are deals, and its plays leave real choices
# The search weighs every holding of the opponent: with three or four cards in their hand
# that is seconds a position, so self-play looks at the card to lay when they hold two or
# fewer (the discard is exact and quick every time).
CARD_MAX_HELD = 2


def game_puzzles(seed: int, kinds: Sequence[str] = (DISCARD, CARD)) -> list[Puzzle]:
    """The puzzles of ``kinds`` met in one two-player self-play game: each discard and
    each card to lay with a choice of ranks."""
    from kingscrib.classic.game import ClassicGame
    from kingscrib.classic.game import Play as PlayAction
    from kingscrib.players.classic.registry import make_player

    players = [make_player(SELFPLAY_PLAYER, seed * 10 + i) for i in range(2)]
    game = ClassicGame(RuleSet(players=2), seed=seed, names=[p.name for p in players])
    found: list[Puzzle] = []
    step = 0
    while (seat := game.to_move()) is not None:
        view = game.view(seat)
        step += 1
        puzzle = None
        pid = f"cribbage-{seed}-{step}"
        if view.phase == "discard" and len(view.hand) == 6 and DISCARD in kinds:
            puzzle = make_puzzle(DISCARD, discard_position(view.hand, view.is_dealer), pid)
        elif view.phase == "play" and CARD in kinds:
            ranks = {a.card.rank for a in view.legal if isinstance(a, PlayAction)}
            if len(ranks) > 1 and view.cards_left[1 - view.seat] <= CARD_MAX_HELD:
                puzzle = make_puzzle(CARD, _play_position(view), pid)
        if puzzle is not None:
            found.append(puzzle)
        action = players[seat].choose(view)
        game.apply(action)
    return found


def _play_position(view: PlayerView) -> dict[str, Any]:
    return {"hand": [str(c) for c in view.hand], "pile": [str(c) for c in view.pile],
            "played": [["me" if s == view.seat else "them", str(c)] for s, c in view.played],
            "discards": [str(c) for c in view.discards], "starter": str(view.starter),
            "dealer": view.is_dealer, "opponent_cards": view.cards_left[1 - view.seat]}
