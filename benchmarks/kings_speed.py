"""Kings Cribbage move generation and self-play speed: medians and ratios.

    python benchmarks/kings_speed.py            # full run
    python benchmarks/kings_speed.py --quick    # a smaller sample
    python benchmarks/kings_speed.py --python   # the pure-Python fallback

Measures, on one core:
- all legal plays of mid-game positions (turns 10-30 of greedy self-play games) with the
  fast generator (cold: its caches cleared before every call; warm: a second call), the
  reference generator, and a brute-force generator (every ordered choice of rack tiles
  and faces laid from every square in both directions, each checked by the rules);
- the first play on an empty board (rack 5 5 5 J T: 40,542 plays);
- greedy-vs-greedy self-play, full games per second;
- a play-out reply (the best play by score + leave, bag not empty) on the mid-game
  positions, as ``sim`` finds it (every play built, each leave valued in Python) and as
  the expert does (the C core's best-equity mode); both must find the same play;
- the equity player's time per move in equity-v-equity games, with the defence's best
  replies found by the best-score mode and, for comparison, by building every play and
  taking the top score (the old path); both must choose the same actions.
Both wall-clock and CPU (process) time are shown; CPU time is the fairer figure on a
shared machine.
"""

from __future__ import annotations

import argparse
import statistics
import time
from itertools import permutations, product

from kingscrib.kings import fastgen, movegen
from kingscrib.kings.board import ACROSS, DIRECTIONS, PLAYABLE, step
from kingscrib.kings.game import Game
from kingscrib.kings.moves import Play
from kingscrib.kings.play import check_play
from kingscrib.kings.rules import RuleSet
from kingscrib.kings.tiles import parse_tiles
from kingscrib.players.kings import make_player
from kingscrib.players.kings.driver import play_game
from kingscrib.players.kings.equity import best_static, best_static_native
from kingscrib.players.kings.leaves import shipped


def brute_force(board, rack, rules=None):
    """Every legal play by trying every placement: the obviously-correct slow way."""
    rules = rules or RuleSet()
    held = [t.held() for t in rack]
    found = {}
    for k in range(1, len(held) + 1):
        orders = set(permutations(held, k))
        faced = {f for o in orders for f in product(*[t.faces() for t in o])}
        for start in sorted(PLAYABLE):
            if start in board:
                continue
            for d in DIRECTIONS:
                if k == 1 and d != ACROSS:
                    continue
                squares, s = [], start
                while s is not None and len(squares) < k:
                    if s not in board:
                        squares.append(s)
                    s = step(s, d)
                if len(squares) < k:
                    continue
                for faces in faced:
                    placed = dict(zip(squares, faces))
                    try:
                        score = check_play(board, placed, rules)
                    except ValueError:
                        continue
                    found[Play.of(placed)] = score.total
    return found


def positions(games: int) -> list[tuple[dict, list]]:
    out = []
    for seed in range(games):
        game = Game.new(2, seed=1000 + seed)
        players = [make_player("greedy"), make_player("greedy")]
        while not game.is_over:
            if 10 <= len(game.history) <= 30:
                out.append((dict(game.board), list(game.racks[game.turn])))
            view = game.view()
            game.play(players[game.turn].choose(view))
    return out


def clock(fn, *args):
    w, c = time.perf_counter(), time.process_time()
    result = fn(*args)
    return time.perf_counter() - w, time.process_time() - c, result


