"""The terminal game's controller (kingscrib.terminal.controllers.kings), driven by text commands."""

from __future__ import annotations

import itertools
import json

import pytest
from rich.console import Console

from kingscrib.kings.board import parse_square, square_name
from kingscrib.kings.game import Game
from kingscrib.kings.match import Match
from kingscrib.kings.play import IllegalPlay, check_play
from kingscrib.kings.rules import RuleSet
from kingscrib.kings.tiles import Tile
from kingscrib.players.kings import PLAYERS
from kingscrib.terminal.controllers.kings import (
    CLAIM,
    HANDOVER,
    HUMAN,
    MOVE,
    NEXT_GAME,
    OVER,
    THINKING,
    Seat,
    Session,
    default_level,
    make_seats,
)
from kingscrib.terminal.views import kings as kings_view
from kingscrib.terminal.views import kings as render
from kingscrib.terminal.views.replies import plain_text

G7, H7 = parse_square("G7"), parse_square("H7")


def plain(renderable, width: int = 120) -> str:
    console = Console(width=width, color_system=None, record=True, file=open("/dev/null", "w"))
    console.print(renderable)
    return console.export_text()


def opening(game: Game) -> tuple[str, int]:
    """A legal first play of two rack tiles at G7-H7, as notation, with its value."""
    for a, b in itertools.permutations(game.racks[game.turn], 2):
        for fa in a.faces():
            for fb in b.faces():
                try:
                    score = check_play({}, {G7: fa, H7: fb}, game.rules)
                except IllegalPlay:
                    continue
                return f"G7 across {fa} {fb}", score.total
    raise AssertionError("no two-tile opening on this rack")


def vs_computer(seed: int = 9, **rules) -> Session:
    """You (seat 0) against the greedy computer; with seed 9 or 1 you play first."""
    seats = [Seat("You"), Seat("Computer", "computer", "greedy")]
    session = Session.new(seats, RuleSet(**rules), seed=seed)
    assert session.game.turn == 0
    return session


def hot_seat(seed: int = 0, players: int = 2, **rules) -> Session:
    seats = make_seats([HUMAN] * players, ["Ann", "Bob", "Cy", "Di"][:players])
    return Session.new(seats, RuleSet(**rules), seed=seed)


# ----- drawing ------------------------------------------------------------------

def test_board_has_coordinates_corner_patch_and_marks_the_last_play():
    board = {G7: Tile(7, "L"), H7: Tile(1, "D"), parse_square("M13"): Tile(10, "L")}
    text = render.render_board(board, marked=[H7], plain=True).plain
    lines = text.splitlines()
    assert lines[0].split() == list("ABCDEFGHIJKLM") == lines[-1].split()
    assert len(lines) == 15
    assert "KINGS" in lines[1] and "CRIBBAGE" in lines[2]
    row7 = lines[7]
    assert row7.split()[0] == "7" and row7.split()[-1] == "7"
    assert " 7L" in row7 and "*AD" in row7
    assert "TL" in lines[13]
    # every row has the same width: 13 squares of 3 characters between the labels
    assert {len(line) for line in lines[1:14]} == {4 + 13 * 3 + 4}


def test_colour_board_styles_light_and_dark_tiles_differently():
    light = render.tile_cell(Tile(7, "L"))
    dark = render.tile_cell(Tile(7, "D"))
    assert light.plain == dark.plain == " 7 "
    assert str(light.style) != str(dark.style)
    assert render.tile_cell(Tile(7, "D"), marked=True).plain == "[7]"


def test_rack_shows_six_nine_tiles_and_codes():
    rack = [Tile(6, "D"), Tile(1, "L"), Tile(13, "D")]
    assert render.render_rack(rack, plain=True).plain == "AL 6/9D KD"
    assert "6/9" in render.render_rack(rack).plain


def test_screen_shows_scores_bag_rack_and_whose_turn():
    session = vs_computer()
    text = plain(kings_view.screen(session, 120, plain=True))
    assert "You" in text and "Computer (Greedy)" in text  # the level by its title
    assert "94 tiles in the bag" in text
    assert "Your rack:" in text
    rack_codes = render.render_rack(session.game.racks[0], plain=True).plain
    assert rack_codes in text
    assert "▶" in text
    narrow = plain(kings_view.screen(session, 70, plain=True), width=70)
    assert "Your rack:" in narrow and "KINGS" in narrow


