"""Claims under the joker rule (docs/rules.md, "Options"): a claim is made once and is
final. A claim above the play's value is never refused, which would tell the value; it
is corrected, and the next player in turn order scores the excess, so over-claiming
never pays."""

from __future__ import annotations

import copy
import random

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from kingscrib.kings.game import Game
from kingscrib.kings.record import check_record, game_from_record, game_to_record
from kingscrib.kings.rules import RuleSet


def warmed_up(players: int, seed: int, turns: int, rng: random.Random) -> Game:
    """A joker game a few random plays (each claimed in full) after its first."""
    game = Game.new(players, RuleSet(joker=True), seed=seed)
    for _ in range(turns):
        plays = game.legal_moves()
        if not plays or game.is_over:
            break
        game.play(rng.choice(plays).play)
    return game


@settings(max_examples=30, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**31 - 1), turns=st.integers(0, 5),
       pick=st.integers(0, 10**6), excess=st.integers(0, 60))
def test_over_claiming_never_pays(players, seed, turns, pick, excess):
    game = warmed_up(players, seed, turns, random.Random(pick))
    assume(not game.is_over and game.legal_moves())
    plays = game.legal_moves()
    chosen = plays[pick % len(plays)]
    me, value = game.turn, chosen.total
    honest, greedy = copy.deepcopy(game), copy.deepcopy(game)
    honest.play(chosen.play, claim=value)
    turn = greedy.play(chosen.play, claim=value + excess)
    assert greedy.scores[me] <= honest.scores[me]
    assert all(greedy.scores[o] >= honest.scores[o] for o in range(players) if o != me)
    assert greedy.final_scores[me] <= honest.final_scores[me]
    # exactly: the claimer keeps the value, the next seat takes the excess
    nxt = (me + 1) % players
    assert greedy.scores[nxt] - honest.scores[nxt] == excess
    assert greedy.scores[me] == honest.scores[me]
    assert (turn.overclaim is not None) == (excess > 0)
    # the record says so and replays to the same scores, from its seed and turn by turn
    record = game_to_record(greedy)
    assert game_to_record(game_from_record(record)) == record
    assert check_record(record).scores == greedy.scores


def test_an_old_record_without_over_claims_still_loads():
    """A record written before over-claims were possible has no ``overclaim`` field."""
    game = Game.new(2, RuleSet(joker=True), seed=11)
    play = game.legal_moves()[0]
    game.play(play.play, claim=play.total - 1)
    game.call_joker(1)
    record = game_to_record(game)
    assert "overclaim" not in record["turns"][0]
    assert check_record(record).scores == [play.total - 1, 1]
