"""The Kings expert: reproducible for a seed and a budget, legal, defence-aware, and the
previous expert still selectable."""

from __future__ import annotations

import random

from kingscrib.kings.fastgen import to_play
from kingscrib.kings.game import Game
from kingscrib.kings.moves import Exchange, Pass, Play
from kingscrib.players.kings import PLAYERS, make_player
from kingscrib.players.kings.driver import take_turn
from kingscrib.players.kings.equity import (
    EquityPlayer,
    best_static,
    candidates,
    defend,
    distinct,
)
from kingscrib.players.kings.expert import ExpertPlayer
from kingscrib.players.kings.levels import LEVELS
from kingscrib.players.kings.sim import SimPlayer


def quick_expert(seed: int = 1, **kw) -> ExpertPlayer:
    # A fixed number of play-outs and a generous clock: the choice depends on the seed only.
    kw.setdefault("candidates", 4)
    kw.setdefault("pool", 8)
    return ExpertPlayer(seed, time_budget=600.0, max_iterations=3, min_iterations=3, **kw)


def _play_out(seed: int, players: int) -> list[tuple]:
    game = Game.new(players, seed=seed)
    seats = [quick_expert(10 + seed)] + [EquityPlayer(seed=k) for k in range(1, players)]
    while not game.is_over:
        take_turn(game, seats)  # Game.play refuses anything illegal
    return [(t.player, t.action, t.tiles, t.returned, t.score) for t in game.history]


def test_expert_plays_whole_games_legally_and_reproducibly() -> None:
    two = _play_out(4, 2)
    assert any(a == "play" for s, a, *_ in two if s == 0)
    assert two == _play_out(4, 2)  # same seed and budget: the same game, move for move
    three = _play_out(6, 3)  # no exact endgame with three: the simulation to the end
    assert three == _play_out(6, 3)


def _midgame(seed: int, moves: int) -> Game:
    game = Game.new(2, seed=seed)
    greedy = [make_player("greedy"), make_player("greedy")]
    for _ in range(moves):
        take_turn(game, greedy)
    return game


def test_with_a_heavy_prior_the_expert_plays_the_best_defended_option() -> None:
    """Its prior is the defended equity of its pool: with that weighing far more than the
    play-outs, its choice is the top of the defence-aware ranking, computed here apart."""
    for seed, moves in ((3, 4), (9, 7), (12, 10)):
        game = _midgame(seed, moves)
        view = game.view(game.turn)
        expert = quick_expert(5, prior_weight=1e9, candidates=8, pool=12)
        chosen = expert.choose(view)
        options = distinct(candidates(view, expert.table), 12)
        ranked = defend(view, options, random.Random(5), width=12)
        best = ranked[0]
        expected = best.action if best.raw is None else to_play(best.raw[2], best.raw[3])
        assert chosen == expected, (seed, chosen, expected)


def test_expert_sees_only_what_its_seat_may_see() -> None:
    game = _midgame(21, 6)
    seat = game.turn
    twin = Game.new(2, seed=21)
    for turn in game.history:
        twin.play(Play.of(turn.tiles) if turn.action == "play" else
                  Exchange.of(turn.returned) if turn.action == "exchange" else Pass())
    other = 1 - seat
    pool = twin.racks[other] + twin.bags[0]
    pool.reverse()
    twin.racks[other] = pool[:len(twin.racks[other])]
    twin.bags[0] = pool[len(twin.racks[other]):]
    assert game.view(seat).unseen == twin.view(seat).unseen
    assert quick_expert().choose(game.view(seat)) == quick_expert().choose(twin.view(seat))


def test_levels_keep_their_names_and_the_previous_expert() -> None:
    assert isinstance(make_player("expert", 1), ExpertPlayer)
    v1 = make_player("expert-v1", 1)
    assert type(v1) is SimPlayer and v1.name == "expert-v1"
    assert make_player("expert", 1).name == "expert"
    assert LEVELS[-2:] == ("expert-v1", "expert")  # strongest last, as the lobby lists them
    names = list(PLAYERS)
    assert names.index("expert-v1") < names.index("expert") == len(names) - 1


