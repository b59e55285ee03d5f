"""The computer players: legal actions, no peeking, reproducibility, the tools."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from click.testing import CliRunner

from kingscrib.arena.kings import jobs_for, match, summarise
from kingscrib.kings.game import Game
from kingscrib.kings.moves import Exchange, Pass, Play
from kingscrib.kings.rules import RuleSet
from kingscrib.players.kings import PLAYERS, make_player
from kingscrib.players.kings.defence import DEFENCE_WEIGHT
from kingscrib.players.kings.driver import play_game, take_turn
from kingscrib.players.kings.equity import EquityPlayer, candidates
from kingscrib.players.kings.leaves import LeaveTable, features, shipped
from kingscrib.players.kings.sim import SimPlayer
from kingscrib.training.leaves import train


def quick_sim(seed: int = 1) -> SimPlayer:
    # A fixed number of iterations and a generous clock: reproducible whatever the load.
    return SimPlayer(seed, time_budget=60.0, candidates=4, max_iterations=3, min_iterations=3)


def test_registry_has_every_engine_and_level() -> None:
    for name in ("random", "greedy", "equity", "sim", "easy", "medium", "hard", "expert"):
        assert name in PLAYERS
        assert make_player(name, 1).choose  # builds
    with pytest.raises(ValueError, match="unknown player"):
        make_player("nobody")


@pytest.mark.parametrize("names", [("equity", "greedy"), ("easy", "random"),
                                   ("hard", "medium", "equity")])
def test_players_finish_games_with_legal_actions(names) -> None:
    game = play_game([make_player(n, 3) for n in names], seed=5)
    assert game.is_over
    kinds = Counter(t.action for t in game.history)
    assert kinds["play"] > 0


def test_sim_and_endgame_play_a_whole_game() -> None:
    game = Game.new(2, seed=8)
    players = [quick_sim(2), EquityPlayer()]
    while not game.is_over:
        take_turn(game, players)  # Game.play refuses anything illegal
    assert game.is_over


def test_equity_choice_depends_only_on_what_the_seat_may_see() -> None:
    """Same board, rack and unseen tiles, but other racks and bag order differ."""
    game = Game.new(2, seed=21)
    players = [make_player("greedy"), make_player("greedy")]
    for _ in range(6):
        take_turn(game, players)
    seat = game.turn
    twin = Game.new(2, seed=21)
    for turn in game.history:
        twin.play(Play.of(turn.tiles) if turn.action == "play" else
                  Exchange.of(turn.returned) if turn.action == "exchange" else Pass())
    # shuffle what the seat cannot see: the other rack and the bag, together
    other = 1 - seat
    pool = twin.racks[other] + twin.bags[0]
    pool.reverse()
    twin.racks[other] = pool[:len(twin.racks[other])]
    twin.bags[0] = pool[len(twin.racks[other]):]
    assert game.view(seat).unseen == twin.view(seat).unseen
    for make in (EquityPlayer, quick_sim):
        assert make().choose(game.view(seat)) == make().choose(twin.view(seat))


def test_exchange_is_considered_and_valued() -> None:
    game = Game.new(2, seed=3)
    options = candidates(game.view(), shipped())
    kinds = {type(c.action) for c in options if c.raw is None}
    assert Exchange in kinds
    assert options == sorted(options, key=lambda c: (-c.equity, c.order))


def test_when_stuck_rule_forbids_exchanges_with_a_play() -> None:
    game = Game.new(2, rules=RuleSet(exchange="when-stuck"), seed=3)
    assert all(c.raw is not None for c in candidates(game.view(), shipped()))


def test_shipped_leave_table_is_trained() -> None:
    table = shipped()
    assert table.meta.get("trained") is True
    assert len(table.weights) == len(features([5]))


def test_leave_training_is_reproducible() -> None:
    a = train(games=12, seed=4, rounds=1, workers=1)
    b = train(games=12, seed=4, rounds=1, workers=1)
    assert a.weights == b.weights
    assert isinstance(a, LeaveTable)


def test_mirrored_pairs_share_seeds_and_swap_seats() -> None:
    jobs = jobs_for("equity", "greedy", 3, seed=9)
    assert len(jobs) == 6
    for first, second in zip(jobs[::2], jobs[1::2]):
        assert first[2] == second[2]
        assert set(first[4]) | set(second[4]) == {0, 1}
        assert not set(first[4]) & set(second[4])


def test_tournament_summary_counts() -> None:
    result = match("greedy", "random", pairs=2, seed=1, workers=1)
    assert result["games"] == 4
    assert result["a_wins"] + result["b_wins"] + result["draws"] == 4
    lo, hi = result["ci95"]
    assert 0.0 <= lo <= result["a_win_rate"] <= hi <= 1.0
    again = match("greedy", "random", pairs=2, seed=1, workers=2)
    assert again == result
    assert summarise("a", "b", [], 0)["games"] == 0


def test_tournament_command_json() -> None:
    from kingscrib.cli.main import _register, cli

    _register()
    out = CliRunner().invoke(cli, ["tournament", "--a", "greedy", "--b", "random",
                                   "--pairs", "1", "--workers", "1", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output.strip().splitlines()[-1])
    assert {"a_wins", "b_wins", "draws", "a_win_rate", "ci95", "mean_spread",
            "first_player_win_rate"} <= set(data)
    bad = CliRunner().invoke(cli, ["tournament", "--a", "nobody", "--b", "greedy"])
    assert bad.exit_code != 0 and "unknown player" in bad.output


def test_analyze_position_and_record(tmp_path) -> None:
    from kingscrib.cli.main import _register, cli

    _register()
    position = json.dumps({"board": {"G7": "8L", "H7": "7D"},
                           "rack": ["7L", "6D", "AL", "KD", "4L"], "bag": 60})
    out = CliRunner().invoke(cli, ["analyze", position, "--top", "3", "--json"])
    assert out.exit_code == 0, out.output
    rows = json.loads(out.output)
    assert len(rows) == 3 and rows[0]["score"] == 16
    # equity = score + leave - the defence's share of the next player's expected reply
    assert all(abs(r["equity"] - (r["score"] + r["leave"] - DEFENCE_WEIGHT * r["reply"])) < 0.03
               for r in rows)
    assert rows == sorted(rows, key=lambda r: -r["equity"])

    game = play_game([make_player("greedy"), make_player("random", 4)], seed=12)
    record = tmp_path / "g.json"
    record.write_text(json.dumps(game.to_record()))
    out = CliRunner().invoke(cli, ["analyze", str(record), "--json"])
    assert out.exit_code == 0, out.output
    rows = json.loads(out.output)
    assert len(rows) == len(game.history)
    # greedy always took the top score, so it never gave points up
    assert all(r.get("points_lost", 0) == 0 for r in rows if r["player"] == 0)
    assert any(r.get("points_lost", 0) > 0 for r in rows if r["player"] == 1)
    bad = CliRunner().invoke(cli, ["analyze", "{not json"])
    assert bad.exit_code != 0
