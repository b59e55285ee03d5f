"""Claims in the terminal games (docs/play.md): under the Joker rule and muggins nothing
on screen tells a play's or a hand's value before the claim, and a claim above the value
is accepted, corrected and told, the excess going to the next player."""

from __future__ import annotations

import itertools

from classic.test_classic_terminal import until_human
from rich.console import Console

from kingscrib.classic.show import score_show
from kingscrib.cli.play import _summary
from kingscrib.kings.board import parse_square
from kingscrib.kings.play import IllegalPlay, check_play
from kingscrib.kings.rules import RuleSet
from kingscrib.terminal.controllers.classic import ClassicSession
from kingscrib.terminal.controllers.draft import Draft
from kingscrib.terminal.controllers.kings import CLAIM, MOVE, Seat, Session
from kingscrib.terminal.views import kings as kings_view
from kingscrib.terminal.views.replies import plain_text

G7, H7 = parse_square("G7"), parse_square("H7")


def plain(renderable, width: int = 120) -> str:
    console = Console(width=width, color_system=None, record=True, file=open("/dev/null", "w"))
    console.print(renderable)
    return console.export_text()


def joker_session() -> Session:
    seats = [Seat("You"), Seat("Computer", "computer", "greedy")]
    session = Session.new(seats, RuleSet(joker=True), seed=9)  # you play first
    assert session.game.turn == 0
    return session


def opening(session: Session) -> tuple[str, dict, int]:
    """A first play of two rack tiles at G7-H7: notation, squares and value."""
    for a, b in itertools.permutations(session.game.racks[0], 2):
        for fa, fb in itertools.product(a.faces(), b.faces()):
            try:
                total = check_play({}, {G7: fa, H7: fb}, RuleSet()).total
            except IllegalPlay:
                continue
            return f"G7 across {fa} {fb}", {G7: fa, H7: fb}, total
    raise AssertionError("no two-tile opening")


def test_kings_an_over_claim_is_accepted_corrected_and_told():
    session = joker_session()
    move, _, value = opening(session)
    session.handle(move)
    assert session.state == CLAIM
    reply = session.handle(str(value + 3))
    said = f"You claimed {value + 3}; the play is worth {value}: 3 go to Computer."
    assert said in plain_text(reply)
    assert session.game.scores == [value, 3]
    assert "Joker!" not in plain_text(reply)  # nothing left to call on a corrected claim
    assert any(f"claimed {value + 3}: 3 to Computer" in line.plain
               for line in kings_view.history_lines(session))
    assert said in plain(kings_view.screen(session, 120, plain=True))


def test_kings_neither_the_hint_nor_the_preview_counts_a_play_under_the_joker_rule():
    session = joker_session()
    _, squares, value = opening(session)
    hint = plain_text(session.handle("hint"))
    assert "count the points yourself" in hint
    assert "equity" not in hint and "points" not in hint.replace("count the points", "")
    assert session.state == MOVE
    draft = Draft()
    draft.placed = dict(squares)
    joker = draft.preview({}, RuleSet(joker=True))
    assert joker.endswith("a legal play; count it yourself (Joker rule)")
    assert f"= {value}" not in joker and "fifteen" not in joker
    assert f"= {value}:" in draft.preview({}, RuleSet())  # counted without the rule


def test_kings_the_resume_summary_adds_up_claims_and_over_claims():
    turns = [{"player": 0, "action": "play", "score": 12, "claimed": 14,
              "overclaim": {"player": 1, "points": 2}},
             {"player": 1, "action": "play", "score": 6, "claimed": 4,
              "joker": {"caller": 0, "points": 2}}]
    data = {"game": {"players": [{"name": "Ann"}, {"name": "Bob"}], "turns": turns}}
    assert _summary(data) == "turn 3: Ann 14, Bob 6"


def test_cribbage_an_over_claim_is_accepted_corrected_and_told():
    session = until_human(ClassicSession.new(seed=3, level="easy", muggins=True), "show")
    g = session.game
    item = g.show_item
    value = score_show(item.cards, g.starter, item.kind == "crib").total
    prompt = session.prompt()
    assert str(value) not in prompt and "count your" in prompt
    assert "fifteen" not in plain_text(session.handle("hint")).replace("Count fifteens", "")
    before = list(g.scores)
    refused = session.handle("30")  # past the bound of every hand: the same for all
    assert "from 0 to 29" in plain_text(refused) and g.scores == before and g.show_item == item
    me, other = g.rules.side_of(item.seat), 1 - g.rules.side_of(item.seat)
    reply = session.handle(str(value + 2))
    assert f"over-claim! the {item.kind} is worth {value}, not {value + 2}" in plain_text(reply)
    assert "(+2)" in plain_text(reply)
    assert g.scores[me] - before[me] == value and g.scores[other] - before[other] == 2