# ----- moves and errors ---------------------------------------------------------

def test_a_play_in_notation_then_the_computer_answers():
    session = vs_computer(seed=9)
    move, value = opening(session.game)
    reply = session.handle(move)
    assert "played" in plain_text(reply) and f"for {value}" in plain_text(reply)
    assert "first play: 10" in plain_text(reply)
    assert reply.changed
    assert session.game.scores[0] == value
    assert session.state == THINKING
    reply = session.computer_turn()
    assert "Computer played" in plain_text(reply)
    assert len(session.game.history) == 2
    assert session.state == MOVE
    screen = plain(kings_view.screen(session, 120, plain=True))
    assert "Last turn" in screen and "Computer played" in screen
    assert "*" in screen  # the computer's play is marked


def test_hot_seat_screen_lists_every_turn_since_yours():
    session = hot_seat(seed=0, players=3)
    session.handle("")
    first = session.game.turn
    session.handle("pass")
    session.handle("")
    session.handle("pass")
    session.handle("")
    session.handle("pass")
    session.handle("")
    assert session.game.turn == first
    screen = plain(kings_view.screen(session, 120, plain=True))
    assert "Since your last turn" in screen
    others = [session.game.names[(first + k) % 3] for k in (1, 2)]
    assert all(f"{name} passed." in screen for name in others)
    assert f"{session.game.names[first]} passed." not in screen


@pytest.mark.parametrize("text, expected", [
    ("hello", "unknown command 'hello'"),
    ("Z9 3D", "unknown command"),
    ("G7 across", "no tiles after G7"),
    ("A1 5D", "corner patch"),
    ("G7 across QQQ", "there is no Q left on your rack"),
    ("G7 4L", "the first play of the game places 2 to 5 tiles"),
    ("G7 across 4L 6D", "scores nothing"),
    ("exchange QD", "QD is not on your rack"),
    ("", "type a move"),
])
def test_bad_input_gives_a_precise_message_and_changes_nothing(text, expected):
    session = vs_computer(seed=9)  # rack KL KD 6D 4L 5L
    before = session.snapshot()
    reply = session.handle(text)
    assert expected in plain_text(reply)
    assert plain_text(reply).startswith("✗")
    assert not reply.changed
    assert session.snapshot() == before
    assert session.state == MOVE


def test_exchange_and_pass():
    session = hot_seat(seed=0)
    session.handle("")  # Ann at the keyboard
    seat = session.game.turn
    rack = list(session.game.racks[seat])
    reply = session.handle(f"x {rack[0]} {rack[1]}")
    assert "exchanged 2 tiles" in plain_text(reply)
    assert session.game.history[-1].action == "exchange"
    assert sorted(session.game.history[-1].returned) == sorted([rack[0], rack[1]])
    assert session.state == HANDOVER
    session.handle("")
    reply = session.handle("pass")
    assert "passed" in plain_text(reply)
    assert [t.action for t in session.game.history] == ["exchange", "pass"]


def test_when_stuck_rule_refuses_a_pass_when_a_play_exists():
    session = vs_computer(seed=9, exchange="when-stuck")
    reply = session.handle("pass")
    assert "when-stuck" in plain_text(reply)
    assert not session.game.history


def test_hint_lists_distinct_best_plays():
    session = vs_computer(seed=1)
    move, _ = opening(session.game)
    session.handle(move)
    session.computer_turn()
    reply = session.handle("hint")
    assert "Best options by equity" in plain_text(reply)
    from kingscrib.players.kings.analysis import best_options
    best = best_options(session.game.view(0), top=1, seed=2)[0]
    assert best.move in plain_text(reply) and f"{best.equity:.1f}" in plain_text(reply)
    rows = [line.strip() for line in plain_text(reply).splitlines()[2:] if line.startswith("  ")]
    moves = [row.split("  ")[0] for row in rows]
    assert len(moves) == 5 and len(moves) == len(set(moves))
    assert not session.game.history[2:]  # a hint changes nothing


def test_help_and_rules_change_nothing():
    session = vs_computer(joker=True, servant=True)
    assert "exchange 7L KD" in plain_text(session.handle("help"))
    rules = plain_text(session.handle("rules"))
    assert "Joker" in rules and "Servant" in rules and "fifteens 2 each" in rules
    assert plain_text(session.handle("legend")) == rules
    assert not session.game.history


