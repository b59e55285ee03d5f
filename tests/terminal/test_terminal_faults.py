"""Faults of the command-line tools found by playing as a new user, each pinned down."""

from __future__ import annotations

import io
import json
from itertools import combinations
from math import comb

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from kingscrib.cli.kings_commands import score
from kingscrib.counting import card_points, count_hand, unscored_positions
from kingscrib.terminal.views.replies import plain_text


def _brute_fifteens(ranks):
    return sum(1 for size in range(2, len(ranks) + 1)
               for idx in combinations(range(len(ranks)), size)
               if sum(card_points(ranks[i]) for i in idx) == 15)


def _brute_unscored(ranks):
    covered = set()
    for size in range(2, len(ranks) + 1):
        for idx in combinations(range(len(ranks)), size):
            if sum(card_points(ranks[i]) for i in idx) == 15:
                covered.update(idx)
    return [i for i, r in enumerate(ranks)
            if i not in covered and ranks.count(r) == 1
            and not (count_hand(ranks).run_length and r in _run_of(ranks))]


def _run_of(ranks):
    from kingscrib.counting import longest_run
    return set(longest_run(ranks))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 13), min_size=1, max_size=9))
def test_fifteens_and_unscored_tiles_match_the_subset_enumeration(ranks):
    assert count_hand(ranks).fifteens == _brute_fifteens(ranks)
    assert unscored_positions(ranks) == _brute_unscored(ranks)


def test_score_of_the_longest_line_is_counted_without_listing_subsets():
    # 13 fives, a whole row of the board: every three of them make fifteen, every two a
    # pair; the count by sums answers at once.
    result = CliRunner().invoke(score, ["--json", "5" * 13])
    data = json.loads(result.output)
    assert data["fifteens"] == 2 * comb(13, 3) and data["pairs"] == 2 * comb(13, 2)
    assert data["valid"] is False and "13 tiles" in data["reason"]


def test_score_error_shows_the_line_read_not_its_python_repr():
    result = CliRunner().invoke(score, ["--json", "-"], input="bogus\n")
    data = json.loads(result.output)
    assert data == {"hand": "bogus", "error": "'B' is not a rank (use A 2-9 T J Q K)"}
    assert "\\n" not in result.output


# ----- colour letters only where they matter -----------------------------------------

def _t(text):
    from kingscrib.kings.tiles import Tile
    return Tile.parse(text)


def test_exchange_of_every_tile_of_a_rank_needs_no_colour():
    from kingscrib.kings.moves import Exchange
    from kingscrib.kings.notation import parse_action

    rack = [_t(x) for x in ("6L", "6D", "KL", "QL", "QD")]
    assert parse_action("x 6 6 K", {}, rack) == Exchange.of([_t("6L"), _t("6D"), _t("KL")])
    assert parse_action("x Q Q", {}, rack) == Exchange.of([_t("QL"), _t("QD")])
    assert parse_action("x 9 6", {}, rack) == Exchange.of([_t("6L"), _t("6D")])


def test_a_pair_of_both_colours_is_placed_without_letters():
    from kingscrib.kings.board import parse_square
    from kingscrib.kings.notation import parse_action

    rack = [_t(x) for x in ("8L", "8D", "KL", "2L", "3D")]
    play = parse_action("G7 across 8 8", {}, rack)
    assert sorted(play.placed.values()) == [_t("8D"), _t("8L")]
    assert set(play.placed) == {parse_square("G7"), parse_square("H7")}


def test_a_colour_that_is_really_open_must_still_be_written():
    import pytest

    from kingscrib.kings.notation import NotationError, parse_action

    rack = [_t(x) for x in ("8L", "8D", "8L", "2L", "3D")]
    with pytest.raises(NotationError, match="both 8L and 8D"):
        parse_action("x 8 8", {}, rack)
    with pytest.raises(NotationError, match="only 2 8"):
        parse_action("x 8 8 8 8", {}, rack[:2])


