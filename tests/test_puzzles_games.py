"""Each game's puzzles found by game id (puzzles.games) and answered through it."""

import pytest

from kingscrib.core import UnknownGame
from kingscrib.learn import lesson_game, lessons
from kingscrib.puzzles import cribbage, kings
from kingscrib.puzzles.explain import judge
from kingscrib.puzzles.games import puzzle_game
from kingscrib.puzzles.puzzle import shipped
from kingscrib.puzzles.verify import problems


def test_a_game_id_finds_its_puzzle_module():
    assert puzzle_game("kings") is kings
    assert puzzle_game("cribbage") is cribbage
    assert puzzle_game("Classic") is cribbage  # the older name
    with pytest.raises(UnknownGame):
        puzzle_game("chess")


@pytest.mark.parametrize("game", ["kings", "cribbage"])
def test_the_stated_answer_of_a_shipped_puzzle_is_judged_right(game):
    puzzle = shipped(game)[0]
    right, lines = judge(puzzle, puzzle.answer)
    assert right and lines[0].startswith("Best: ")
    assert puzzle.theme in lines[0]


def test_a_shipped_cribbage_puzzle_verifies_and_a_wrong_answer_does_not():
    puzzle = next(p for p in shipped("cribbage") if p.kind == cribbage.DISCARD)
    assert problems(puzzle) == []
    others = [c.answer for c in cribbage.choices(puzzle.kind, puzzle.position)[1:]]
    wrong = puzzle.__class__(**{**puzzle.to_json(), "answer": others[0]})
    assert f"the best option is {puzzle.answer}, not {others[0]}" in problems(wrong)


def test_a_game_id_finds_its_lessons():
    assert lesson_game("classic").LESSONS == lessons("cribbage")
    assert all(each.game == "kings" for each in lesson_game("kings").LESSONS)
    with pytest.raises(ValueError, match="no lessons for 'chess'"):
        lesson_game("chess")
