"""Whole games: tiles, turns, exchanges, the options, the end, undo.

Interpretations of RULES.md assumed here (ambiguous there):
- "three full rounds in succession in which nobody scored" (bag not empty):
  3 x players consecutive turns without a play (every legal play scores);
- Servant ties: the current Servant stays when tied for lowest, else the first
  tied seat in turn order from the first player;
- a Joker may be called only right after a play (once), never on an over-claim;
- solitaire: seat 0 is the Light seat, seat 1 the Dark seat.
"""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest
from kings_reference import ref_check

from kingscrib.kings.board import parse_square
from kingscrib.kings.game import Game, IllegalAction
from kingscrib.kings.moves import Exchange, Pass, Play
from kingscrib.kings.record import game_to_record
from kingscrib.kings.rules import RuleSet
from kingscrib.kings.tiles import Tile, full_set, held_counts, parse_tiles

WHEN_STUCK = RuleSet(exchange="when-stuck")


def B(**squares: str) -> dict[int, Tile]:
    return {parse_square(k): Tile.parse(v) for k, v in squares.items()}


def P(**squares: str) -> Play:
    return Play.of(B(**squares))


def accounted(game: Game) -> Counter:
    return held_counts(list(game.board.values()) + [t for r in game.racks for t in r]
                       + [t for b in game.bags for t in b])


def staged(players=2, rules=None, board=None, racks=(), bag=(), seed=1, turn=0) -> Game:
    """A game put in a chosen state: the board, the racks and the bag (drawn from the
    end of the list first). The tiles left out of the state are simply not in play."""
    game = Game.new(players, rules, seed=seed)
    game.board = dict(board or {})
    game.racks = [parse_tiles(r) for r in racks]
    if game.rules.solitaire:
        game.bags = [parse_tiles(b) for b in bag]
    else:
        game.bags = [parse_tiles(bag)]
    game.turn = game.first_player = turn
    return game


def quick_first_play(game: Game) -> Play:
    """A legal first play for the seat to move, found without the full generator."""
    from itertools import combinations

    rack = game.racks[game.turn]
    for k in (3, 2, 4, 5):
        for tiles in combinations(rack, k):
            placed = {parse_square("G7") + i: t for i, t in enumerate(tiles)}
            try:
                game.check(Play.of(placed))
            except ValueError:
                continue
            return Play.of(placed)
    raise AssertionError("no quick first play")


def state(game: Game) -> dict:
    """Everything that makes up a game, deep-copied, for exact comparisons."""
    return copy.deepcopy({
        "board": game.board, "racks": game.racks, "bags": game.bags, "scores": game.scores,
        "turn": game.turn, "servant": game.servant, "end": game.end,
        "passes": game.passes_in_a_row, "scoreless": game.scoreless_in_a_row,
        "record": game_to_record(game),
    })


# ----- starting ------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_new_game_deals_five_each_and_keeps_every_tile(players):
    for seed in range(20):
        game = Game.new(players, seed=seed)
        assert [len(r) for r in game.racks] == [5] * players
        assert accounted(game) == held_counts(full_set())
        assert sum(accounted(game).values()) == 104
        assert all(t == t.held() for r in game.racks for t in r)


def test_the_lowest_draw_plays_first_and_ties_draw_again():
    ties = 0
    for seed in range(200):
        game = Game.new(3, seed=seed)
        contenders = [0, 1, 2]
        for draws in game.first_draws:
            assert sorted(draws) == contenders
            low = min(t.held().rank for t in draws.values())  # a 6/9 counts 6
            contenders = [s for s in contenders if draws[s].held().rank == low]
        assert contenders == [game.first_player]
        assert game.turn == game.first_player
        ties += len(game.first_draws) > 1
    assert ties > 0  # the tie-break was exercised


def test_players_and_solitaire_seats():
    for bad in (1, 5):
        with pytest.raises(ValueError):
            Game.new(bad, seed=0)
    with pytest.raises(ValueError):
        Game.new(3, RuleSet(solitaire=True), seed=0)
    for seed in range(10):
        game = Game.new(2, RuleSet(solitaire=True), seed=seed)
        assert {t.colour for t in game.racks[0]} == {"L"}
        assert {t.colour for t in game.racks[1]} == {"D"}
        assert Counter(t.colour for t in game.bags[0]) == {"L": 47}
        assert Counter(t.colour for t in game.bags[1]) == {"D": 47}