def test_colours_are_demanded_when_their_order_changes_the_score():
    import pytest

    from kingscrib.kings.board import parse_square
    from kingscrib.kings.notation import NotationError, parse_action

    # G3-G6 hold 7L 7L 8L 8L: an 8L at G7 makes a one-colour hand of five (+10), an 8D not.
    board = {parse_square(s): _t(t) for s, t in
             (("G3", "7L"), ("G4", "7L"), ("G5", "8L"), ("G6", "8L"))}
    rack = [_t(x) for x in ("8L", "8D", "KL", "2L", "3D")]
    with pytest.raises(NotationError, match="write which goes where"):
        parse_action("G7 across 8 8", board, rack)
    play = parse_action("G7 across 8L 8D", board, rack)
    assert play.placed[parse_square("G7")] == _t("8L")


# ----- undo reshuffles; autosaves that cannot be read say why ---------------------------

def _vs_greedy(seed=9):
    from kingscrib.terminal.controllers.kings import Seat, Session
    return Session.new([Seat("You"), Seat("Computer", "computer", "greedy")], seed=seed)


def test_undo_reshuffles_the_bag_so_it_never_previews_a_draw_and_the_record_replays():
    from kingscrib.kings.game import Game

    session = _vs_greedy()
    game = session.game
    bag_before = list(game.bags[0])
    rack = list(game.racks[0])
    session.handle("x " + " ".join(str(t) for t in rack[:2]))
    session.computer_turn()
    session.handle("undo")
    assert game.history == [] and game.racks[0] == rack
    assert sorted(game.bags[0]) == sorted(bag_before) and game.bags[0] != bag_before
    record = session.record()
    assert record["undo"] == [{"before_turn": 0, "reshuffle": game.reshuffles[0][1]}]
    session.handle("x " + " ".join(str(t) for t in rack[:2]))
    session.computer_turn()
    record = json.loads(json.dumps(session.record()))
    again = Game.from_record(record)
    assert again.bags == game.bags and again.racks == game.racks and again.board == game.board
    from kingscrib.cli.kings_commands import replay
    result = CliRunner().invoke(replay, ["-q", "-"], input=json.dumps(record))
    assert result.exit_code == 0 and "OK" in result.output


def test_a_record_with_a_bad_undo_list_is_refused():
    import pytest

    from kingscrib.kings.game import Game
    from kingscrib.kings.record import RecordError

    record = _vs_greedy().record()
    record["undo"] = [{"before_turn": 5, "reshuffle": 1}]
    with pytest.raises(RecordError, match="undo"):
        Game.from_record(record)


def test_snapshot_faults_are_named():
    import pytest

    from kingscrib.terminal.controllers.kings import Session

    good = _vs_greedy().snapshot()
    missing = {k: v for k, v in good.items() if k != "match"}
    with pytest.raises(ValueError, match="the autosave has no 'match'"):
        Session.from_snapshot(missing)
    godlike = json.loads(json.dumps(good))
    godlike["seats"][1]["level"] = "godlike"
    with pytest.raises(ValueError, match="unknown computer level 'godlike'"):
        Session.from_snapshot(godlike)


def test_a_binary_autosave_names_its_file(tmp_path, monkeypatch):
    import pytest

    from kingscrib.terminal import storage

    monkeypatch.setenv("KINGSCRIB_DATA_DIR", str(tmp_path))
    storage.autosave_path().write_bytes(b"\xff\xfe\x00binary")
    with pytest.raises(ValueError, match=str(storage.autosave_path())):
        storage.read_autosave()


def test_more_names_than_seats_is_refused():
    import pytest

    from kingscrib.terminal.controllers.kings import HUMAN, make_seats

    with pytest.raises(ValueError, match="3 names given for 2 seats: C would have no seat"):
        make_seats([HUMAN, HUMAN], ["A", "B", "C"])


# ----- moves refuses boards no game can reach; analyze reads standard input ------------

