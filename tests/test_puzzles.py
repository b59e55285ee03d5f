"""Puzzles: every generated puzzle meets the criteria by an analysis of its own, a sample
of the shipped sets is re-verified each run, the terminal loop judges right and wrong
answers and refuses answers that are not options with a precise message."""

from __future__ import annotations

import datetime
import json
import random
from itertools import combinations
from pathlib import Path

import pytest
from click.testing import CliRunner

from kingscrib.classic.cards import Card, parse_cards
from kingscrib.classic.discard import analyse_discards
from kingscrib.classic.pegging import peg_score
from kingscrib.cli.main import _register, cli
from kingscrib.counting import card_points
from kingscrib.kings.position import Position
from kingscrib.players.kings.analysis import best_options, ranked, view_of
from kingscrib.players.kings.defence import DEFENCE_WIDTH
from kingscrib.players.kings.leaves import shipped as shipped_leaves
from kingscrib.players.kings.sim import SimPlayer
from kingscrib.puzzles import cribbage, kings
from kingscrib.puzzles.explain import judge
from kingscrib.puzzles.generate import cribbage_game_puzzles, kings_game_puzzles, kings_positions
from kingscrib.puzzles.progress import Progress, daily_index
from kingscrib.puzzles.puzzle import Puzzle, PuzzleError, dump_set, load_set, shipped
from kingscrib.puzzles.verify import problems

_register()
SAMPLE = 4  # shipped puzzles per kind re-verified each run (all of them: the benchmark)
SHIPPED_AT_LEAST = 500  # puzzles per game in the shipped set


# ----- independent re-analysis ----------------------------------------------------------
def _kings_independent(p: Puzzle) -> None:
    """The analysis ``kingscrib analyze`` prints, and every legal play's score."""
    position = Position.from_json(p.position)
    options = best_options(view_of(position), top=DEFENCE_WIDTH, seed=p.seed)
    best, second = options[0], options[1]
    assert kings.same_option(position.parse(p.answer), best.action, position)
    assert best.equity - second.equity == pytest.approx(p.margin, abs=0.01)
    assert best.equity - second.equity >= kings.MARGIN
    top_now = max(m.total for m in position.legal_moves())
    assert best.score < top_now == p.top_now
    if position.bag and p.margin < kings.SIM_MARGIN:
        _kings_simulation_agrees(p, position)


def _kings_simulation_agrees(p: Puzzle, position: Position) -> None:
    """Where the margin is small, the close options played out over the unseen tiles:
    the stated best has the best mean, as stated."""
    view = view_of(position)
    chosen = ranked(view, shipped_leaves(), p.seed, DEFENCE_WIDTH)
    close = [c for c in chosen if chosen[0].equity - c.equity < kings.SIM_MARGIN]
    assert len(close) >= 2
    sim = SimPlayer(p.seed, max_iterations=kings.SIM_PLAYOUTS,
                    min_iterations=kings.SIM_PLAYOUTS)
    sim.simulate(view, close, float("inf"))
    means = [s.mean for s in sim.last]
    assert [s.n for s in sim.last] == [kings.SIM_PLAYOUTS] * len(close)
    assert means[0] == max(means)
    assert p.breakdown["sim"] == pytest.approx(means[0], abs=0.01)
    assert p.second["sim"] == pytest.approx(means[1], abs=0.01)


def _four_count(cards: list[Card]) -> int:
    """Fifteens, pairs, runs and a four-card flush, counted by brute force."""
    ranks = [c.rank for c in cards]
    pts = sum(2 for k in range(2, 5) for s in combinations(ranks, k)
              if sum(card_points(r) for r in s) == 15)
    pts += sum(2 for a, b in combinations(ranks, 2) if a == b)
    for k in (4, 3):
        runs = [s for s in combinations(ranks, k) if sorted(s) == list(range(min(s), min(s) + k))]
        if runs:
            pts += k * len(runs)
            break
    return pts + (4 if len({c.suit for c in cards}) == 1 else 0)


def _cribbage_independent(p: Puzzle) -> None:
    if p.kind == cribbage.DISCARD:
        options = analyse_discards(parse_cards(p.position["hand"]), p.position["dealer"])
        best, second = options[0], options[1]
        assert " ".join(map(str, best.discard)) == p.answer
        assert best.total - second.total == pytest.approx(p.margin, abs=1e-3)
        nows = [_four_count(list(o.keep)) for o in options]
        assert nows[0] < max(nows) == p.top_now
    else:
        from kingscrib.players.classic.expert import go_floor
        from kingscrib.players.classic.levels import unseen_by
        from kingscrib.players.classic.pegsearch import card_values

        view = cribbage.play_view(p.position)
        pile = tuple(c.rank for c in view.pile)
        values = card_values(tuple(c.rank for c in view.hand), pile,
                             [c.rank for c in unseen_by(view)], view.cards_left[1],
                             tuple(c.rank for s, c in view.played if s == 1), go_floor(view),
                             random.Random(1), exact_limit=10**9)
        ranked = sorted(values, key=lambda r: -values[r])
        assert ranked[0] == Card.parse(p.answer).rank
        assert values[ranked[0]] - values[ranked[1]] == pytest.approx(p.margin, abs=1e-3)
        nows = {r: peg_score(pile + (r,)).total for r in values}
        assert nows[ranked[0]] < max(nows.values()) == p.top_now
    assert p.margin >= cribbage.margin_of(p.kind)


