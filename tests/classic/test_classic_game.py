"""Whole deals and games: the play with go and 31, the show order, 121, records."""

from __future__ import annotations

import random

import pytest
from classic_reference import ref_score
from classic_stacked import StackedGame
from hypothesis import given, settings
from hypothesis import strategies as st

from kingscrib.classic.cards import Card, deck, parse_cards
from kingscrib.classic.game import Claim, ClassicGame, Discard, IllegalAction, Play
from kingscrib.classic.record import RecordError, dumps, loads, replay
from kingscrib.classic.rules import RuleSet


def play_cards(game: ClassicGame, cards: str) -> None:
    for c in cards.split():
        game.apply(Play(Card.parse(c)))


def discard_all(game: ClassicGame, throws: list[str]) -> None:
    for t in throws:
        game.apply(Discard(tuple(parse_cards(t))))


def points_by_seat(game: ClassicGame, kinds: set[str]) -> dict[int, int]:
    out: dict[int, int] = {}
    for e in game.events:
        if e.kind in kinds:
            out[e.seat] = out.get(e.seat, 0) + e.points
    return out


def test_go_and_last_card_two_players():
    # Alice (pone): 4 4 7 9; Bob (dealer): 7 J 5 8 (the first example of the go)
    g = StackedGame(["4H 4S 7C 9D KC KD", "7H JS 5C 8D QC QD"], starter="2C")
    alice, bob = g.order_from_left()
    discard_all(g, ["KC KD", "QC QD"])
    assert g.to_act == alice
    play_cards(g, "4H 7H 4S JS")
    assert g.count == 25
    # Alice cannot go; Bob lays the 5 for 30 and pegs one for the go
    assert g.to_act == bob
    play_cards(g, "5C")
    assert g.count == 0 and g.to_act == alice
    play_cards(g, "7C 8D 9D")
    pegs = points_by_seat(g, {"peg", "go"})
    assert pegs == {alice: 2 + 3 + 1, bob: 1 + 2}
    plays = g.deals[0]["plays"]
    assert {"player": alice, "action": "go"} in plays
    assert plays[-1] == {"player": alice, "action": "last card", "score": 1}


def test_thirty_one_scores_two_without_a_go():
    # Bob (pone): 4 4 2 Q; Alice (dealer): 4 3 5 9 (the second example)
    g = StackedGame(["4H 4S 2C QD KC KD", "4C 3D 5H 9S QC JD"], starter="AC")
    bob, alice = g.order_from_left()
    discard_all(g, ["KC KD", "QC JD"])
    play_cards(g, "4H 4C 4S 3D 2C 5H")
    assert g.count == 22 and g.to_act == alice  # Bob's queen would pass 31
    play_cards(g, "9S")
    assert g.count == 0 and g.to_act == bob
    play_cards(g, "QD")
    pegs = points_by_seat(g, {"peg", "go"})
    assert pegs[bob] == 6 + 3 + 1
    assert pegs[alice] == 2 + 2 + 4 + 2
    assert [p for p in g.deals[0]["plays"] if p["action"] in ("go", "last card")][-1] == {
        "player": bob, "action": "last card", "score": 1}


def test_player_must_play_if_able_and_cannot_exceed_31():
    g = StackedGame(["TH TS 9C 2D KC KD", "8H QS 5C 9D QC JD"], starter="AC")
    pone, dealer = g.order_from_left()
    discard_all(g, ["KC KD", "QC JD"])
    play_cards(g, "TH 8H TS")
    assert g.count == 28
    assert {"player": dealer, "action": "go"} in g.deals[0]["plays"]
    # the dealer holds Q 5 9: nothing fits, so he says go; the pone holds 9 and 2
    # and must lay the 2 (the 9 would pass 31)
    assert g.to_act == pone
    assert [a.card for a in g.legal_actions()] == [Card.parse("2D")]
    before = g.record()
    with pytest.raises(IllegalAction):
        g.apply(Play(Card.parse("9C")))
    with pytest.raises(IllegalAction):
        g.apply(Play(Card.parse("QS")))  # not in the pone's hand
    assert g.record() == before


def test_show_order_dealer_last_then_crib_and_heels():
    g = StackedGame(["5H 5S 5C JD 2C 3C", "AH 2H 4S 6D 8C 9C"], starter="5D")
    pone, dealer = g.order_from_left()
    discard_all(g, ["2C 3C", "8C 9C"])
    while g.phase == "play":
        g.apply(g.legal_actions()[0])
    shows = g.deals[0]["show"]
    assert [(s["player"], s["kind"]) for s in shows] == [(pone, "hand"), (dealer, "hand"), (dealer, "crib")]
    assert shows[0]["score"] == 29
    crib = [Card.parse(c) for c in shows[2]["cards"]]
    assert sorted(crib) == sorted(parse_cards("2C 3C 8C 9C"))
    assert shows[2]["score"] == ref_score(crib, Card.parse("5D"), crib=True)