@pytest.mark.parametrize("board, message", [
    ({f"{c}7": "5L" for c in "CDEFGHI"}, "C7-I7 (5 5 5 5 5 5 5) has 7 tiles"),
    ({"G7": "8L", "H7": "3D"}, "the across hand G7-H7 is invalid"),
    ({"G7": "8L"}, "at least the 2 tiles"),
    ({"G7": "8L", "H7": "7D", "K10": "5L", "K11": "TD"}, "K10 does not touch"),
])
def test_moves_refuses_impossible_boards(board, message):
    from kingscrib.cli.kings_commands import moves

    line = json.dumps({"board": board, "rack": ["7L"]})
    result = CliRunner().invoke(moves, ["--json", "-"], input=line + "\n{}\n")
    assert result.exit_code == 1
    first, second = (json.loads(x) for x in result.stdout.splitlines())
    assert "impossible board" in first["error"] and message in first["error"]
    assert "needs a rack" in second["error"]


def test_analyze_reads_a_position_from_standard_input():
    from kingscrib.cli.ai_commands import analyze

    position = {"board": {"G7": "8L", "H7": "7D"}, "rack": ["7L", "6D", "AL", "KD", "4L"],
                "bag": 0}
    result = CliRunner().invoke(analyze, ["--json", "--top", "3", "-"],
                                input=json.dumps(position))
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert rows[0]["move"] == "D7 across AL 6D 7L" and rows[0]["score"] == 16


# ----- hint and analyze rank by equity, one line per distinct play -----------------------

def _play_by_analysis(turns: int = 14):
    """Seat 0 always takes the analysis's best option (seed = turn index, as the review
    weighs it); seat 1 the greedy player."""
    from kingscrib.kings.game import Game
    from kingscrib.players.kings import make_player
    from kingscrib.players.kings.analysis import best_options

    game = Game.new(["Eq", "Greedy"], seed=5)
    greedy = make_player("greedy", 1)
    while len(game.history) < turns and not game.is_over:
        if game.turn == 0:
            game.play(best_options(game.view(0), top=1, seed=len(game.history))[0].action)
        else:
            game.play(greedy.choose(game.view(1)))
    return game


def test_review_judges_by_equity_so_the_best_equity_play_is_never_a_mistake():
    from kingscrib.players.kings.analysis import review_game

    game = _play_by_analysis()
    reviews = review_game(game.to_record())
    mine = [r for r in reviews if r.player == 0]
    assert mine and all(r.equity_lost == 0 and not r.mistake for r in mine)
    for r in reviews:
        assert r.best_equity == max(o.equity for o in r.options)
        if r.equity is not None:
            assert abs(r.equity_lost - max(0.0, r.best_equity - r.equity)) < 1e-9


def test_best_options_list_each_play_once_best_equity_first():
    from kingscrib.kings.game import Game
    from kingscrib.kings.moves import Play
    from kingscrib.players.kings.analysis import best_options
    from kingscrib.players.kings.defence import DEFENCE_WEIGHT

    game = Game.new(2, seed=3)
    empty = best_options(game.view(game.turn), top=8)
    plays = [o for o in empty if isinstance(o.action, Play)]
    tile_sets = [tuple(sorted(o.action.placed.values())) for o in plays]
    assert len(tile_sets) == len(set(tile_sets))  # empty board: the same tiles anywhere once
    assert [o.equity for o in empty] == sorted((o.equity for o in empty), reverse=True)
    for o in empty:
        assert abs(o.equity - (o.score + o.leave - DEFENCE_WEIGHT * o.reply)) < 1e-6
    game.play(plays[0].action)
    later = best_options(game.view(game.turn), top=10)
    placements = [tuple(sorted(o.action.placed.items())) for o in later
                  if isinstance(o.action, Play)]
    assert len(placements) == len(set(placements))


# ----- messages that name who and what ---------------------------------------------------

def test_your_exchange_says_what_you_drew():
    session = _vs_greedy()
    rack = list(session.game.racks[0])
    reply = session.handle(f"x {rack[0]}")
    drew = session.game.history[-1].drew
    assert f"You exchanged 1 tile ({rack[0]}) and drew {drew[0]}." in plain_text(reply)


