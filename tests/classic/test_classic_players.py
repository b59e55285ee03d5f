"""Computer players: legal, blind to hidden cards, deterministic, and stronger by level."""

from __future__ import annotations

import dataclasses

import pytest

from kingscrib.classic.cards import parse_cards
from kingscrib.classic.game import ClassicGame, Discard, Play
from kingscrib.classic.rules import RuleSet
from kingscrib.players.classic import PLAYER_NAMES, make_player, play_game
from kingscrib.players.classic.levels import LevelPlayer, unseen_by


@pytest.mark.parametrize(
    "name, players",
    [(name, 2) for name in PLAYER_NAMES] + [("expert", 3), ("medium", 3), ("hard", 4), ("easy", 4)],
)
def test_every_player_finishes_games(name, players):
    rules = RuleSet(players=players, muggins=True)
    game = play_game(rules, seed=players, players=[make_player(name, i) for i in range(players)])
    assert game.phase == "over" and max(game.scores) == 121
    # computers count perfectly: nobody was ever mugged
    assert all("muggins" not in s for d in game.deals for s in d["show"])


def test_same_seed_same_game():
    def run():
        return play_game(RuleSet(), 21, [make_player("expert", 1), make_player("baseline", 2)]).record()

    assert run() == run()


def test_view_hides_other_hands_and_the_deck():
    game = ClassicGame(seed=4)
    seat = game.to_act
    view = game.view(seat)
    fields = {f.name for f in dataclasses.fields(view)}
    assert "stock" not in fields and "hands" not in fields
    assert set(view.hand) == set(game.hand(seat))
    other = 1 - seat
    assert not set(game.hand(other)) & set(view.hand)
    unseen = unseen_by(view)
    assert len(unseen) == 46 and set(game.hand(other)) <= set(unseen)


def test_expert_discards_by_expected_value():
    game = ClassicGame(seed=0)
    seat = game.to_act
    view = dataclasses.replace(game.view(game.to_act), hand=tuple(parse_cards("5H 5S 5C JD 6D 9C")),
                               legal=())
    choice = LevelPlayer("expert").choose_discard(view)
    assert isinstance(choice, Discard)
    assert sorted(map(str, choice.cards)) == ["6D", "9C"]
    assert seat in (0, 1)


def test_expert_avoids_giving_fifteen_on_the_lead():
    # leading a 5 invites a ten-card for fifteen; the expert leads the 4
    game = ClassicGame(seed=0)
    view = game.view(game.to_act)
    hand = tuple(parse_cards("5H 4S KC QD"))
    view = dataclasses.replace(view, phase="play", hand=hand, kept=hand,
                               legal=tuple(Play(c) for c in hand), cards_left=(4, 4))
    assert LevelPlayer("expert").choose_play(view).card == parse_cards("4S")[0]


def test_expert_discard_is_never_worse_than_random_in_expectation():
    from kingscrib.classic.discard import analyse_discards

    game = ClassicGame(seed=8)
    seat = game.to_act
    view = game.view(seat)
    options = analyse_discards(list(view.hand), dealer=view.is_dealer)
    chosen = LevelPlayer("expert").choose_discard(view)
    best = options[0]
    assert set(chosen.cards) == set(best.discard)
    assert best.total >= sum(o.total for o in options) / len(options)