def test_generated_kings_puzzles_meet_the_criteria():
    found = kings_game_puzzles(3)
    assert found, "a game with puzzles in it"
    for p in found:
        _kings_independent(p)
        assert problems(p) == []


def test_generated_cribbage_puzzles_meet_the_criteria():
    found = [p for seed in (1, 2, 3) for p in cribbage_game_puzzles(seed)]
    assert found
    for p in found:
        _cribbage_independent(p)
        assert problems(p) == []


@pytest.mark.parametrize("game", ["kings", "cribbage"])
def test_shipped_set_is_large_and_a_sample_holds(game):
    puzzles = shipped(game)
    assert len(puzzles) >= SHIPPED_AT_LEAST
    assert len({p.id for p in puzzles}) == len(puzzles)
    seed = random.randrange(10**6)  # another sample each run; the seed says which
    rng = random.Random(seed)
    kinds = sorted({p.kind for p in puzzles})
    for kind in kinds:
        of_kind = [p for p in puzzles if p.kind == kind]
        for p in rng.sample(of_kind, min(SAMPLE, len(of_kind))):
            (_kings_independent if game == "kings" else _cribbage_independent)(p)
            assert problems(p) == [], f"sample seed {seed}: {p.id}"


def test_verify_catches_a_wrong_answer_and_a_wrong_margin(tmp_path):
    good = shipped("cribbage")[0]
    wrong_answer = Puzzle(**{**good.to_json(), "answer": " ".join(good.second["discard"])})
    wrong_margin = Puzzle(**{**good.to_json(), "margin": good.margin + 1})
    assert any("best option" in m for m in problems(wrong_answer))
    assert any("margin" in m for m in problems(wrong_margin))
    path = tmp_path / "set.json"
    dump_set([good, wrong_answer], path)
    result = CliRunner().invoke(cli, ["puzzles", "verify", str(path)])
    assert result.exit_code == 1
    assert f"{good.id}: the best option is {good.answer}" in result.output
    assert "1 of 2 puzzles do not hold" in result.output
    dump_set([good], path)
    result = CliRunner().invoke(cli, ["puzzles", "verify", str(path)])
    assert result.exit_code == 0 and "all 1 puzzles hold" in result.output


def _simulated_puzzle() -> Puzzle:
    return next(p for p in shipped("kings")
                if p.position["bag"] and p.margin < kings.SIM_MARGIN)


def test_verify_checks_the_simulation_where_the_margin_is_small():
    good = _simulated_puzzle()
    assert problems(good) == []
    wrong_mean = Puzzle(**{**good.to_json(),
                           "breakdown": {**good.breakdown, "sim": good.breakdown["sim"] + 1}})
    assert any("simulated mean" in m for m in problems(wrong_mean))
    unstated = {k: v for k, v in good.breakdown.items() if k not in ("sim", "sim_iterations")}
    missing = Puzzle(**{**good.to_json(), "breakdown": unstated})
    assert any("simulation's result is not stated" in m for m in problems(missing))


def test_a_small_margin_is_a_puzzle_only_where_the_simulation_agrees():
    """Every position of a self-play game that the equity alone would make a puzzle with
    a small margin: it is one exactly when the close options' play-outs agree."""
    small = 0
    for position, seed, pid in kings_positions(3):
        analysis = kings.analyse(position, seed)
        if not (analysis.is_puzzle() and kings.needs_simulation(analysis)):
            continue
        small += 1
        sims = kings.simulated(position, seed, analysis)
        means = [o.sim for o in sims]
        made = kings.make_puzzle(position, seed, pid)
        assert (made is not None) == (means[0] == max(means))
        if made is not None:
            assert made.breakdown["sim"] == means[0] and made.second["sim"] == means[1]
    assert small, "a game with small-margin positions"


def test_the_explanation_quotes_the_simulation():
    p = _simulated_puzzle()
    right, lines = judge(p, p.answer)
    assert right
    assert any(line.startswith("Simulation agrees (100 play-outs") for line in lines)