def test_game_over_names_who_went_out():
    from kingscrib.kings.game import End
    from kingscrib.terminal.views.kings import render_result

    session = _vs_greedy()
    game = session.game
    game.racks[1] = []
    game.end = End("out", (7, 0))
    text = Reply_text(render_result(game, ["You", "Computer"]))
    assert "Game over: Computer went out" in text


def Reply_text(renderable):
    from rich.console import Console
    console = Console(width=100, color_system=None, record=True, file=open("/dev/null", "w"))
    console.print(renderable)
    return console.export_text()


def test_the_draw_for_first_play_is_said_when_the_computer_starts():
    from kingscrib.terminal.controllers.kings import THINKING, Seat, Session

    for seed in range(20):
        session = Session.new([Seat("You"), Seat("Computer", "computer", "greedy")], seed=seed)
        if session.state == THINKING:
            break
    text = plain_text(session.intro())
    draws = session.game.first_draws[0]
    assert f"You {draws[0]}, Computer {draws[1]}" in text and "Computer plays first." in text


def test_no_color_on_a_terminal_draws_light_and_dark_as_letters(monkeypatch):
    from rich.console import Console

    from kingscrib.cli.play import wants_plain

    monkeypatch.delenv("NO_COLOR", raising=False)
    terminal = {"force_terminal": True, "color_system": "truecolor", "file": io.StringIO()}
    assert not wants_plain(Console(**terminal))
    assert wants_plain(Console(no_color=True, **terminal))  # --no-color
    monkeypatch.setenv("NO_COLOR", "1")
    assert wants_plain(Console(**terminal))


def test_an_autosave_with_an_unknown_level_is_kept_aside_with_its_name(tmp_path, monkeypatch):
    from kingscrib.cli.play import play
    from kingscrib.terminal import storage

    monkeypatch.setenv("KINGSCRIB_DATA_DIR", str(tmp_path))
    snapshot = _vs_greedy().snapshot()
    snapshot["seats"][1]["level"] = "godlike"
    storage.autosave_path().write_text(json.dumps(snapshot))
    out = CliRunner().invoke(play, ["--resume"])
    assert out.exit_code == 1 and "godlike" in out.output
    assert str(storage.autosave_path()) in out.output
    out = CliRunner().invoke(play, ["--seed", "1"], input="quit\n")
    assert "could not be read" in out.output and "godlike" in out.output
    assert len(list((tmp_path / "games").glob("unfinished-*.json"))) == 1


def test_hot_seat_in_line_mode_clears_the_scrollback_too():
    from rich.console import Console

    from kingscrib.cli.play import clear_with_scrollback

    out = io.StringIO()
    clear_with_scrollback(Console(file=out, force_terminal=True))
    assert "\x1b[2J" in out.getvalue() and "\x1b[3J" in out.getvalue()


def test_through_a_pipe_the_game_plays_line_by_line(tmp_path):
    import os
    import subprocess
    import sys

    env = {**os.environ, "KINGSCRIB_DATA_DIR": str(tmp_path), "COLUMNS": "100"}
    run = subprocess.run(
        [sys.executable, "-c", "from kingscrib.cli.main import main; main()", "play",
         "--seed", "9", "--level", "greedy"],
        input="x 4\nquit\n", capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "Your move ›" in run.stdout and "You exchanged 1 tile (4L) and drew" in run.stdout
    assert "\x1b[?1049h" not in run.stdout  # never the alternate screen of the full-screen app
    saved = json.loads((tmp_path / "autosave-kings.json").read_text())
    assert [t["action"] for t in saved["game"]["turns"]][:1] == ["exchange"]


def test_review_weighs_every_turn_even_plays_the_quick_generator_leaves_out():
    from kingscrib.cli.kings_commands import selfplay_game
    from kingscrib.kings.rules import RuleSet
    from kingscrib.players.kings.analysis import review_game

    reviews = review_game(selfplay_game("random", "greedy", 2, RuleSet(), 3))
    assert all(r.equity is not None and r.equity_lost >= 0 for r in reviews)
    assert any(r.played == "pass" for r in reviews)
    assert any(r.mistake for r in reviews if r.name == "random")
