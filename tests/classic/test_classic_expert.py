"""The win-probability expert, its crib model and the coach."""

from __future__ import annotations

import dataclasses
import json
import random
from itertools import combinations

import pytest
from click.testing import CliRunner

from kingscrib.classic.cards import Card, parse_cards
from kingscrib.classic.discard import expected_crib, expected_hand, unseen_cards
from kingscrib.classic.game import ClassicGame, Discard, Play
from kingscrib.classic.pegging import peg_score
from kingscrib.classic.rules import RuleSet
from kingscrib.classic.show import score_show
from kingscrib.cli.classic import classic
from kingscrib.players.classic import make_player, play_game
from kingscrib.players.classic.coach import coach_discard, coach_play
from kingscrib.players.classic.crib_model import likely_crib, shipped_prior
from kingscrib.players.classic.expert import (
    NEAR_END,
    ExpertPlayer,
    go_floor,
    play_choices,
    rank_discards,
)

HAND = parse_cards("5H 5S 5C JD 6D 9C")


def test_discards_cover_the_fifteen_ways_with_exact_hand_values() -> None:
    choices = rank_discards(HAND, i_deal=True)
    assert len(choices) == 15
    assert {frozenset(c.discard) for c in choices} == {frozenset(t) for t in combinations(HAND, 2)}
    unseen = unseen_cards(HAND)
    for c in choices:
        assert c.hand == pytest.approx(expected_hand(c.keep, unseen))
        assert 0.0 <= c.win <= 1.0
    # far from the end: most expected points first
    assert [c.points for c in choices] == sorted((c.points for c in choices), reverse=True)
    assert set(choices[0].discard) == set(parse_cards("6D 9C"))


def test_the_crib_is_for_the_dealer_and_against_the_pone() -> None:
    mine = {c.discard: c.crib for c in rank_discards(HAND, i_deal=True)}
    theirs = {c.discard: c.crib for c in rank_discards(HAND, i_deal=False)}
    assert all(v > 0 for v in mine.values()) and all(v < 0 for v in theirs.values())


def test_the_other_players_throw_moves_the_crib_the_way_they_want() -> None:
    """Into their own crib a player lays cards that score; into ours, cards that do not:
    the same two cards make a better crib when the crib's owner throws the other two."""
    unseen = unseen_cards(HAND)
    throw = parse_cards("6D 9C")
    uniform = expected_crib(throw, unseen)
    assert likely_crib(throw, unseen, "own") > uniform > likely_crib(throw, unseen, "theirs")
    prior = shipped_prior()
    assert prior["own"][(5, 5)] > prior["theirs"][(5, 5)]  # nobody gives away a pair of fives


def test_near_the_end_the_discard_is_chosen_by_the_chance_to_win() -> None:
    choices = rank_discards(HAND, i_deal=False, me=NEAR_END + 20, opponent=NEAR_END + 25)
    assert [c.win for c in choices] == sorted((c.win for c in choices), reverse=True)


def test_the_expert_plays_legal_games_and_the_same_game_for_the_same_seed() -> None:
    def run():
        return play_game(RuleSet(), 5, [make_player("expert", 1), make_player("expert-v1", 2)])

    first = run()
    assert first.phase == "over" and max(first.scores) == 121
    assert first.record() == run().record()


def play_view(hand: str, pile: str, played: list[tuple[int, str]], scores=(0, 0),
              cards_left=(4, 4), seat: int = 0, dealer: int = 1):
    """A view in the play: seat 0 holds ``hand`` (and has laid its cards in ``played``)."""
    game = ClassicGame(seed=0)
    view = game.view(game.to_act)
    cards = tuple(parse_cards(hand))
    kept = cards + tuple(Card.parse(c) for s, c in played if s == seat)
    pile_cards = tuple(parse_cards(pile)) if pile else ()
    count = sum(min(c.rank, 10) for c in pile_cards)
    return dataclasses.replace(
        view, seat=seat, dealer=dealer, phase="play", hand=cards, kept=kept,
        discards=tuple(parse_cards("KH QH")), starter=Card.parse("2C"), pile=pile_cards,
        count=count, played=tuple((s, Card.parse(c)) for s, c in played), scores=scores,
        cards_left=cards_left, legal=tuple(Play(c) for c in cards if count + min(c.rank, 10) <= 31))


def test_a_go_shows_the_opponent_holds_nothing_that_fits() -> None:
    # 10, K, 2, 5: count 27, and I am to lay again: the opponent could not lay a card on
    # 27, so every card they hold is worth more than 4
    played = [(1, "TS"), (0, "KH"), (1, "2C"), (0, "5D")]
    view = play_view("AH 3D", "TS KH 2C 5D", played, cards_left=(2, 2), dealer=0)
    assert go_floor(view) == 4
    # the same cards laid in turn show nothing
    played = [(1, "TS"), (0, "KH"), (1, "2C"), (0, "5D"), (1, "AC")]
    view = play_view("AH 3D", "TS KH 2C 5D AC", played, cards_left=(2, 1), dealer=0)
    assert go_floor(view) == 0