def test_generate_best_cards_only_finds_the_same_puzzles(tmp_path):
    """``--kind best-card`` keeps the best-card puzzles a full run of the seeds finds."""
    first = next(p for p in shipped("cribbage") if p.kind == cribbage.CARD)
    seed = int(first.id.split("-")[1])
    out = tmp_path / "cards.json"
    result = CliRunner().invoke(cli, ["puzzles", "generate", "--game", "cribbage", "--kind",
                                      "best-card", "--count", "1", "--seed", str(seed),
                                      "--workers", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert load_set(out) == [first]
    refused = CliRunner().invoke(cli, ["puzzles", "generate", "--game", "kings", "--kind",
                                       "best-card", "--count", "1"])
    assert refused.exit_code == 2 and "a kings puzzle's kind is one of best-play" in refused.output


def test_generate_command_writes_a_set_that_verifies(tmp_path):
    out = tmp_path / "c.json"
    result = CliRunner().invoke(cli, ["puzzles", "generate", "--game", "cribbage",
                                      "--count", "3", "--workers", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    found = load_set(out)
    assert len(found) == 3
    for p in found:
        _cribbage_independent(p)
    before = out.read_bytes()
    again = CliRunner().invoke(cli, ["puzzles", "generate", "--game", "cribbage",
                                     "--count", "1", "--out", str(out)])
    assert again.exit_code == 2 and "already exists" in again.output
    assert out.read_bytes() == before


# ----- the terminal loop --------------------------------------------------------------
@pytest.fixture()
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("KINGSCRIB_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def _one(tmp_path: Path, p: Puzzle) -> str:
    path = tmp_path / f"{p.id}.json"
    dump_set([p], path)
    return str(path)


def _play(args: list[str], answers: str):
    return CliRunner().invoke(cli, ["puzzle", "--no-color", *args], input=answers)


def test_right_then_wrong_answers_are_judged_and_remembered(tmp_path, data_dir):
    k = shipped("kings")[0]
    result = _play(["--file", _one(tmp_path, k)], k.answer + "\n")
    assert result.exit_code == 0, result.output
    assert "Right!" in result.output and f"Best: {k.answer}" in result.output
    saved = json.loads((data_dir / "puzzles.json").read_text())
    assert saved["solved"] == [k.id] and saved["streak"] == 1

    c = next(p for p in shipped("cribbage") if p.kind == cribbage.DISCARD)
    wrong = " ".join(c.second["discard"])
    result = _play(["--file", _one(tmp_path, c)], wrong + "\n")
    assert result.exit_code == 0, result.output
    assert "Not the best." in result.output
    assert f"It gave up {c.margin:.2f} points" in result.output
    saved = json.loads((data_dir / "puzzles.json").read_text())
    assert saved["solved"] == [k.id] and saved["streak"] == 0 and saved["best_streak"] == 1


def test_wrong_kings_play_shows_what_it_gave_up(tmp_path, data_dir):
    k = shipped("kings")[0]
    result = _play(["--file", _one(tmp_path, k)], k.second["move"] + "\n")
    assert "Not the best." in result.output
    lost = k.breakdown["equity"] - k.second["equity"]
    assert f"It gave up {lost:.1f} equity" in result.output


@pytest.mark.parametrize("answer, message", [
    ("A1 across 7L", "corner patch"),
    ("G7 across", "Not an answer"),
    ("hello", "Not an answer"),
])
def test_bad_kings_answers_get_a_precise_message_and_change_nothing(tmp_path, data_dir,
                                                                   answer, message):
    k = shipped("kings")[0]
    result = _play(["--file", _one(tmp_path, k)], answer + "\nquit\n")
    assert result.exit_code == 0
    shown = " ".join(result.output.split())  # wrapped between words at 80 columns
    assert message in shown and "Try again" in shown
    assert not (data_dir / "puzzles.json").exists()


def test_a_tile_not_on_the_rack_is_refused(tmp_path):
    k = shipped("kings")[0]
    position = Position.from_json(k.position)
    missing = next(t for t in ("5L", "5D", "8L", "8D", "QL") if
                   t not in [str(x) for x in position.rack])
    square = next(f"{c}{r}" for r in range(1, 14) for c in "DEFGHIJKLM"
                  if f"{c}{r}" not in k.position["board"])
    with pytest.raises(ValueError, match="not a legal play|rack"):
        kings.read_answer(position, f"{square} {missing}")


@pytest.mark.parametrize("answer, message", [
    ("2C 3C 4C", "name two cards to lay away, not 3"),
    ("ZZ", "'ZZ' is not a card: a card is 5♥ or 5h"),
])
def test_bad_discard_answers_get_a_precise_message(tmp_path, data_dir, answer, message):
    c = next(p for p in shipped("cribbage") if p.kind == cribbage.DISCARD)
    result = _play(["--file", _one(tmp_path, c)], answer + "\nquit\n")
    assert message in result.output
    assert not (data_dir / "puzzles.json").exists()


def test_a_card_not_in_hand_is_refused():
    c = next(p for p in shipped("cribbage") if p.kind == cribbage.DISCARD)
    held = set(c.position["hand"])
    other = next(str(x) for x in parse_cards("AS AH AD AC 2S 2H 2D 2C") if str(x) not in held)
    with pytest.raises(ValueError, match=f"{Card.parse(other).pretty()} is not in your hand"):
        cribbage.read_answer(c, f"{other} {c.position['hand'][0]}")


def test_a_card_past_31_is_refused():
    p = Puzzle("t", "cribbage", cribbage.CARD,
               {"hand": ["KS", "2C"], "pile": ["TH", "JD", "5C"], "played": [
                   ["them", "TH"], ["me", "JD"], ["them", "5C"]], "discards": ["3S", "4S"],
                "starter": "9D", "dealer": True, "opponent_cards": 2},
               "2C", 1.0, {}, {}, 0, "", 0)
    with pytest.raises(ValueError, match="take the count past 31 \\(it is 25\\)"):
        cribbage.read_answer(p, "KS")


def test_daily_puzzle_is_the_same_for_everyone_on_a_date(data_dir):
    day = datetime.date(2026, 11, 25)
    assert daily_index(day, 500, "kings") == daily_index(day, 500, "kings")
    days = {daily_index(day + datetime.timedelta(d), 500, "kings") for d in range(30)}
    assert len(days) > 20  # it changes from day to day
    first = _play(["--daily", "--game", "cribbage"], "quit\n")
    second = _play(["--daily", "--game", "cribbage"], "quit\n")
    assert first.exit_code == 0, first.output
    heading = [line for line in first.output.splitlines() if line.startswith("Puzzle ")]
    assert heading and heading == [line for line in second.output.splitlines()
                                   if line.startswith("Puzzle ")]


def test_an_unreadable_progress_file_is_kept_aside(data_dir):
    data_dir.mkdir(parents=True)
    (data_dir / "puzzles.json").write_text("{not json")
    progress = Progress.load(data_dir / "puzzles.json")
    assert progress.solved == []
    assert (data_dir / "puzzles.json.unreadable").read_text() == "{not json"


def test_a_broken_set_gets_a_precise_message(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"format": "kingscrib-puzzles/1", "puzzles": [{"id": "x"}]}))
    with pytest.raises(PuzzleError, match="puzzle 1: missing field 'game'"):
        load_set(path)
    result = CliRunner().invoke(cli, ["puzzles", "verify", str(path)])
    assert result.exit_code == 1 and "missing field 'game'" in result.output


def test_best_card_puzzle_right_and_wrong(tmp_path, data_dir):
    c = next(p for p in shipped("cribbage") if p.kind == cribbage.CARD)
    best_rank = Card.parse(c.answer).rank
    result = _play(["--file", _one(tmp_path, c)], c.answer + "\n")
    assert "Right!" in result.output, result.output
    other = next(x for ch in cribbage.choices(c.kind, c.position) for x in ch.numbers["cards"]
                 if Card.parse(x).rank != best_rank)
    result = _play(["--file", _one(tmp_path, c)], other + "\n")
    assert "Not the best." in result.output and "in the rest of the play" in result.output


def test_a_puzzle_of_the_game_classic_reads_as_cribbage():
    data = shipped("cribbage")[0].to_json()
    assert Puzzle.from_json({**data, "game": "classic"}) == Puzzle.from_json(data)
    assert Puzzle.from_json({**data, "game": "classic"}).game == "cribbage"
    with pytest.raises(PuzzleError, match="game must be one of kings, cribbage"):
        Puzzle.from_json({**data, "game": "chess"})


def test_a_rank_alone_and_a_place_answer_a_puzzle_in_the_game_s_grammar():
    def puzzle(hand):
        return Puzzle("t", "cribbage", cribbage.CARD,
                      {"hand": hand, "pile": ["TH", "5C"], "played": [["them", "TH"],
                       ["me", "5C"]], "discards": ["3S", "4S"], "starter": "AH",
                       "dealer": True, "opponent_cards": 2}, "9S", 1.0, {}, {}, 0, "", 0)
    p = puzzle(["9S", "2C"])
    assert cribbage.read_answer(p, "9") == [Card.parse("9S")]  # was "'9' is not a card"
    assert cribbage.read_answer(p, "#2") == [Card.parse("2C")]
    with pytest.raises(ValueError, match=r"the rank 2♣, or the place #2 \(9♠\)\? Type 2♣ or #2"):
        cribbage.read_answer(puzzle(["2C", "9S"]), "2")