def test_his_heels_scores_two_for_the_dealer():
    g = StackedGame(["5H 5S 5C 4D 2C 3C", "AH 2H 4S 6D 8C 9C"], starter="JD")
    pone, dealer = g.order_from_left()
    discard_all(g, ["2C 3C", "8C 9C"])
    assert g.scores[pone] == 0
    assert g.scores[dealer] == 2 and g.deals[0]["heels"] == 2


def test_game_ends_the_moment_121_is_reached_in_the_show():
    g = StackedGame(["5H 5S 5C JD 2C 3C", "AH 2H 4S 6D 8C 9C"], starter="5D")
    pone, dealer = g.order_from_left()
    g.scores[pone] = 100
    g.scores[dealer] = 110
    discard_all(g, ["2C 3C", "8C 9C"])
    while g.phase == "play":
        g.apply(g.legal_actions()[0])
    # the dealer pegs 4 in the play; the pone counts first and goes out with the
    # 29 hand, so the dealer's hand and crib are never counted
    assert g.phase == "over" and g.winner == pone
    assert g.scores == [121, 114] if pone == 0 else [114, 121]
    assert len(g.deals[0]["show"]) == 1
    assert g.events[-1].kind == "win"


def test_three_players_deal_and_crib():
    g = StackedGame(
        ["AH 2H 3H 4H 5H", "AS 2S 3S 4S 5S", "AC 2C 3C 4C 5C"], starter="KD", crib_card="9D"
    )
    assert g.rules.hand_size == 5
    discard_all(g, ["5H", "5S", "5C"])
    assert len(g.crib) == 4 and Card.parse("9D") in g.crib
    for seat in range(3):
        assert len(g.kept(seat)) == 4
    while g.phase == "play":
        g.apply(g.legal_actions()[0])
    assert [s["kind"] for s in g.deals[0]["show"]][-1] == "crib"


def test_four_players_partners_share_a_score():
    g = StackedGame(
        ["5H 5S TH TS KD", "AS 2S 3S 4S 6D", "AC 2C 3C 4C 6C", "9H 9S 9C 9D 7D"], starter="2D"
    )
    assert g.rules.sides == 2
    order = g.order_from_left()
    discard_all(g, ["KD", "6D", "6C", "7D"])
    while g.phase == "play":
        g.apply(g.legal_actions()[0])
    shows = g.deals[0]["show"]
    assert [s["player"] for s in shows] == order + [order[-1]]
    team_show = [0, 0]
    for s in shows:
        team_show[s["player"] % 2] += s["score"]
    pegs = [0, 0]
    for e in g.events:
        pegs[e.seat % 2] += e.points
    assert list(g.scores) == pegs


def test_muggins_claims_and_missed_points():
    g = StackedGame(["5H 5S 5C JD 2C 3C", "AH 2H 4S 6D 8C 9C"], starter="5D",
                    rules=RuleSet(players=2, muggins=True))
    pone, dealer = g.order_from_left()
    discard_all(g, ["2C 3C", "8C 9C"])
    while g.phase == "play":
        g.apply(g.legal_actions()[0])
    assert g.phase == "show" and g.show_item.seat == pone
    before = (list(g.scores), g.record())
    with pytest.raises(IllegalAction):
        g.apply(Claim(30))
    assert (list(g.scores), g.record()) == before
    g.apply(Claim(28))
    assert g.deals[0]["show"][0]["muggins"] == {"player": dealer, "score": 1}
    assert g.scores[dealer] == before[0][dealer] + 1
    assert g.scores[pone] == before[0][pone] + 28


def test_wrong_discards_are_refused():
    g = ClassicGame(seed=3)
    hand = g.hand(g.to_act)
    other = next(c for c in deck() if c not in hand)
    for bad in [(hand[0],), (hand[0], hand[0]), (hand[0], other), (hand[0], hand[1], hand[2])]:
        with pytest.raises(IllegalAction):
            g.apply(Discard(bad))
    with pytest.raises(IllegalAction):
        g.apply(Play(hand[0]))
    assert g.deals[0]["discards"] == [None, None]