def test_the_search_takes_a_card_that_pegs_out() -> None:
    """Needing two points, a fifteen wins the game at once: near the end the expert lays
    it, whatever the points-only search would say."""
    view = play_view("5H 9D KC 8S", "TS", [(1, "TS")], scores=(119, 100), cards_left=(4, 3),
                     dealer=0)
    choices = play_choices(view, random.Random(0))
    assert choices[0].by_win and choices[0].card == Card.parse("5H")
    assert choices[0].value == pytest.approx(1.0)
    assert peg_score([10, 5]).total == 2


def test_the_expert_lays_the_searched_best_card() -> None:
    view = play_view("5H 4S KC QD", "", [], cards_left=(4, 4), seat=0, dealer=1)
    best = play_choices(view, random.Random(0))[0]
    assert ExpertPlayer(seed=0).choose(view) == Play(best.card)
    assert best.card != Card.parse("5H")  # leading a five invites a fifteen


def test_coach_discard_explains_the_best_with_chances_to_win() -> None:
    advice = coach_discard(HAND, i_deal=True)
    assert advice.best == "lay away 6D 9C"
    assert "chance to win" in advice.lines[0] and "%" in advice.lines[0]
    assert len(advice.options) == 15 and all(0 <= o["win"] <= 1 for o in advice.options)


def test_coach_play_names_the_experts_card() -> None:
    view = play_view("5H 4S KC QD", "", [], cards_left=(4, 4))
    advice = coach_play(view)
    assert advice.best == f"lay {play_choices(view, random.Random(0))[0].card}"
    assert {o["card"] for o in advice.options} == {"5H", "4S", "KC", "QD"}
    assert all(0 <= o["win"] <= 1 for o in advice.options)


def test_classic_discard_coach_command() -> None:
    runner = CliRunner()
    out = runner.invoke(classic, ["discard", "--coach", "--dealer", *map(str, HAND)])
    assert out.exit_code == 0 and out.output.startswith("Lay away 6D 9C")
    assert "chance to win" in out.output
    out = runner.invoke(classic, ["discard", "--coach", "--json", "--scores", "100,110",
                                  *map(str, HAND)])
    data = json.loads(out.output)
    assert data["scores"] == [100, 110] and len(data["options"]) == 15
    bad = runner.invoke(classic, ["discard", "--coach", "--scores", "100", *map(str, HAND)])
    assert bad.exit_code == 2 and "ME,THEM" in bad.output
    bad = runner.invoke(classic, ["discard", "--scores", "1,2", *map(str, HAND)])
    assert bad.exit_code == 2 and "--coach" in bad.output


def test_three_players_fall_back_to_expert_v1() -> None:
    rules = RuleSet(players=3)
    game = ClassicGame(rules, seed=2)
    seat = game.to_act
    view = game.view(seat)
    action = make_player("expert", 0).choose(view)
    assert isinstance(action, Discard) and action == make_player("expert-v1", 0).choose(view)


def test_the_show_by_starter_is_the_show() -> None:
    from kingscrib.classic.show import score_show
    from kingscrib.players.classic.expert import show_by_starter

    rng = random.Random(4)
    for keep in [parse_cards("5H JH 4H 6H"), parse_cards("JC JD 5S 5C"),
                 *(rng.sample(unseen_cards([]), 4) for _ in range(20))]:
        unseen = unseen_cards(keep)
        assert show_by_starter(keep, unseen) == [score_show(keep, s).total for s in unseen]


def test_coach_play_refuses_what_it_cannot_advise() -> None:
    game = ClassicGame(seed=1)
    with pytest.raises(ValueError, match="no card"):
        coach_play(game.view(game.to_act))  # still discarding
    three = ClassicGame(RuleSet(players=3), seed=1)
    with pytest.raises(ValueError, match="two-player"):
        coach_play(three.view(three.to_act))
    with pytest.raises(ValueError, match="six different cards"):
        coach_discard(HAND[:5], i_deal=True)


