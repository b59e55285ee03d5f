"""``kingscrib puzzle`` at 80x24: each kind of puzzle, shown and answered, fits the screen,
and reads as its snapshot (tests/text_screens/puzzle/*.txt; to accept a
deliberate change, run with KINGSCRIB_UPDATE_SNAPSHOTS=1 and read the new files)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.cells import cell_len

from kingscrib.cli.main import cli
from kingscrib.puzzles.puzzle import dump_set, shipped

SNAPSHOTS = Path(__file__).parent / "text_screens" / "puzzle"  # (not __snapshots__: syrupy owns that)
WIDTH, HEIGHT = 80, 24


def first_of(game: str, kind: str):
    return next(p for p in shipped(game) if p.kind == kind)


@pytest.mark.parametrize("game, kind", [("kings", "best-play"), ("cribbage", "best-discard"),
                                        ("cribbage", "best-card")])
def test_a_puzzle_and_its_answer_fit_80x24(tmp_path, monkeypatch, game, kind):
    monkeypatch.setenv("KINGSCRIB_DATA_DIR", str(tmp_path / "data"))
    puzzle = first_of(game, kind)
    path = tmp_path / "one.json"
    dump_set([puzzle], path)
    result = CliRunner().invoke(cli, ["puzzle", "--file", str(path), "--no-color"],
                                input=f"{puzzle.answer}\nquit\n",
                                env={"COLUMNS": str(WIDTH), "LINES": str(HEIGHT)})
    assert result.exit_code == 0, result.output
    screen = result.output
    board = [line for line in screen.splitlines() if "·" in line or "KINGS" in line]
    assert all(cell_len(line) <= WIDTH for line in board), "a board row wider than 80"
    shown = screen.split("> ")[0].splitlines()  # up to the first prompt: the puzzle
    rows = sum(max(1, -(-cell_len(line) // WIDTH)) for line in shown)  # as a terminal wraps
    assert rows <= HEIGHT, f"the puzzle takes {rows} rows of 24"
    snapshot = SNAPSHOTS / f"{game}-{kind}.txt"
    if os.environ.get("KINGSCRIB_UPDATE_SNAPSHOTS"):
        snapshot.parent.mkdir(parents=True, exist_ok=True)
        snapshot.write_text(screen)
    assert screen == snapshot.read_text()


def second_best(puzzle) -> str:
    """The runner-up option, in the game's notation: an answer that is explained at length."""
    if puzzle.kind == "best-play":
        return puzzle.second["move"]
    if puzzle.kind == "best-discard":
        return " ".join(puzzle.second["discard"])
    return puzzle.second["cards"][0]


@pytest.mark.parametrize("game, kind", [("kings", "best-play"), ("cribbage", "best-discard"),
                                        ("cribbage", "best-card")])
def test_explanations_wrap_between_words_at_80_columns(tmp_path, monkeypatch, game, kind):
    """A wrong answer's explanation is longer than a row: it wraps at spaces, so every
    number and card reads whole ("= 16", not "= 1" / "6"), and no row is wider than 80."""
    from kingscrib.puzzles.explain import judge

    monkeypatch.setenv("KINGSCRIB_DATA_DIR", str(tmp_path / "data"))
    puzzles = [p for p in shipped(game) if p.kind == kind][:4]
    path = tmp_path / "some.json"
    dump_set(puzzles, path)
    answers = "".join(f"{second_best(p)}\n" for p in puzzles)
    result = CliRunner().invoke(cli, ["puzzle", "--file", str(path), "--no-color"],
                                input=answers + "quit\n",
                                env={"COLUMNS": str(WIDTH), "LINES": str(HEIGHT)})
    assert result.exit_code == 0, result.output
    rows = result.output.splitlines()
    printed = [row for row in rows if ")> " not in row]  # not a prompt and what was typed
    assert all(cell_len(row) <= WIDTH for row in printed), \
        [row for row in printed if cell_len(row) > WIDTH]
    start = 0
    for p in puzzles:
        right, lines = judge(p, second_best(p))
        assert not right
        start = next(i for i, row in enumerate(rows) if i > start and row.endswith(f"> {second_best(p)}"))
        shown = rows[start + 2:]  # after the prompt and "Not the best."
        wanted = " ".join(lines).split()
        assert " ".join(shown).split()[:len(wanted)] == wanted  # each word whole, in order
        for row in shown[:len(lines) * 3]:
            assert not row.endswith((" =", " +", " x")), row  # an operator keeps its number
            assert not row.startswith(("= ", "+ ", "x ")), row