def test_undo_takes_back_your_turn_and_the_computer_reply():
    session = vs_computer(seed=9)
    move, _ = opening(session.game)
    session.handle(move)
    session.computer_turn()
    reply = session.handle("undo")
    assert "Took back your last turn and 1 turn after it" in plain_text(reply)
    assert session.game.history == [] and session.game.board == {}
    assert session.game.scores == [0, 0]
    assert session.state == MOVE
    assert "no turn of yours" in plain_text(session.handle("undo"))


def test_undo_in_hot_seat_stops_at_another_person():
    session = hot_seat(seed=0)
    session.handle("")
    session.handle("pass")
    session.handle("")
    reply = session.handle("undo")  # Bob: Ann has moved since Bob's (non-existent) turn
    assert "cannot undo" in plain_text(reply) or "no turn of yours" in plain_text(reply)
    assert len(session.game.history) == 1


# ----- the joker rule ------------------------------------------------------------

def test_joker_claim_comes_before_the_breakdown_and_the_computer_takes_missed_points():
    session = vs_computer(seed=9, joker=True)
    move, value = opening(session.game)
    reply = session.handle(move)
    assert session.state == CLAIM
    assert "count it yourself" in plain_text(reply)
    assert "fifteen" not in plain_text(reply) and "pair" not in plain_text(reply) and str(value) not in plain_text(reply)
    assert not session.game.history
    refused = session.handle("-1")
    assert "negative" in plain_text(refused) and str(value) not in plain_text(refused)
    assert session.state == CLAIM
    assert "number of points" in plain_text(session.handle("lots"))
    reply = session.handle(str(value - 2))
    assert "first play: 10" in plain_text(reply)  # the breakdown, after the claim
    assert "You missed 2 points" in plain_text(reply)
    assert "Joker! Computer takes the 2 missed points" in plain_text(reply)
    assert session.game.scores == [value - 2, 2]
    assert session.game.history[-1].joker == {"caller": 1, "points": 2}


def test_joker_cancel_takes_the_play_back():
    session = vs_computer(seed=9, joker=True)
    move, _ = opening(session.game)
    session.handle(move)
    assert session.state == CLAIM
    assert "taken back" in plain_text(session.handle("cancel"))
    assert session.state == MOVE and not session.game.history


def test_you_call_joker_on_the_computer_which_claims_honestly():
    session = vs_computer(seed=9, joker=True)
    move, value = opening(session.game)
    session.handle(move)
    session.handle(str(value))
    reply = session.computer_turn()
    assert "claiming" in plain_text(reply)  # the breakdown stays hidden while you may call
    last = session.game.history[-1]
    assert last.claimed == last.score
    screen = plain(kings_view.screen(session, 120, plain=True))
    assert "type joker" in screen
    before = list(session.game.scores)
    reply = session.handle("joker")
    assert "costs you 5" in plain_text(reply)
    assert session.game.scores == [before[0] - 5, before[1]]
    assert "already" not in plain_text(reply)
    assert "only on the play just made" in plain_text(session.handle("joker"))


def test_joker_without_the_rule():
    session = vs_computer(seed=9)
    assert "joker rule is off" in plain_text(session.handle("joker"))


# ----- hot seat, servant, solitaire, match -----------------------------------------

def test_hot_seat_hides_racks_until_the_player_is_at_the_keyboard():
    session = hot_seat(seed=0)
    first = session.game.names[session.game.turn]
    assert session.state == HANDOVER
    assert f"Pass the keyboard to {first}" in session.prompt()
    assert "rack:" not in plain(kings_view.screen(session, 120, plain=True))
    session.handle("")
    assert session.state == MOVE
    assert f"{first}'s rack:" in plain(kings_view.screen(session, 120, plain=True))
    session.handle("pass")
    assert session.state == HANDOVER
    assert "rack:" not in plain(kings_view.screen(session, 120, plain=True))


def test_servant_is_marked_after_a_round():
    session = hot_seat(seed=0, servant=True)
    session.handle("")
    move, _ = opening(session.game)
    session.handle(move)
    session.handle("")
    session.handle("pass")
    servant = session.game.servant
    assert servant is not None and session.game.scores[servant] == 0
    assert "Servant" in plain(kings_view.screen(session, 120, plain=True))