def test_a_sure_show_wins_unless_the_dealer_pegs_out_first() -> None:
    """On 110 against 112 as the pone, keeping 5 5 5 J shows at least 14: the game is won
    at the show unless the dealer pegs the 9 they need in the play first (7 after his
    heels, a jack starter), before the pone pegs the 11 that would end it."""
    from kingscrib.players.classic.winprob import shipped_phases

    best = rank_discards(HAND, i_deal=False, me=110, opponent=112)[0]
    assert set(best.keep) == set(parse_cards("5C 5H 5S JD"))

    def dealer_out(dealer_needs: int) -> float:
        out = 0
        for deal in shipped_phases():
            pone = dealer = 0
            for x in deal[3:]:
                pone, dealer = pone + max(x, 0), dealer + max(-x, 0)
                if pone >= 11 or dealer >= dealer_needs:
                    out += dealer >= dealer_needs
                    break
        return out / len(shipped_phases())

    unseen = unseen_cards(HAND)
    jacks = sum(1 for c in unseen if c.rank == 11)
    expected = 1 - (jacks * dealer_out(7) + (len(unseen) - jacks) * dealer_out(9)) / len(unseen)
    assert 0.85 < best.win == pytest.approx(expected)


def _brute_crib(thrown, starter, unseen, table) -> float:
    """The crib over every pair of unseen cards, each weighted by the prior of its ranks."""
    total_w = total = 0.0
    for x, y in combinations(unseen, 2):
        w = table.get(tuple(sorted((x.rank, y.rank))), 0.0)
        total_w += w
        total += w * score_show([*thrown, x, y], starter, crib=True).total
    return total / total_w


def test_the_crib_in_the_play_counts_the_known_starter_and_not_the_cards_laid() -> None:
    """Once the starter is cut, the crib is worth its show with that starter, its other two
    cards drawn by the prior from the cards still unseen (never a card laid in the play)."""
    from kingscrib.players.classic.crib_model import crib_with_starter
    from kingscrib.players.classic.expert import crib_in_play
    from kingscrib.players.classic.levels import unseen_by

    # seat 0 deals and threw KH QH; the starter is 2C; the opponent has laid 5S and 5C
    played = [(1, "5S"), (0, "TS"), (1, "5C")]
    view = play_view("AH 3D 4C", "5S TS 5C", played, cards_left=(3, 2), dealer=0)
    view = dataclasses.replace(view, discards=tuple(parse_cards("5H 5D")),
                               starter=Card.parse("JC"))
    unseen = unseen_by(view)
    assert not {Card.parse("5S"), Card.parse("5C"), Card.parse("JC")} & set(unseen)
    brute = _brute_crib(view.discards, view.starter, unseen, shipped_prior()["theirs"])
    assert crib_in_play(view) == pytest.approx(brute)
    # the same with the nob jack among the unseen and the opponent's own crib
    view = dataclasses.replace(view, dealer=1, discards=tuple(parse_cards("9C 6D")),
                               starter=Card.parse("3S"))
    unseen = unseen_by(view)
    brute = _brute_crib(view.discards, view.starter, unseen, shipped_prior()["own"])
    assert crib_in_play(view) == pytest.approx(brute)
    # with every pair as likely, a five-card flush counts too
    uniform = {(a, b): 1.0 for a in range(1, 14) for b in range(a, 14)}
    thrown, starter = parse_cards("2S 9S"), Card.parse("4S")
    rest = [c for c in unseen_cards([*thrown, starter]) if c != Card.parse("JS")]
    got = crib_with_starter(thrown, starter, rest, "own", {"own": uniform})
    assert got == pytest.approx(_brute_crib(thrown, starter, rest, uniform))


def test_the_discards_pegging_is_the_tables_share_for_the_seat() -> None:
    """Each option's pegging is PEG_SHARE of the table's value of the four kept ranks for
    the seat, and the table sees the play from the seat: the pone's four fives against
    any dealer peg worse than the dealer's."""
    from kingscrib.players.classic.expert import PEG_SHARE
    from kingscrib.players.classic.pegtable import kept_pegging

    for i_deal in (True, False):
        for c in rank_discards(HAND, i_deal=i_deal):
            ranks = tuple(sorted(card.rank for card in c.keep))
            assert c.pegging == pytest.approx(PEG_SHARE * kept_pegging(ranks, i_deal))
    assert kept_pegging((5, 5, 5, 5), False) < kept_pegging((5, 5, 5, 5), True)


def test_the_discards_read_the_pegging_share_when_they_are_made(monkeypatch) -> None:
    """The share is read at each call, not fixed when the module loads, so that a benchmark
    can screen another value (``benchmarks/classic_expert.py --set PEG_SHARE=...``)."""
    from kingscrib.players.classic import expert
    from kingscrib.players.classic.pegtable import kept_pegging

    monkeypatch.setattr(expert, "PEG_SHARE", 0.25)
    for c in rank_discards(HAND, i_deal=True):
        ranks = tuple(sorted(card.rank for card in c.keep))
        assert c.pegging == pytest.approx(0.25 * kept_pegging(ranks, True))
    monkeypatch.setattr(expert, "PLAY_SAMPLES", 7)
    assert ExpertPlayer(1).samples == 7
