"""Every command that reads a user's file or standard input answers hostile input with a
precise message and exit status 1, never a traceback; and reads the files a player will
try (a selfplay JSON-lines file, the terminal game's autosave)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kingscrib.cli.main import _register, cli
from kingscrib.cli.user_files import MAX_LINE_BYTES

_register()

# (command words, whether the file is given as an argument)
READERS = [["moves"], ["moves", "--json"], ["analyze"], ["replay"], ["classic", "analyze"]]
HOSTILE = {
    "deep": b"[" * 100_000,
    "deep object": b'{"a":' * 50_000,
    "long number": b'{"board": {}, "rack": ["5L"], "bag": ' + b"9" * 10_000 + b"}",
    "not UTF-8": b'{"rack": ["5L\xff"]}',
    "lone surrogate": b'{"rack": ["\\udcff"]}',
    "binary": bytes(range(256)),
    "empty": b"",
    "blank": b"\n  \n",
}


def run(args: list[str], stdin: bytes | None = None) -> Result:
    return CliRunner().invoke(cli, args, input=stdin)


def assert_refused(result: Result) -> None:
    """Exit status 1 with a message, no exception escaping (CliRunner keeps it)."""
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert result.output.strip()


@pytest.mark.parametrize("name", HOSTILE)
@pytest.mark.parametrize("words", READERS, ids=" ".join)
def test_hostile_files_get_a_message_and_exit_status_1(tmp_path, words, name):
    path = tmp_path / "input.json"
    path.write_bytes(HOSTILE[name])
    assert_refused(run([*words, str(path)]))
    assert_refused(run([*words, "-"], HOSTILE[name]))


def test_the_messages_say_what_is_wrong(tmp_path):
    path = tmp_path / "deep.json"
    path.write_bytes(HOSTILE["deep"])
    assert "nested more than 32 levels deep" in run(["replay", str(path)]).output
    path.write_bytes(HOSTILE["long number"])
    assert "a number has more than 4300 digits" in run(["analyze", str(path)]).output
    path.write_bytes(HOSTILE["not UTF-8"])
    assert "not UTF-8 text (byte 14 is 0xFF)" in run(["classic", "analyze", str(path)]).output
    path.write_bytes(b"")
    assert "is empty: nothing to read" in run(["replay", str(path)]).output
    assert "is a folder" in run(["replay", str(tmp_path)]).output


def test_moves_json_gives_an_error_line_for_a_long_number_and_goes_on():
    good = json.dumps({"board": {"G7": "8L", "H7": "7D"}, "rack": ["7L"]}).encode()
    result = run(["moves", "--json", "-"], HOSTILE["long number"] + b"\n" + good + b"\n")
    assert result.exit_code == 1
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert first == {"error": "position 1: a number has more than 4300 digits"}
    assert isinstance(second, list) and second


def test_moves_refuses_a_line_over_the_bound_and_goes_on():
    good = json.dumps({"board": {"G7": "8L", "H7": "7D"}, "rack": ["7L"]}).encode()
    long_line = b'{"rack": ["' + b"x" * (MAX_LINE_BYTES + 10) + b'"]}'
    result = run(["moves", "--json", "-"], long_line + b"\n" + good + b"\n")
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert first == {"error": "position 1: the line is over 1 MB"}
    assert isinstance(second, list) and second


# ----- fuzz: whatever the file holds, no traceback --------------------------------------

def _json_values() -> st.SearchStrategy:
    leaves = st.none() | st.booleans() | st.integers() | st.text(max_size=8)
    return st.recursive(leaves, lambda inner: st.lists(inner, max_size=4)
                        | st.dictionaries(st.sampled_from(
                            ["board", "rack", "bag", "rules", "turns", "format", "game",
                             "players", "deals", "seed", "record", "G7"]), inner, max_size=4),
                        max_leaves=12)


_contents = (st.binary(max_size=200)
             | _json_values().map(lambda v: json.dumps(v).encode())
             | st.lists(_json_values().map(json.dumps), min_size=2, max_size=3)
             .map(lambda lines: "\n".join(lines).encode())
             | st.sampled_from(list(HOSTILE.values())))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.sampled_from(READERS + [["score"], ["classic", "score"]]), content=_contents)
def test_no_traceback_escapes_any_reader(words, content):
    result = run([*words, "-"], content)
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        (result.exception, result.output)
    assert result.exit_code in (0, 1)


# ----- score: a line no longer than the board; symbols for suits -----------------------

def test_score_refuses_a_line_longer_than_the_board():
    result = run(["score", "5" * 14])
    assert result.exit_code == 1
    assert result.output == ("55555555555555: error: 14 tiles: a row or column of the 13 x 13"
                             " board holds at most 13 (a hand at most 5)\n")


def test_score_of_a_100000_tile_line_answers_at_once():
    # Before the bound this ran for over ten minutes; the timeout only stops a hang.
    done = subprocess.run([sys.executable, "-m", "kingscrib.cli.main", "score", "--json", "-"],
                          input="5" * 100_000 + "\n", capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 1
    data = json.loads(done.stdout)
    assert data["error"].startswith("100000 tiles: a row or column")
    assert len(data["hand"]) < 50  # the echo of the line is cut short


def test_empty_input_is_a_message_and_exit_status_1(tmp_path):
    for words in (["score"], ["classic", "score"], ["moves"], ["replay"], ["analyze"]):
        result = run([*words, "-"], b"")
        assert_refused(result)
        assert "standard input is empty: nothing to read" in result.output


def test_classic_score_reads_suits_as_symbols():
    by_letter = run(["classic", "score", "--json", "5H", "5S", "5C", "JD", "5D"])
    by_symbol = run(["classic", "score", "--json", "5♥", "5♠", "5♣", "J♦", "5♦"])
    assert by_symbol.exit_code == 0, by_symbol.output
    assert json.loads(by_symbol.output) == json.loads(by_letter.output)
    assert json.loads(by_symbol.output)["total"] == 29


# ----- wording ---------------------------------------------------------------------------

def test_score_messages_name_the_fault_once_and_readably():
    assert run(["score", "5X"]).output == "5X: error: 'X' is not a rank (use A 2-9 T J Q K)\n"
    assert "in 7 7 J Q the J and Q score nothing" in run(["score", "JQ77"]).output
    assert "in A 5 J Q the A scores nothing" in run(["score", "JQ5A"]).output
    out = run(["score", "5\udcff"]).output
    assert out == "5<byte 0xFF>: error: '<byte 0xFF>' is not a rank (use A 2-9 T J Q K)\n"
    out = run(["classic", "score", "5\x07", "5S", "5C", "JD", "5D"]).output
    assert "'5<U+0007>' is not a card: the suit '<U+0007>' is not one of" in out


def test_a_misspelt_direction_is_named():
    from kingscrib.kings.notation import NotationError, parse_play

    with pytest.raises(NotationError) as e:
        parse_play("G7 acros A3", {})
    assert str(e.value) == ("expected 'across' or 'down' (or tiles) after the square G7,"
                            " got 'acros'")


# ----- analyze: JSON lines, the autosave, an edited record -------------------------------

@pytest.fixture(scope="module")
def games_jsonl(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("games") / "games.jsonl"
    result = run(["selfplay", "--json", "--games", "2", "--seed", "5"])
    path.write_text(result.output)
    return path


def test_analyze_reviews_each_game_of_a_selfplay_file(games_jsonl):
    lines = games_jsonl.read_text().splitlines()
    result = run(["analyze", "--json", str(games_jsonl)])
    assert result.exit_code == 0, result.output
    reviews = [json.loads(x) for x in result.output.splitlines()]
    assert [len(r) for r in reviews] == [len(json.loads(x)["turns"]) for x in lines]
    second = run(["analyze", "--json", "--game", "2", str(games_jsonl)])
    assert json.loads(second.output) == reviews[1]
    text = run(["analyze", str(games_jsonl)]).output
    assert "== line 1" in text and "== line 2" in text
    assert run(["analyze", "--game", "3", str(games_jsonl)]).exit_code != 0


def test_replay_of_a_selfplay_file_checks_each_record(games_jsonl):
    result = run(["replay", "-q", str(games_jsonl)])
    assert result.exit_code == 0
    assert result.output.count("OK, every turn follows the rules") == 2


def test_analyze_reads_the_game_inside_the_autosave(tmp_path):
    from kingscrib.kings.rules import RuleSet
    from kingscrib.terminal.controllers.kings import THINKING, Seat, Session

    session = Session.new([Seat("You"), Seat("Computer", "computer", "greedy")], RuleSet(),
                          seed=3)
    while session.state == THINKING:
        session.computer_turn()
    session.handle("pass")
    while session.state == THINKING:
        session.computer_turn()
    path = tmp_path / "autosave-kings.json"
    path.write_text(json.dumps(session.snapshot()))
    turns = session.snapshot()["game"]["turns"]
    result = run(["analyze", "--json", str(path)])
    assert result.exit_code == 0, result.output
    assert [r["turn"] for r in json.loads(result.output)] == list(range(1, len(turns) + 1))


def test_classic_analyze_reads_the_autosave_and_json_lines(tmp_path):
    from kingscrib.terminal.controllers.classic import ClassicSession

    session = ClassicSession.new(seed=3, level="easy")
    path = tmp_path / "classic-autosave.json"
    path.write_text(json.dumps(session.snapshot()))
    result = run(["classic", "analyze", "--json", str(path)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == json.loads(
        run(["classic", "analyze", "--json", "-"],
            json.dumps(session.snapshot()["record"]).encode()).output)

    lines = run(["classic", "selfplay", "--json", "--games", "2", "--a", "easy", "--b",
                 "easy"]).output
    path = tmp_path / "games.jsonl"
    path.write_text(lines)
    result = run(["classic", "analyze", "--json", "--game", "2", str(path)])
    assert result.exit_code == 0, result.output
    alone = run(["classic", "analyze", "--json", "-"], lines.splitlines()[1].encode())
    assert json.loads(result.output) == json.loads(alone.output)


def test_analyze_warns_of_an_edited_score_as_replay_does(games_jsonl, tmp_path):
    record = json.loads(games_jsonl.read_text().splitlines()[0])
    turn = next(t for t in record["turns"] if t["action"] == "play")
    turn["score"] += 5
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(record))
    replayed = run(["replay", "-q", str(path)])
    assert replayed.exit_code == 1
    problem = replayed.output.strip().split(": ", 1)[1]  # after "record 1: "
    result = run(["analyze", str(path)])
    assert f"warning: the record breaks the rules: {problem}" in result.stderr
    clean = run(["analyze", str(games_jsonl), "--game", "1"])
    assert "warning" not in clean.stderr


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), words=st.sampled_from([["analyze"], ["replay"], ["classic", "analyze"]]))
def test_no_traceback_escapes_a_mutated_record(data, words):
    import fuzz_parsers as fz

    record = fz.CLASSIC_RECORD if words[0] == "classic" else fz.KINGS_RECORD
    content = json.dumps(fz.mutated(record, data.draw)).encode()
    result = run([*words, "-"], content)
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        (result.exception, result.output)
    assert result.exit_code in (0, 1)


def test_analyze_gives_each_seat_its_own_figure_when_two_share_a_name(games_jsonl):
    # selfplay seats two greedy players: the summary must not add them into one figure.
    record = games_jsonl.read_text().splitlines()[0]
    assert [p["name"] for p in json.loads(record)["players"]] == ["greedy", "greedy"]
    reviews = json.loads(run(["analyze", "--json", "-"], record.encode()).output)
    lost = [sum(r["equity_lost"] or 0.0 for r in reviews if r["player"] == seat)
            for seat in (0, 1)]
    text = run(["analyze", "-"], record.encode()).output
    assert text.splitlines()[-1] == ("equity given up against the best option each turn:"
                                     f" greedy (seat 1) {lost[0]:.1f},"
                                     f" greedy (seat 2) {lost[1]:.1f}")


def test_classic_analyze_gives_each_seat_its_own_figure_when_two_share_a_name():
    line = run(["classic", "selfplay", "--json", "--games", "1", "--a", "easy", "--b",
                "easy"]).output.splitlines()[0]
    names = [p["name"] for p in json.loads(line)["players"]]
    rows = json.loads(run(["classic", "analyze", "--json", "-"], line.encode()).output)
    tallies = [(sum(r["slip"] for r in rows if r["seat"] == s),
                sum(1 for r in rows if r["seat"] == s)) for s in (0, 1)]
    text = run(["classic", "analyze", "-"], line.encode()).output
    labels = [f"{n} (seat {s + 1})" if names.count(n) > 1 else n for s, n in enumerate(names)]
    assert text.splitlines()[-1] == ("decisions worse than the coach's best: "
                                     + ", ".join(f"{label} {s} of {t}" for label, (s, t)
                                                 in zip(labels, tallies)))
    assert names[0] != names[1] or "(seat 2)" in text


@pytest.mark.parametrize("words", READERS, ids=" ".join)
def test_a_missing_file_is_named_alike_by_every_command(tmp_path, words):
    missing = str(tmp_path / "nonexistent.json")
    result = run([*words, missing])
    assert_refused(result)
    assert f"{missing!r} does not exist" in result.output


# ----- exit status by convention: 1 for bad input, 2 for a misused command line ---------

@pytest.mark.parametrize("cards, message", [
    (["5♥", "5♥", "5♣", "J♦", "5♦"], "card 5H is given twice"),
    (["5H", "5S"], "give 5 cards, the four of the hand then the starter (got 2)"),
    (["🂡", "5H", "5S", "5C", "JD"], "'🂡' is not a card"),
])
def test_classic_score_of_bad_cards_is_bad_input_exit_status_1(cards, message):
    result = run(["classic", "score", *cards])
    assert_refused(result)
    assert f"Error: {message}" in result.output and "Usage:" not in result.output


def test_classic_discard_of_bad_cards_is_bad_input_exit_status_1():
    result = run(["classic", "discard", "5H", "5S", "5C", "JD", "6D"])
    assert_refused(result)
    assert "give exactly 6 cards (got 5)" in result.output and "Usage:" not in result.output
    assert run(["classic", "score", "--nonsense", "5H"]).exit_code == 2  # misuse stays 2


@pytest.mark.parametrize("words", [["score"], ["classic", "score"]], ids=" ".join)
def test_random_bytes_to_score_stop_after_a_bounded_number_of_errors(words):
    from kingscrib.cli.user_files import MAX_ERRORS

    noise = bytes(random_bytes(500_000))
    result = run([*words, "-"], noise)
    assert_refused(result)
    lines = result.output.splitlines()
    assert len(lines) == MAX_ERRORS + 1
    assert lines[-1].startswith(f"error: stopped after {MAX_ERRORS} lines that are not hands")
    assert all("line " in line for line in lines[:-1])  # each names its input line
    assert not any(line.startswith(":") for line in lines)


def random_bytes(count: int) -> bytes:
    import random

    return random.Random(5).randbytes(count)