def clear_caches() -> None:
    fastgen.rack_info.cache_clear()
    fastgen.orders_of.cache_clear()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--games", type=int, default=None, help="self-play games to time")
    ap.add_argument("--python", action="store_true",
                    help="time the pure-Python path (as if the C core were not built)")
    args = ap.parse_args()
    if args.python:
        fastgen._core = None
    print(f"generator: {'C core' if fastgen._core is not None else 'pure Python'}")
    pos_games = 3 if args.quick else 8
    brute_n = 3 if args.quick else 8
    selfplay = args.games or (10 if args.quick else 60)

    pos = positions(pos_games)
    print(f"mid-game positions: {len(pos)} (turns 10-30 of {pos_games} greedy games)")
    cold_w, cold_c, warm_w, warm_c, ref_c, counts = [], [], [], [], [], []
    for board, rack in pos:
        clear_caches()
        w, c, plays = clock(fastgen.legal_plays, board, rack)
        cold_w.append(w)
        cold_c.append(c)
        w, c, _ = clock(fastgen.legal_plays, board, rack)
        warm_w.append(w)
        warm_c.append(c)
        counts.append(len(plays))
    for board, rack in pos[:: max(1, len(pos) // 12)]:
        ref_c.append(clock(movegen.legal_plays, board, rack)[1])
    ms = 1000.0
    print(f"  plays per position, median: {statistics.median(counts):.0f}")
    print(f"  fastgen cold  median {statistics.median(cold_c) * ms:7.2f} ms CPU"
          f" ({statistics.median(cold_w) * ms:.2f} ms wall)")
    print(f"  fastgen warm  median {statistics.median(warm_c) * ms:7.2f} ms CPU"
          f" ({statistics.median(warm_w) * ms:.2f} ms wall)")
    print(f"  reference     median {statistics.median(ref_c) * ms:7.2f} ms CPU"
          f" ({len(ref_c)} positions)")

    ratios = []
    for board, rack in pos[:: max(1, len(pos) // brute_n)][:brute_n]:
        _, slow, found = clock(brute_force, board, rack)
        clear_caches()
        _, fast, plays = clock(fastgen.legal_plays, board, rack)
        assert found == {p.play: p.total for p in plays}, "brute force disagrees"
        ratios.append(slow / fast)
    print(f"  brute force / fastgen (cold), median over {len(ratios)} positions:"
          f" {statistics.median(ratios):.0f}x")

    if fastgen._core is not None:
        table = shipped()
        full_c, native_c = [], []
        for board, rack in pos:  # warm the leave caches first, as in a game under way
            best_static_native(board, rack, 30, RuleSet(), table)
            best_static(board, rack, 30, RuleSet(), table)
        for board, rack in pos:
            rules = RuleSet()
            _, c, want = clock(best_static, board, rack, 30, rules, table)
            full_c.append(c)
            _, c, got = clock(best_static_native, board, rack, 30, rules, table)
            native_c.append(c)
            assert got == want, "the best-equity mode found another play"
        full, native = statistics.median(full_c), statistics.median(native_c)
        print(f"  play-out reply (best by score + leave), median over {len(pos)} positions:"
              f" every play built {full * ms:.3f} ms CPU (caches warm), best-equity mode {native * ms:.3f} ms"
              f" ({full / native:.1f}x); same plays")

    rack = parse_tiles("5L 5D 5L JD TL")
    clear_caches()
    w, c, plays = clock(fastgen.legal_plays, {}, rack)
    _, c1, seqs = clock(fastgen.generate, {}, rack, RuleSet(), True)
    print(f"first play, rack 5 5 5 J T: {len(plays)} plays, all listed in {c * ms:.0f} ms CPU;"
          f" one per tile sequence ({len(seqs)}, what the players use) in {c1 * ms:.1f} ms CPU")

    w0, c0 = time.perf_counter(), time.process_time()
    turns = 0
    for seed in range(selfplay):
        g = play_game([make_player("greedy"), make_player("greedy")], seed=seed)
        turns += len(g.history)
    w, c = time.perf_counter() - w0, time.process_time() - c0
    print(f"greedy v greedy self-play: {selfplay} games, {turns / selfplay:.1f} turns a game:"
          f" {selfplay / c:.1f} games/s CPU ({selfplay / w:.1f} games/s wall)")

    equity_games = 3 if args.quick else 10
    fast_times, fast_actions = equity_moves(equity_games)
    slow_times, slow_actions = equity_moves(equity_games, full_generator=True)
    assert fast_actions == slow_actions, "the best-score mode changed the equity player's play"
    fast, slow = statistics.median(fast_times), statistics.median(slow_times)
    print(f"equity player, {len(fast_times)} moves of {equity_games} games: median"
          f" {fast * ms:.2f} ms CPU a move (mean {statistics.mean(fast_times) * ms:.2f});"
          f" with every reply built: {slow * ms:.2f} ms ({slow / fast:.1f}x); same actions")


def equity_moves(games: int, full_generator: bool = False) -> tuple[list[float], list[str]]:
    """CPU seconds per equity move and the actions taken, over equity-v-equity games."""
    from kingscrib.players.kings import defence
    from kingscrib.players.kings.equity import EquityPlayer

    saved = defence.best_score
    if full_generator:
        defence.best_score = lambda board, rack, rules: max(
            (r[1] for r in fastgen.generate(board, rack, rules, one_span=True)), default=None)
    times, actions = [], []
    try:
        for seed in range(games):
            game = Game.new(2, seed=seed)
            players = [EquityPlayer(seed=seed), EquityPlayer(seed=seed + 1)]
            while not game.is_over:
                view = game.view()
                c = time.process_time()
                action = players[game.turn].choose(view)
                times.append(time.process_time() - c)
                actions.append(str(action))
                game.play(action)
    finally:
        defence.best_score = saved
    return times, actions


if __name__ == "__main__":
    main()