def test_solitaire_deals_each_seat_its_colour():
    session = hot_seat(seed=5, solitaire=True)
    assert {t.colour for t in session.game.racks[0]} == {"L"}
    assert {t.colour for t in session.game.racks[1]} == {"D"}
    text = plain(kings_view.screen(session, 120, plain=True))
    assert "(Light)" in text and "(Dark)" in text and "light bag" in text


def _scoreless_game(session: Session) -> None:
    """Both people pass three rounds: the game ends as scoreless (RULES.md)."""
    while session.state in (HANDOVER, MOVE):
        session.handle("" if session.state == HANDOVER else "pass")


def test_a_match_carries_totals_and_names_the_servant_on_them():
    session = hot_seat(seed=0, servant=True)
    session.match = Match(session.match.names, games=2, rules=session.game.rules, seed=0)
    session.game = session.match.new_game()
    session.handle("")
    move, value = opening(session.game)
    session.handle(move)
    _scoreless_game(session)
    assert session.state == NEXT_GAME
    assert session.match.played == 1
    scorer = session.finished[0]["turns"][0]["player"]
    assert session.match.totals[scorer] == value - sum(
        t.penalty for t in Game.from_record(session.finished[0]).racks[scorer])
    assert session.match.servant == 1 - scorer
    assert session.finished[0]["end"]["reason"] == "scoreless"
    assert session.finished[0]["match"] == {"game": 1, "of": 2}
    assert "Press Enter to start game 2 of 2" in session.prompt()
    session.handle("")
    _scoreless_game(session)
    assert session.state == OVER
    assert session.match.played == 2 and len(session.finished) == 2
    record = session.match_record()
    assert record["totals"] == session.match.totals and len(record["games"]) == 2


def test_match_class():
    m = Match(["A", "B", "C"], games=3, rules=RuleSet(servant=True), seed=10)
    assert m.new_game().seed == 10
    m.add_result([10, 5, 20])
    assert m.servant == 1 and m.game_seed() == 11
    m.add_result([0, 20, 0])
    assert m.totals == [10, 25, 20] and m.servant == 0
    again = Match.from_json(json.loads(json.dumps(m.to_json())))
    assert again == m
    with pytest.raises(ValueError):
        Match(["A"], games=0)


# ----- saving and resuming ------------------------------------------------------------

def test_snapshot_resumes_the_same_game_with_its_joker_calls_and_undo_history():
    session = vs_computer(seed=9, joker=True)
    move, value = opening(session.game)
    session.handle(move)
    session.handle(str(value - 1))
    session.computer_turn()
    session.handle("joker")
    data = json.loads(json.dumps(session.snapshot()))
    resumed = Session.from_snapshot(data)
    g, r = session.game, resumed.game
    assert r.board == g.board and r.racks == g.racks and r.scores == g.scores
    assert r.turn == g.turn and [t.joker for t in r.history] == [t.joker for t in g.history]
    assert [s.to_json() for s in resumed.seats] == [s.to_json() for s in session.seats]
    assert "Resumed: turn 3" in plain_text(resumed.intro())
    resumed.handle("undo")
    session.handle("undo")
    assert resumed.game.board == session.game.board == {}
    assert resumed.game.scores == session.game.scores == [0, 0]


def test_a_bad_snapshot_is_refused():
    with pytest.raises(ValueError):
        Session.from_snapshot({"format": "something else"})
    session = vs_computer()
    data = session.snapshot()
    data["game"]["seed"] = "x"
    with pytest.raises(ValueError):
        Session.from_snapshot(data)


def test_seats_and_levels():
    assert default_level() in PLAYERS
    seats = make_seats([HUMAN, "computer", "random"], ["Ann"])
    assert [s.name for s in seats] == ["Ann", "Computer 1", "Computer 2"]
    assert seats[1].level == default_level() and seats[2].level == "random"
    assert make_seats([HUMAN, HUMAN])[0].name == "Player 1"
    with pytest.raises(ValueError):
        make_seats([HUMAN, "nobody"])
    with pytest.raises(ValueError):
        make_seats([HUMAN, HUMAN], ["Ann", "Ann"])
    assert square_name(G7) == "G7"
