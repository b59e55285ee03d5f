"""The sparring partner's own play-out of the pegging agrees with the engine."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

from kingscrib.classic.game import ClassicGame, Discard, Play
from kingscrib.classic.rules import RuleSet

_PATH = Path(__file__).resolve().parent.parent / "benchmarks" / "sparring.py"
_spec = importlib.util.spec_from_file_location("sparring", _PATH)
sparring = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sparring)


def test_peg_rest_scores_the_play_as_the_engine_does():
    for seed in range(300):
        game = ClassicGame(RuleSet(), seed=seed)
        while game.phase == "discard":
            seat = game.to_act
            keep = sparring.rule_keep(game.hand(seat))
            game.apply(Discard(tuple(c for c in game.hand(seat) if c not in keep)))
        kept = [[c.rank for c in game.hand(s)] for s in (0, 1)]
        pone = 1 - game.dealer
        start = len(game.events)
        while game.phase == "play":
            seat = game.to_act
            view = game.view(seat)
            rank = sparring.greedy_card([c.rank for c in view.hand], [c.rank for c in view.pile],
                                        view.count)
            plays = [a for a in view.legal if isinstance(a, Play) and a.card.rank == rank]
            game.apply(plays[0] if plays else view.legal[0])
        engine = [0, 0]
        for event in game.events[start:]:
            if event.kind in ("peg", "go", "last"):
                engine[event.seat] += event.points
        assert sparring.peg_rest(kept, pone, [], 0, None) == engine, seed


def test_the_partner_plays_a_whole_game_legally():
    wins = sparring.play_pair("easy", rollouts=3, seed=random.Random(1).randrange(10**6))
    assert len(wins) == 2 and all(isinstance(w, bool) for w, _ in wins)
