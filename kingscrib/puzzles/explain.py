"""Showing a puzzle and explaining an answer, as lines of text (front ends print them)."""

from __future__ import annotations

from typing import Any

from kingscrib.puzzles import cribbage
from kingscrib.puzzles.puzzle import Puzzle

PROMPTS = {"best-play": "Find the best play (e.g. G7 across 7L 8D, exchange 7L, pass)",
           "best-discard": "Lay two cards away (e.g. 5H JD)",
           "best-card": "Lay one card (e.g. 7C)"}


def _kings_line(o: dict[str, Any]) -> str:
    reply = "no reply looked at" if o.get("reply") is None else f"their reply {o['reply']:.1f}"
    return (f"{o['move']}: {o['score']} points now, leave {o['leave']:+.1f}, {reply}"
            f" = equity {o['equity']:.1f}")


def kings_judgement(puzzle: Puzzle, text: str) -> tuple[bool, list[str]]:
    """Whether ``text`` is the best play, and why; ValueError when it is not a legal option."""
    from kingscrib.kings.position import Position
    from kingscrib.puzzles.kings import read_answer, same_option, weigh_answer

    position = Position.from_json(puzzle.position)
    action = read_answer(position, text)
    best = read_answer(position, puzzle.answer)
    best_o = puzzle.breakdown
    lines = [f"Best: {_kings_line(best_o)} ({puzzle.theme})."]
    if best_o.get("sim") is not None and puzzle.second.get("sim") is not None:
        lines.append(f"Simulation agrees ({best_o['sim_iterations']} play-outs of each close"
                     f" option over the unseen tiles): {best_o['sim']:+.1f} a play-out,"
                     f" {puzzle.second['move']} {puzzle.second['sim']:+.1f}.")
    if same_option(action, best, position):
        lines.append(f"It is {puzzle.margin:.1f} ahead of the next best, "
                     f"{puzzle.second['move']} ({puzzle.second['equity']:.1f}).")
        return True, lines
    mine = weigh_answer(position, puzzle.seed, action)
    if mine is None:
        lines.append("Your option was not among those the engine weighs.")
        return False, lines
    data = mine.to_json()
    lost = best_o["equity"] - data["equity"]
    lines.append(f"Yours: {_kings_line(data)}.")
    parts = [f"{data['score'] - best_o['score']:+d} points now",
             f"{data['leave'] - best_o['leave']:+.1f} in the tiles kept"]
    if data.get("reply") is not None and best_o.get("reply") is not None:
        parts.append(f"{best_o['reply'] - data['reply']:+.1f} x 0.5 in what it leaves them")
    lines.append(f"It gave up {lost:.1f} equity: " + ", ".join(parts) + ".")
    return False, lines


def _discard_line(o: dict[str, Any], dealer: bool) -> str:
    crib = "your crib" if dealer else "their crib"
    return (f"lay away {' '.join(o['discard'])}, keep {' '.join(o['keep'])}: hand "
            f"{o['hand']:.2f} expected, {crib} {o['crib']:+.2f} = {o['total']:.2f}"
            f" (the four count {o['now']} before the starter)")


def _card_line(o: dict[str, Any]) -> str:
    now = f"scores {o['now']} now" if o["now"] else "scores nothing now"
    return f"{' or '.join(o['cards'])}: {now}, {o['pegging']:+.2f} pegged (yours less theirs)"


def cribbage_judgement(puzzle: Puzzle, text: str) -> tuple[bool, list[str]]:
    """Whether ``text`` is the best option, and why; ValueError when it cannot be one."""
    cards = cribbage.read_answer(puzzle, text)
    right = cribbage.is_best(puzzle, cards)
    dealer = bool(puzzle.position["dealer"])
    line = (_discard_line if puzzle.kind == cribbage.DISCARD
            else lambda o, _d: _card_line(o))
    lines = [f"Best: {line(puzzle.breakdown, dealer)} ({puzzle.theme})."]
    if right:
        lines.append(f"It is {puzzle.margin:.2f} points ahead of the next best.")
        return True, lines
    found = cribbage.choices(puzzle.kind, puzzle.position)
    mine = cribbage.choice_of(puzzle, cards, found).numbers
    lines.append(f"Yours: {line(mine, dealer)}.")
    if puzzle.kind == cribbage.DISCARD:
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


def judge(puzzle: Puzzle, text: str) -> tuple[bool, list[str]]:
    """(right, explanation); ValueError with a precise message for an answer that is not
    an option of the position."""
    if puzzle.game == "kings":
        return kings_judgement(puzzle, text)
    return cribbage_judgement(puzzle, text)
