"""A Cribbage game saved at any point resumes, replays and is analysed alike (the Cribbage
half of tests/kings/test_kings_undo_records.py; Cribbage has no undo, docs/rules.md).

The expectation is the live game: the terminal game's snapshot and the bare record,
reloaded from JSON, must rebuild it exactly (hands, crib, scores, events, whose turn), go
on exactly as it would, and ``classic analyze`` must judge every decision made so far.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kingscrib.classic.game import ClassicGame
from kingscrib.classic.record import replay
from kingscrib.players.classic.review import review_record
from kingscrib.terminal.controllers.classic import ClassicSession


def _state(game: ClassicGame) -> tuple[object, ...]:
    return (game.phase, game.to_act, list(game.scores), list(game.events),
            [game.hand(s) for s in range(game.players)], game.crib, game.starter,
            game.record())


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), picks=st.lists(st.integers(0, 100), max_size=40))
def test_a_game_saved_anywhere_resumes_replays_and_is_analysed_alike(seed, picks):
    session = ClassicSession.new(seed=seed, level="easy")
    game = session.game
    for pick in picks:
        if game.is_over:
            break
        actions = game.legal_actions()
        game.apply(actions[pick % len(actions)])
    snapshot = json.loads(json.dumps(session.snapshot()))
    resumed = ClassicSession.from_snapshot(snapshot).game
    assert _state(resumed) == _state(game)
    assert _state(replay(json.loads(json.dumps(game.record())))) == _state(game)
    decisions = review_record(snapshot["record"])
    made = sum(1 for d in game.deals for _ in d.get("plays", [])) + \
        sum(1 for d in game.deals for x in d.get("discards", []) if x is not None)
    assert len(decisions) <= made
    assert all(d.seat in (0, 1) for d in decisions)
    for _ in range(6):  # the resumed game goes on exactly as the live one
        if game.is_over:
            break
        action = game.legal_actions()[0]
        game.apply(action)
        resumed.apply(action)
        assert _state(resumed) == _state(game)
