"""A lesson's prepared position drawn for the terminal: the board and rack, or the cards."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from kingscrib.classic.cards import parse_cards
from kingscrib.classic.pegging import count_of
from kingscrib.kings.moves import Play
from kingscrib.learn.kings import position_of
from kingscrib.learn.lesson import DISCARD, NUMBER, PEG, Step
from kingscrib.terminal.views.kings import rack_codes, render_board, render_rack


def cards_text(texts: list[str]) -> str:
    return " ".join(c.pretty() for c in parse_cards(texts))


def setup_view(step: Step, plain: bool, played: Play | None = None) -> RenderableType:
    """The prepared position: the board and rack, or the cards (``played``: the accepted
    play, marked on the board)."""
    setup = step.setup
    if step.game == "kings":
        position = position_of(step)
        board = dict(position.board)
        if played is not None:
            board.update(played.placed)
        left = list(position.rack)
        for tile in (played.placed.values() if played is not None else ()):
            left.remove(tile.held())  # an accepted play's tiles came from the rack
        # the tiles on one line, their codes and the bag on the next: both fit the 49
        # columns beside the lesson's text at 80x24, five tiles and all
        rack = Text("Your rack: ", style="bold")
        rack.append_text(render_rack(left, plain, codes=False))
        bag = setup.get("bag") or 0
        under = Text(" " * len("Your rack: "))
        if left and not plain:
            under.append(rack_codes(left) + "   ", style="dim")
        under.append(f"bag {bag}" if bag else "the bag is empty", style="dim")
        marked = played.placed if played is not None else ()
        return Group(render_board(board, marked, plain), rack, under)
    out = Text()
    if step.answer == NUMBER:
        label = "The crib" if setup.get("crib") else "The hand"
        out.append(f"{label}: ", style="bold")
        out.append(cards_text(setup["hand"]))
        out.append("   Starter: ", style="bold")
        out.append(cards_text([setup["starter"]]))
    elif step.answer == DISCARD:
        out.append("Your six cards: ", style="bold")
        out.append(cards_text(setup["cards"]))
        out.append("\n" + ("You deal: the crib is yours." if setup["dealer"]
                           else "Your opponent deals: the crib is theirs."), style="dim")
    elif step.answer == PEG:
        pile = parse_cards(setup["pile"])
        out.append("Laid so far: ", style="bold")
        out.append(f"{cards_text(setup['pile'])}  (count {count_of([c.rank for c in pile])})")
        out.append("\nYour hand: ", style="bold")
        out.append(cards_text(setup["hand"]))
    return out


ANSWER_HINT = {"move": "a move, e.g. H7 across 6 9 K, exchange 8, pass",
               NUMBER: "a number of points", DISCARD: "two cards, e.g. 6C 9C, 6♣ 9, #4 #5",
               PEG: "a card, e.g. 7D, 7 or #1, or go"}


__all__ = ["ANSWER_HINT", "cards_text", "setup_view"]