def random_game(players: int, seed: int, choice_seed: int, muggins: bool = False) -> ClassicGame:
    rng = random.Random(choice_seed)
    g = ClassicGame(RuleSet(players=players, muggins=muggins), seed=seed)
    steps = 0
    while g.phase != "over":
        g.apply(rng.choice(g.legal_actions()))
        steps += 1
        assert steps < 5000
    return g


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 4), st.integers(0, 10**6), st.integers(0, 10**6), st.booleans())
def test_whole_games(players, seed, choice_seed, muggins):
    g = random_game(players, seed, choice_seed, muggins)
    rec = g.record()
    # one side reached 121 exactly at the moment it won; the others are below
    assert g.scores[g.winner] == 121
    assert all(s < 121 for i, s in enumerate(g.scores) if i != g.winner)
    # every card accounted for: 52 distinct cards in each deal
    rules = g.rules
    for deal in rec["deals"]:
        dealt = [Card.parse(c) for h in deal["hands"] for c in h]
        if "crib_card" in deal:
            dealt.append(Card.parse(deal["crib_card"]))
        assert len(dealt) == len(set(dealt)) == rules.players * rules.hand_size + rules.crib_from_deck
        if "starter" in deal:
            assert Card.parse(deal["starter"]) not in dealt
        played = [p["card"] for p in deal["plays"] if p["action"] == "play"]
        assert len(played) == len(set(played))
        counts = [p["count"] for p in deal["plays"] if p["action"] == "play"]
        assert all(0 < c <= 31 for c in counts)
    # the points pegged add up to the scores
    sides = [0] * rules.sides
    for e in g.events:
        sides[rules.side_of(e.seat)] += e.points
    assert [min(121, s) for s in sides] == g.scores
    # the record replays to the same game, and the same seed gives the same game
    assert replay(loads(dumps(g))).record() == rec
    assert random_game(players, seed, choice_seed, muggins).record() == rec


def test_full_deal_accounts_for_52_cards():
    g = ClassicGame(seed=11)
    d = g._deal
    everything = [c for h in d.dealt for c in h] + d.stock
    assert sorted(everything) == sorted(deck())


def test_corrupt_records_are_refused():
    g = random_game(2, 5, 6)
    rec = g.record()
    with pytest.raises(RecordError):
        loads("{not json")
    bad = loads(dumps(g))
    bad["game"] = "kings"
    with pytest.raises(RecordError):
        replay(bad)
    bad = loads(dumps(g))
    bad["deals"][0]["plays"][0]["score"] += 1
    with pytest.raises(RecordError, match="deal 1: plays"):
        replay(bad)
    bad = loads(dumps(g))
    bad["deals"][0]["discards"][0] = ["AS", "AS"]
    with pytest.raises(RecordError):
        replay(bad)
    for seat in ([], True, "1", 7):  # a card played by no real seat
        bad = loads(dumps(g))
        bad["deals"][0]["plays"][0]["player"] = seat
        with pytest.raises(RecordError, match="no seat"):
            replay(bad)
    assert replay(rec).record() == rec


def test_skunk_game_points():
    rules = RuleSet(skunk=True)
    assert rules.game_points(0, [121, 95]) == 1
    assert rules.game_points(0, [121, 90]) == 2
    assert rules.game_points(1, [60, 121]) == 3
    assert RuleSet().game_points(0, [121, 10]) == 1
    with pytest.raises(ValueError):
        RuleSet(players=5)


def test_three_players_go_passes_round_the_table():
    g = StackedGame(
        ["KH 9H 2C 3C 4C", "QS 8S 6S 5S 4S", "JD 9D 8D 7D 4D"], starter="AS", crib_card="4H"
    )
    a, b, c = g.order_from_left()
    discard_all(g, ["4C", "4S", "4D"])
    assert sorted(g.crib) == sorted(parse_cards("4C 4S 4D 4H"))
    play_cards(g, "KH QS JD")
    # nobody can lay a card on 30: A and B say go, and C, who laid the last card, pegs one
    plays = g.deals[0]["plays"]
    assert plays[-3:] == [
        {"player": a, "action": "go"},
        {"player": b, "action": "go"},
        {"player": c, "action": "go", "score": 1},
    ]
    assert g.count == 0 and g.to_act == a
    play_cards(g, "9H 8S 7D")  # 9 8 7: a run of three for C at 24
    assert g.deals[0]["plays"][-1]["score"] == 3 and g.deals[0]["plays"][-1]["player"] == c


def test_four_players_go_with_partners():
    g = StackedGame(
        ["TH TS 9C AC KD", "JH JS 8C 2D 6D", "QH QS 7C 3D 6C", "KH KS 5C 4D 7D"], starter="2C"
    )
    order = g.order_from_left()
    discard_all(g, ["KD", "6D", "6C", "7D"])
    play_cards(g, "TH JH QH")  # 30
    # only the first player's ace fits (31): the others say go in turn
    assert g.to_act == order[0]
    play_cards(g, "AC")
    assert g.deals[0]["plays"][-1] == {
        "player": order[0], "action": "play", "card": "AC", "count": 31, "score": 2,
        "why": ["thirty-one"]}
    assert g.count == 0 and g.to_act == order[1]


def test_the_contract_in_partnerships_names_both_partners_as_winners():
    game = ClassicGame.start(seed=11, names=["ann", "bob", "cy", "di"])
    assert game.players == 4 and game.rules.players == 4
    rng = random.Random(11)
    while not game.is_over:
        seat = game.to_move()
        assert seat in game.waiting_for()
        game.apply(rng.choice(game.legal_actions()), seat)
    assert game.to_move() is None and game.legal_actions() == []
    assert game.winners() == [game.winner, game.winner + 2]
    assert ClassicGame.from_record(game.record()).record() == game.record()