def _greedy_game(seed: int, until_bag: int) -> Game:
    """A two-player game played greedily until the bag holds ``until_bag`` tiles or fewer."""
    game = Game.new(2, seed=seed)
    greedy = [make_player("greedy"), make_player("greedy")]
    while not game.is_over and len(game.bags[0]) > until_bag:
        take_turn(game, greedy)
    return game


def _true_draws(game: Game) -> tuple[dict[int, list], list]:
    """The other rack and the bag as the engine holds them (draws pop from the end)."""
    other = 1 - game.turn
    return {other: list(game.racks[other])}, list(game.bags[0])


def test_away_from_the_end_the_play_out_is_sims() -> None:
    """With one round and no end-of-game rule, the expert's play-out is exactly the
    simulating player's (written apart) for the same draws."""
    expert = ExpertPlayer(1, rounds=1, near_end=-1, win_bonus=0.0)
    sim = SimPlayer(1)
    checked = 0
    for seed in range(5):
        game = _greedy_game(seed, 25)
        view = game.view(game.turn)
        for cand in distinct(candidates(view, expert.table), 6):
            racks, bag = _true_draws(game)
            racks2, bag2 = _true_draws(game)
            got = expert._playout(view.position, cand, racks, bag, [1 - game.turn])
            want = sim._playout(view.position, cand, racks2, bag2, [1 - game.turn])
            assert got == want, (seed, cand.action, got, want)
            checked += 1
    assert checked >= 20


def _engine_play_out(seed: int, until_bag: int, cand_index: int, expert: ExpertPlayer):
    """The same play-out as the expert's, played by the engine: the candidate, then each
    side's best static-equity play (or a pass) until the game is over. Returns the
    change in the mover's lead and the final lead, or None if the game is not over."""
    game = _greedy_game(seed, until_bag)
    me = game.turn
    view = game.view(me)
    cand = distinct(candidates(view, expert.table), 6)[cand_index]
    before = game.scores[me] - game.scores[1 - me]
    game.play(to_play(cand.raw[2], cand.raw[3]) if cand.raw is not None else cand.action)
    for _ in range(2 * expert.end_rounds - 1):
        if game.is_over:
            break
        seat = game.turn
        rack = game.racks[seat]
        held_by_other = sum(t.penalty for t in game.racks[1 - seat])
        bag = len(game.bags[0])
        _, raw = best_static(game.board, rack, bag, game.rules, expert.table,
                             0 if bag else held_by_other)
        game.play(to_play(raw[2], raw[3]) if raw is not None else Pass())
    if not game.is_over:
        return None
    final = game.final_scores[me] - game.final_scores[1 - me]
    return final - before, final


def test_near_the_end_the_play_out_ends_the_game_as_the_engine_does() -> None:
    """Play-outs that reach the end: rack penalties and the end itself (going out, or
    passes with an empty bag) agree with the engine playing the same moves; a won game
    adds the bonus, a lost one takes it off."""
    expert = ExpertPlayer(1, win_bonus=7.0)
    checked = 0
    for seed in range(12):
        game = _greedy_game(seed, 3)
        if game.is_over:
            continue
        me = game.turn
        view = game.view(me)
        expert._lead = game.scores[me] - game.scores[1 - me]
        expert._rounds = expert.end_rounds
        options = distinct(candidates(view, expert.table), 6)
        for i, cand in enumerate(options):
            if cand.raw is None:
                continue
            engine = _engine_play_out(seed, 3, i, expert)
            if engine is None:
                continue
            change, final = engine
            racks, bag = _true_draws(game)
            got = expert._playout(view.position, cand, racks, bag, [1 - me])
            bonus = 7.0 if final > 0 else -7.0 if final < 0 else 0.0
            assert got == change + bonus, (seed, i, got, change, final)
            checked += 1
    assert checked >= 10


def test_the_play_outs_go_to_the_end_only_near_the_end() -> None:
    """The depth and the lead are the position's, however the simulation is reached."""
    expert = quick_expert(near_end=7)
    for until_bag, deep in ((25, False), (6, True)):
        game = _greedy_game(3, until_bag)
        view = game.view(game.turn)
        assert (view.position.bag or 0) <= 7 if deep else view.position.bag > 7
        expert.simulate(view, distinct(candidates(view, expert.table), 3), float("inf"))
        assert expert._rounds == (expert.end_rounds if deep else expert.rounds)
        me = game.turn
        assert expert._lead == game.scores[me] - game.scores[1 - me]
