"""Undo and the record: any sequence of turns and undos saves, resumes, replays and is
analysed alike (docs/rules.md, "Undo in a record").

The independent expectation is the game itself: a record reloaded from JSON must rebuild
the live game exactly (board, racks, bags, scores), the turn-by-turn checker must accept
it, the analysis must review every turn, and the ``undo`` entries must follow the format
(in the order made, ``before_turn`` never decreasing and never past the turns recorded).
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kingscrib.kings.game import Game
from kingscrib.kings.record import check_record
from kingscrib.kings.rules import RuleSet
from kingscrib.players.kings.analysis import review_game

# A script: ("turn", pick) takes a random legal action, ("undo", n) takes back n actions
# and reshuffles the bag as the terminal game does.
STEPS = st.lists(st.one_of(st.tuples(st.just("turn"), st.integers(0, 10_000)),
                           st.tuples(st.just("undo"), st.integers(1, 4))),
                 min_size=1, max_size=14)


def _run(seed: int, joker: bool, steps: list[tuple[str, int]], keys: random.Random) -> Game:
    game = Game.new(["Ann", "Bob"], RuleSet(joker=joker), seed=seed)
    for kind, n in steps:
        if game.is_over:
            break
        if kind == "turn":
            actions = game.legal_actions()
            game.apply(actions[n % len(actions)], game.turn)
            if joker and n % 3 == 0 and game.joker_open():
                game.call_joker((game.history[-1].player + 1) % game.players)
        elif game.history:
            for _ in range(min(n, len(game.history))):
                game.undo()
            game.reshuffle(keys.randrange(2**31))
    return game


def _same(a: Game, b: Game) -> None:
    assert a.board == b.board and a.racks == b.racks and a.bags == b.bags
    assert a.scores == b.scores and a.turn == b.turn and a.end == b.end
    assert [t.to_json() for t in a.history] == [t.to_json() for t in b.history]


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), joker=st.booleans(), steps=STEPS)
def test_any_turns_and_undos_save_resume_replay_and_analyse_alike(seed, joker, steps):
    game = _run(seed, joker, steps, random.Random(seed))
    record = json.loads(json.dumps(game.to_record()))
    turns = len(record["turns"])
    marks = [u["before_turn"] for u in record.get("undo", [])]
    assert marks == sorted(marks) and all(0 <= m <= turns for m in marks)

    resumed = Game.from_record(record)
    _same(resumed, game)
    checked = check_record(record)
    assert checked.board == game.board and checked.scores == game.scores
    assert [r.turn for r in review_game(record)] == list(range(1, turns + 1))

    # The resumed game goes on exactly as the live one would.
    for _ in range(3):
        if game.is_over:
            break
        action = game.legal_actions()[0]
        game.apply(action, game.turn)
        resumed.apply(action, resumed.turn)
        _same(resumed, game)


def test_two_undos_in_a_row_keep_only_the_reshuffle_of_the_game_as_it_stands():
    game = Game.new(["Ann", "Bob"], seed=1)
    for _ in range(4):
        game.apply(game.legal_actions()[0], game.turn)
    game.undo()
    game.undo()
    game.reshuffle(11)
    game.undo()
    game.undo()
    game.reshuffle(22)
    assert game.to_record()["undo"] == [{"before_turn": 0, "reshuffle": 22}]
    _same(Game.from_record(json.loads(json.dumps(game.to_record()))), game)


def test_a_save_written_before_the_fix_still_resumes_as_played():
    # Earlier versions kept the reshuffle of turns taken back (before_turn 2 here) ahead
    # of the one that replaced it: the reader drops it, so such a save is not lost.
    game = Game.new(["Ann", "Bob"], seed=1)
    for _ in range(4):
        game.apply(game.legal_actions()[0], game.turn)
    game.undo()
    game.undo()
    game.reshuffle(11)
    game.undo()
    game.undo()
    game.reshuffle(22)
    for _ in range(5):
        game.apply(game.legal_actions()[0], game.turn)
    old = game.to_record()
    old["undo"] = [{"before_turn": 2, "reshuffle": 11}, {"before_turn": 0, "reshuffle": 22}]
    _same(Game.from_record(json.loads(json.dumps(old))), game)
    assert len(review_game(old)) == 5
