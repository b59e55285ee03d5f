"""Pure drawing for the classic Cribbage terminal game: cards, the deal on the table,
the hand, the peg board and the messages of its replies -> rich renderables."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from kingscrib.classic.cards import Card
from kingscrib.classic.game import ClassicGame, possessive
from kingscrib.classic.rules import WINNING_SCORE
from kingscrib.terminal.controllers.classic import (
    ClassicSession,
    CribbageRules,
    DiscardHints,
    PegBoard,
    cards_line,
)
from kingscrib.terminal.controllers.reply import Message
from kingscrib.terminal.views.classic_rules import rules_table
from kingscrib.terminal.views.lines import line_text

HOLES_PER_STREET = 60
SIDE_STYLES = ("bold green", "bold magenta", "bold cyan")


def card_text(card: Card) -> Text:
    return line_text(cards_line([card]))


def cards_text(cards: Sequence[Card], numbered: bool = False) -> Text:
    return line_text(cards_line(cards, numbered))


LABEL_WIDTH = 9  # the board's 120 holes, its score and the labels fit in 80 columns


def short_name(name: str, width: int = LABEL_WIDTH) -> str:
    """A seat's name in ``width`` columns: ``computer 2`` is ``comp 2``."""
    if len(name) > width and name.startswith("computer"):
        name = "comp" + name[len("computer"):]
    return name[:width]


def side_labels(game: ClassicGame, side: int) -> tuple[str, str]:
    """The labels of a side's two streets: its name, and in a game of four the partner's
    on the second street (``you`` over ``& comp 2``), so partners are told apart."""
    if game.rules.players == 4:
        return (short_name(game.names[side]),
                "& " + short_name(game.names[side + 2], LABEL_WIDTH - 2))
    return short_name(game.side_name(side)), ""


def peg_board(game: ClassicGame, back_pegs: Sequence[int]) -> Text:
    """The board: for each side two streets of 60 holes, the front peg ● at its score
    and the back peg ○ at its score before its last points; then the score."""
    g = game
    out = Text()
    for side in range(g.rules.sides):
        style = SIDE_STYLES[side % len(SIDE_STYLES)]
        front, back = g.scores[side], back_pegs[side]
        labels = side_labels(g, side)
        for street in range(2):
            label = f"{labels[street]:>{LABEL_WIDTH}} "
            out.append(label, style="bold" if street == 0 else "")
            for hole in range(street * HOLES_PER_STREET + 1,
                              (street + 1) * HOLES_PER_STREET + 1):
                if hole == front:
                    out.append("●", style=style)
                elif hole == back and back:
                    out.append("○", style=style)
                else:
                    out.append("·" if hole % 5 else "•", style="dim")
                if hole % 30 == 0 and hole % HOLES_PER_STREET:
                    out.append("│", style="dim")
            if street == 0:
                out.append(f" {front:>3}/{WINNING_SCORE}", style="bold")
            elif front >= WINNING_SCORE:
                out.append(" ● home", style=style)
            out.append("\n")
    out.rstrip()
    return out

def table_view(session: ClassicSession) -> RenderableType:
    """The deal: dealer and crib, the starter, the count and the cards laid."""
    g = session.game
    parts: list[RenderableType] = []
    head = Text(f"Classic Cribbage · deal {len(g.deals)} · {g.names[g.dealer]} "
                f"{'deal' if g.names[g.dealer] == 'you' else 'deals'}", style="bold")
    if g.rules.muggins:
        head.append(" · muggins", style="yellow")
    parts.append(head)
    line = Text("Starter: ")
    line.append_text(card_text(g.starter) if g.starter else Text("(not cut yet)",
                                                                 style="dim"))
    if g.phase == "play":
        line.append(f"   Count: {g.count}   ")
        line.append_text(cards_text(g.pile))
    parts.append(line)
    if g.phase == "show" and g.show_item is not None:
        item = g.show_item
        show = Text(f"Showing {possessive(g.names[item.seat])} {item.kind}: ")
        show.append_text(cards_text(item.cards))
        parts.append(show)
    return Group(*parts)

def hand_text(session: ClassicSession) -> Text:
    viewer = session.viewer()
    if viewer is None:
        return Text("")
    g = session.game
    hand = sorted(g.view(viewer).hand)
    owner = "Your hand" if g.names[viewer] == "you" else f"{g.names[viewer]}'s hand"
    out = Text(f"{owner}: ", style="bold")
    out.append_text(cards_text(hand, numbered=True) if hand else Text("(none left)",
                                                                      style="dim"))
    kept = g.view(viewer).kept
    if g.phase == "play" and kept:
        out.append("   for the show: ", style="dim")
        out.append_text(cards_text(sorted(kept)))
    return out


def discard_hints_table(hints: DiscardHints) -> Table:
    title = "Best discards (expected points)"
    table = Table(title=title, title_justify="left", title_style="bold", box=None,
                  padding=(0, 2), min_width=len(title))  # the title whole, not wrapped
    for column in ("lay away", "hand", "crib"):
        table.add_column(column, justify="right" if column != "lay away" else "left")
    for o in hints.options:
        table.add_row(cards_text(o.discard), f"{o.hand:.2f}", f"{o.crib:+.2f}")
    return table


def render_message(message: Message, plain: bool = False) -> RenderableType | None:
    """A classic Cribbage message drawn, or None when it is not one of this game's own."""
    if isinstance(message, PegBoard):
        return peg_board(message.game, message.back)
    if isinstance(message, CribbageRules):
        return rules_table(message.rules)
    if isinstance(message, DiscardHints):
        return discard_hints_table(message)
    return None


__all__ = ["card_text", "cards_text", "discard_hints_table", "hand_text", "peg_board",
           "render_message", "table_view"]