# ----- determinism (whole self-play games are in test_kings_records.py) ----------

def test_the_same_seed_gives_the_same_game():
    a, b = Game.new(3, seed=21), Game.new(3, seed=21)
    assert state(a) == state(b)
    for k in range(3):
        plays = a.legal_moves() if k else None
        action = quick_first_play(a) if not k else plays[len(plays) // 3].play if plays else Pass()
        a.play(action)
        b.play(action)
        assert state(a) == state(b)
    a.play(Exchange.of(a.racks[a.turn][:3]))
    b.play(Exchange.of(b.racks[b.turn][:3]))
    assert state(a) == state(b)
    assert state(Game.new(3, seed=22))["racks"] != state(Game.new(3, seed=21))["racks"]


# ----- the end -------------------------------------------------------------------

def test_going_out_with_the_bag_empty_ends_the_game_with_penalties():
    # Seat 0 plays its last tile; seat 1 keeps 6 (a 6/9 counts 6) + K + A = 17.
    game = staged(board=B(G7="7L", H7="7D"), racks=["8L", "6D KL AL"], bag="")
    turn = game.play(P(I7="8L"))
    assert turn.score == 6 == ref_check(B(G7="7L", H7="7D"), B(I7="8L"))  # 7+8 twice, 77
    assert game.is_over and game.end.reason == "out"
    assert game.end.penalties == (0, 17)
    assert game.final_scores == [6, -17]  # nothing added to the player who went out
    assert game.winners() == [0]


def test_nine_on_a_rack_counts_six():
    game = staged(board=B(G7="7L", H7="7D"), racks=["8L", "9D 9L"], bag="")
    game.play(P(I7="8L"))
    assert game.end.penalties == (0, 12)


def test_blocked_when_every_player_passes_with_the_bag_empty():
    game = staged(players=3, board=B(G7="KL", H7="KD"), racks=["AL", "2L", "3D 4D"], bag="")
    for _ in range(2):
        game.play(Pass())
        assert not game.is_over
    game.play(Pass())
    assert game.end.reason == "blocked"
    assert game.end.penalties == (1, 2, 7)
    assert game.final_scores == [-1, -2, -7]


def test_passes_before_a_play_do_not_count():
    game = staged(board=B(G7="7L", H7="7D"), racks=["8L AL", "2D"], bag="")
    game.play(Pass())  # seat 0
    game.play(Pass())  # seat 1: everybody passed in succession
    assert game.end.reason == "blocked"
    game = staged(board=B(G7="7L", H7="7D"), racks=["8L AL", "2D"], bag="")
    game.play(Pass())  # seat 0
    game.turn = 0
    game.play(P(I7="8L"))  # seat 0 again (staged): the play ends the run of passes
    game.play(Pass())  # seat 1
    assert not game.is_over
    game.play(Pass())  # seat 0
    assert game.end.reason == "blocked"
    assert game.final_scores == [6 - 1, -2]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_scoreless_rounds_end_the_game_while_the_bag_lasts(players):
    game = staged(players=players, board=B(G7="KL", H7="KD"),
                  racks=["AL"] * players, bag="2L 2L 3L 3L 4L")
    for k in range(3 * players - 1):
        game.play(Pass() if k % 2 else Exchange.of(game.racks[game.turn][:1]))
        assert not game.is_over, k
    game.play(Pass())
    assert game.end.reason == "scoreless"
    assert sum(game.end.penalties) == sum(t.penalty for r in game.racks for t in r)


def test_a_play_restarts_the_scoreless_count():
    game = staged(board=B(G7="7L", H7="7D"), racks=["AL 8L", "AD"], bag="2L 2L 3L 3D 4D 4L")
    for _ in range(5):
        game.play(Pass())
    game.turn = 0  # seat 0 again: it plays
    game.play(P(I7="8L"))
    for _ in range(5):
        game.play(Pass())
        assert not game.is_over
    game.play(Pass())
    assert game.end.reason == "scoreless"


# ----- exchanges -----------------------------------------------------------------

def test_exchange_draws_first_then_returns():
    # The bag holds exactly as many tiles as are exchanged: the player gets all of them.
    game = staged(board=B(G7="7L", H7="7D"), racks=["AL AD KL QL JL", "2D"], bag="5L 5D")
    turn = game.play(Exchange.of(parse_tiles("AL AD")))
    assert Counter(map(str, game.racks[0])) == Counter(["KL", "QL", "JL", "5L", "5D"])
    assert Counter(map(str, game.bags[0])) == Counter(["AL", "AD"])
    assert Counter(map(str, turn.drew)) == Counter(["5L", "5D"])
    assert Counter(map(str, turn.returned)) == Counter(["AL", "AD"])
    assert turn.score == 0 and game.scores == [0, 0]


def test_exchange_needs_as_many_tiles_in_the_bag():
    game = staged(board=B(G7="7L", H7="7D"), racks=["AL AD KL QL JL", "2D"], bag="5L")
    before = state(game)
    with pytest.raises(IllegalAction, match="bag"):
        game.play(Exchange.of(parse_tiles("AL AD")))
    assert state(game) == before
    game.play(Exchange.of(parse_tiles("KL")))  # one for one: allowed
    assert len(game.bags[0]) == 1 and str(game.bags[0][0]) == "KL"
    assert game.racks[0].count(Tile.parse("5L")) == 1
    assert game.can_exchange(1) and not game.can_exchange(2)


def test_exchange_of_tiles_not_on_the_rack_is_refused():
    game = staged(board=B(G7="7L", H7="7D"), racks=["AL AD KL QL JL", "2D"], bag="5L 5D")
    with pytest.raises(IllegalAction):
        game.play(Exchange.of(parse_tiles("2L")))
    with pytest.raises(IllegalAction):
        game.play(Exchange.of(parse_tiles("AL AL")))


def test_when_stuck_forbids_pass_and_exchange_when_a_play_exists():
    game = staged(rules=WHEN_STUCK, board=B(G7="7L", H7="7D"),
                  racks=["8L KL KD QL QD", "KL"], bag="5L 5D 2L")
    assert game.legal_moves()
    for action in (Pass(), Exchange.of(parse_tiles("KL"))):
        with pytest.raises(IllegalAction, match="when-stuck"):
            game.play(action)
    assert not game.can_exchange(1)
    game.play(P(I7="8L"))
    # Seat 1 holds a lone K: no play with 778? K scores nothing there.
    assert not game.legal_moves()
    game.play(Exchange.of(parse_tiles("KL")))


def test_anytime_allows_pass_and_exchange_with_a_play():
    game = staged(board=B(G7="7L", H7="7D"), racks=["8L KL KD QL QD", "KL"], bag="5L 5D 2L")
    game.play(Exchange.of(parse_tiles("KD")))
    game.play(Pass())


# ----- the joker rule ------------------------------------------------------------

def joker_game() -> Game:
    return staged(players=3, rules=RuleSet(joker=True), board=B(G7="7L", H7="7D"),
                  racks=["8L 8D", "KL", "KD"], bag="2L 2D 3L 3D 4L")


def test_a_claim_above_the_value_is_corrected_and_the_excess_goes_to_the_next_player():
    game = joker_game()
    before = state(game)
    for bad in (-1, True, 2.5):
        with pytest.raises(IllegalAction) as refused:
            game.play(P(I7="8L"), claim=bad)
        assert "6" not in str(refused.value)  # the refusal never tells the value
    assert state(game) == before
    turn = game.play(P(I7="8L"), claim=9)  # worth 6 (778: two fifteens, a pair)
    assert (turn.score, turn.claimed, turn.gained) == (6, 9, 6)
    assert turn.overclaim == {"player": 1, "points": 3}
    assert game.scores == [6, 3, 0]
    assert not game.joker_open()  # corrected already: nothing is left to call
    with pytest.raises(IllegalAction):
        game.call_joker(2)
    record = game_to_record(game)["turns"][0]
    assert record["claimed"] == 9 and record["overclaim"] == {"player": 1, "points": 3}


def test_a_short_claim_is_taken_by_the_caller():
    game = joker_game()
    turn = game.play(P(I7="8L"), claim=1)  # worth 6
    assert turn.score == 6 and game.scores == [1, 0, 0]
    assert game.missed_points() == 5
    with pytest.raises(IllegalAction):
        game.call_joker(0)  # not on your own play
    assert game.call_joker(2) == 5
    assert game.scores == [1, 0, 5]
    with pytest.raises(IllegalAction):
        game.call_joker(1)  # once only
    record = game_to_record(game)
    assert record["turns"][0]["claimed"] == 1
    assert record["turns"][0]["joker"] == {"caller": 2, "points": 5}


def test_a_false_call_costs_five():
    game = joker_game()
    game.play(P(I7="8L"))  # full claim
    assert game.call_joker(1) == -5
    assert game.scores == [6, -5, 0]


def test_no_joker_after_a_pass_or_without_the_rule():
    game = joker_game()
    game.play(Pass())
    with pytest.raises(IllegalAction):
        game.call_joker(1)
    plain = staged(board=B(G7="7L", H7="7D"), racks=["8L", "KL"], bag="2L 2D")
    with pytest.raises(IllegalAction):
        plain.play(P(I7="8L"), claim=4)
    plain.play(P(I7="8L"))
    with pytest.raises(IllegalAction):
        plain.call_joker(1)


# ----- the servant rule ----------------------------------------------------------

def test_the_servant_is_the_lowest_after_each_round():
    game = staged(players=3, rules=RuleSet(servant=True), board=B(G7="7L", H7="7D"),
                  racks=["8L 5D", "KL 2L", "8D AL"], bag="2D 3D 4D 4L 3L 2L", turn=1)
    game.play(Pass())  # seat 1
    game.play(P(I7="8D"))  # seat 2: 778 = 4
    assert game.servant is None
    t = game.play(Pass())  # seat 0 closes the round: 0 and 1 tie at 0; 1 moved first
    assert game.servant == 1 and t.servant == 1
    game.play(Pass())  # seat 1
    game.play(Pass())  # seat 2
    t = game.play(P(F7="8L"))  # seat 0: 8778
    assert t.score == ref_check(B(G7="7L", H7="7D", I7="8D"), B(F7="8L"))
    assert game.servant == 1 and t.servant == 1
    game.play(Pass())  # seat 1
    game.play(Pass())  # seat 2
    t = game.play(Pass())  # seat 0
    assert game.servant == 1


# ----- undo ----------------------------------------------------------------------

def test_undo_restores_everything_exactly():
    rng = random.Random(5)
    game = Game.new(3, RuleSet(joker=True, servant=True), seed=5)
    snapshots = []
    action = quick_first_play(game)
    for step in range(12):
        snapshots.append(state(game))
        if step == 0:
            turn = game.play(action)
        else:
            plays = game.legal_moves()
            choice = rng.random()
            if plays and choice < 0.6:
                sp = rng.choice(plays)
                game.play(sp.play, claim=max(0, sp.total - rng.randint(0, 3)))
            elif choice < 0.8 and game.can_exchange(2):
                game.play(Exchange.of(game.racks[game.turn][:2]))
            else:
                game.play(Pass())
        if game.joker_open() and rng.random() < 0.5:
            snapshots.append(state(game))
            game.call_joker((game.turn + 1) % 3 if (game.turn + 1) % 3 != game.history[-1].player
                            else game.turn)
        if game.is_over:
            break
    while snapshots:
        game.undo()
        assert state(game) == snapshots.pop()
    with pytest.raises(IllegalAction):
        game.undo()
    # Replaying the first action after undoing gives the same turn (the bag's order too).
    again = game.play(action)
    assert again.drew == turn.drew and again.score == turn.score


def test_illegal_actions_change_nothing():
    game = staged(board=B(G7="7L", H7="7D"), racks=["8L KL", "KD"], bag="2L 2D")
    before = state(game)
    for action in (P(I7="KL"), P(I7="8D"), P(K7="8L"), P(I7="8L", I8="KL")):
        with pytest.raises(IllegalAction):
            game.play(action)
        assert state(game) == before
    game.play(P(I7="8L"))
    assert len(game.history) == 1


# ----- the known-legal entry point (environments) ----------------------------------

@pytest.mark.parametrize("players,rules", [
    (2, {}), (3, {"joker": True, "servant": True}), (4, {"reduced_first_bonus": True}),
    (2, {"exchange": "when-stuck", "solitaire": True}),
])
def test_play_legal_gives_the_same_games_as_the_checked_play(players, rules):
    """Random games taken twice from one seed, every play once through ``play`` (fully
    checked) and once through ``play_legal``: every turn, score breakdown and state agree."""
    from kingscrib.kings.fastgen import best_plays, to_play
    from kingscrib.kings.play import check_play, score_play

    rules = RuleSet.from_json(rules)
    rng = random.Random(players * 1000 + len(str(rules)))
    for g in range(6):
        checked, known = Game.new(players, rules, seed=g), Game.new(players, rules, seed=g)
        plays_taken = 0
        while not checked.is_over:
            raw = best_plays(checked.board, checked.racks[checked.turn], rules)
            stuck_only = rules.exchange == "when-stuck"
            if raw and (stuck_only or rng.random() < 0.9):
                chosen = raw[rng.randrange(len(raw))]
                play = to_play(chosen[2], chosen[3])
                sample = [raw[rng.randrange(len(raw))] for _ in range(20)]
                for other in sample:  # the shortcut scores any generated play alike
                    placed = to_play(other[2], other[3]).placed
                    assert score_play(checked.board, placed, rules) == \
                        check_play(checked.board, placed, rules, checked.racks[checked.turn])
                checked.play(play)
                known.play_legal(play)
                plays_taken += 1
            else:
                action = Exchange.of(checked.racks[checked.turn][:1]) \
                    if checked.can_exchange(1) and rng.random() < 0.5 else Pass()
                checked.play(action)
                known.play(action)
            assert known.history[-1] == checked.history[-1]
            assert state(known) == state(checked)
        assert known.is_over and plays_taken > 3


def test_play_legal_keeps_no_undo_step():
    game = Game.new(2, RuleSet(), seed=3)
    from kingscrib.kings.fastgen import best_plays, to_play

    game.play(Pass())
    raw = best_plays(game.board, game.racks[game.turn], game.rules)[0]
    game.play_legal(to_play(raw[2], raw[3]))
    with pytest.raises(IllegalAction, match="nothing to undo"):
        game.undo()


def _distinct_exchanges(rack):
    """Reference: every different multiset of 1 to 5 rack tiles, counted by brute force."""
    found = set()
    for mask in range(1, 1 << len(rack)):
        chosen = [str(t) for i, t in enumerate(rack) if mask >> i & 1]
        found.add(tuple(sorted(chosen)))
    return found


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_contract_lists_plays_every_different_exchange_and_a_pass(seed):
    game = Game.start(seed=seed)
    actions = game.legal_actions()
    plays = [a for a in actions if isinstance(a, Play)]
    exchanges = [a for a in actions if isinstance(a, Exchange)]
    assert plays == [m.play for m in game.legal_moves()]
    assert {tuple(sorted(str(t) for t in e.tiles)) for e in exchanges} == \
        _distinct_exchanges(game.racks[game.turn])
    assert len(exchanges) == len(set(exchanges)) and actions[-1] == Pass()


def test_under_the_when_stuck_rule_the_contract_offers_only_plays_when_there_are_some():
    game = Game.start(RuleSet(exchange="when-stuck"), seed=4)
    assert game.legal_moves()
    assert all(isinstance(a, Play) for a in game.legal_actions())


def test_apply_refuses_a_seat_whose_turn_it_is_not_and_changes_nothing():
    game = Game.start(seed=5, names=["Ann", "Bob"])
    before = game.to_record()
    other = 1 - game.to_move()
    with pytest.raises(IllegalAction, match=f"it is {game.names[game.turn]}'s turn"):
        game.apply(Pass(), other)
    with pytest.raises(IllegalAction, match="there is no seat"):
        game.apply(Pass(), True)
    assert game.to_record() == before
    game.apply(Pass(), game.to_move())
    assert len(game.history) == 1
