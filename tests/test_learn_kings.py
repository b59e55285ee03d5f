"""Every Kings Cribbage lesson can be solved, and its checker accepts exactly the moves
its goal describes: every legal play, every exchange and the pass of each step are put
to the checker and compared with the goal worked out here from the reference's lines
(tests/kings_reference.py), never from the engine's breakdown."""

from __future__ import annotations

from itertools import combinations

import pytest
from kings_reference import ACROSS, DOWN, maximal_line, ranks_of, ref_check, square

from kingscrib.kings.board import square_name
from kingscrib.learn import check, lessons
from kingscrib.learn.kings import position_of
from kingscrib.learn.lesson import MOVE

STEPS = [(lesson.id, n, step) for lesson in lessons("kings")
         for n, step in enumerate(lesson.steps)]
IDS = [f"{lesson_id}-{n}" for lesson_id, n, _ in STEPS]

# A wrong answer for each step, and a word the refusal must contain.
WRONG = {
    ("valid-hands", 0): ("H7 across 6 6", "scores nothing"),
    ("valid-hands", 1): ("F7 8", "scores nothing"),
    ("touching", 0): ("C10 across 3 3", "touch"),
    ("touching", 1): ("H9 8", "forms 1 hand"),
    ("bonuses", 0): ("G7 across 8 7", "five-tile"),
    ("six-nine", 0): ("I7 6", "scores nothing"),
    ("exchange-pass", 0): ("pass", "Passing"),
    ("exchange-pass", 1): ("exchange 7", "bag holds 0"),
    ("the-end", 0): ("I7 across 3 3", "5 off at the end"),
    ("variants", 0): ("2", "Joker"),
}


def reference_lines(board, placed):
    """The tiles of each line of 2+ through a placed tile (the hands a play forms)."""
    occupied = {**board, **placed}
    lines = {tuple(maximal_line(occupied, s, d)) for s in placed for d in (ACROSS, DOWN)}
    return [[occupied[q] for q in line] for line in lines if len(line) >= 2]


def meets_goal(goal, board, rack, placed) -> bool:
    kind, wanted = goal
    lines = reference_lines(board, placed)
    if kind == "hand":
        return sorted(ranks_of(wanted)) in [sorted(t.rank for t in line) for line in lines]
    if kind == "hands":
        return len(lines) >= wanted
    if kind == "nine":
        return any(t.rank == 9 for t in placed.values())
    if kind == "bonuses":
        return (not board and len(placed) == 5
                and any(len(line) == 5 and len({t.colour for t in line}) == 1
                        for line in lines))
    if kind == "out":
        return len(placed) == len(rack)
    return False


@pytest.mark.parametrize(("lesson_id", "n", "step"), STEPS, ids=IDS)
def test_the_intended_move_is_accepted_and_a_wrong_one_refused(lesson_id, n, step):
    assert check(step, step.intended).ok
    wrong, said = WRONG[(lesson_id, n)]
    verdict = check(step, wrong)
    assert not verdict.ok
    assert said in verdict.message


MOVE_STEPS = [(lesson_id, n, step) for lesson_id, n, step in STEPS if step.answer == MOVE]


@pytest.mark.parametrize(("lesson_id", "n", "step"), MOVE_STEPS,
                         ids=[f"{lesson_id}-{n}" for lesson_id, n, _ in MOVE_STEPS])
def test_the_checker_accepts_exactly_the_moves_of_the_goal(lesson_id, n, step):
    position = position_of(step)
    board = {square(square_name(s)): t for s, t in position.board.items()}
    plays = [m.play for m in position.legal_moves()]
    if not board:  # on the empty board a play is the same wherever it lies: those
        # starting on G7 stand for the rest (every shape and face, across and down)
        plays = [p for p in plays if square_name(p.tiles[0][0]) == "G7"]
    assert plays or step.goal[0] in ("exchange", "pass")
    accepted = 0
    for play in plays:
        placed = {square(square_name(s)): t for s, t in play.tiles}
        expected = meets_goal(step.goal, board, position.rack, placed)
        assert check(step, {"tiles": play.tiles_json()}).ok == expected, play.tiles_json()
        accepted += expected
    rack = [str(t) for t in position.rack]
    for size in range(1, len(rack) + 1):
        for tiles in combinations(rack, size):
            allowed = step.goal[0] == "exchange" and size <= step.setup["bag"]
            assert check(step, "exchange " + " ".join(tiles)).ok == allowed
            accepted += allowed
    assert check(step, "pass").ok == (step.goal[0] == "pass")
    assert accepted or step.goal[0] == "pass"


def test_a_claim_is_accepted_only_at_the_plays_value():
    claims = [step for _, _, step in STEPS if step.answer != MOVE]
    assert claims
    for each in claims:
        position = position_of(each)
        play = position.parse(each.goal[1])
        board = {square(square_name(s)): t for s, t in position.board.items()}
        placed = {square(square_name(s)): t for s, t in play.tiles}
        value = ref_check(board, placed)
        assert [c for c in range(0, 40) if check(each, str(c)).ok] == [value]
        assert not check(each, "four").ok


def test_every_lesson_teaches_and_has_steps():
    ids = [lesson.id for lesson in lessons("kings")]
    assert len(set(ids)) == len(ids)
    for lesson in lessons("kings"):
        assert lesson.teach and lesson.steps
        for step in lesson.steps:
            assert step.task and step.hint


def test_lessons_are_found_by_game_id_and_by_the_older_name_classic():
    from kingscrib.learn import lessons

    assert lessons("classic") == lessons("cribbage") != lessons("kings")
    with pytest.raises(ValueError, match="the games are kings, cribbage"):
        lessons("chess")
