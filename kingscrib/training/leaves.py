"""Learning the Kings leave values by self-play (``kingscrib train-leaves``).

The table is :class:`~kingscrib.players.kings.leaves.LeaveTable`: linear weights of a
leave's features and a correction per multiset of ranks kept. For every turn after
which the player draws, the points that player scores on their next turn are regressed
on the features of what they kept.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from kingscrib.common.backends import run_parallel
from kingscrib.players.kings.base import ComputerPlayer
from kingscrib.players.kings.leaves import LeaveTable, features, ranks_key, shipped_path

# One game's samples: the features of a leave, the points of the next turn, its ranks.
Sample = tuple[list[float], float, str]
SHRINK = 30.0  # a rank multiset's correction counts fully after many more samples than this


def samples_from_game(args: tuple[int, str, LeaveTable | None]) -> list[Sample]:
    """Play one self-play game (greedy players without a table, else equity players
    valuing leaves by it) and return its (features, next-turn points, ranks) samples."""
    seed, _player_name, table = args
    from kingscrib.players.kings.driver import play_game
    from kingscrib.players.kings.equity import EquityPlayer
    from kingscrib.players.kings.simple import GreedyPlayer

    def make() -> ComputerPlayer:
        if table is None:
            return GreedyPlayer()
        # the leave alone decides: it is what is learned, and it is fast
        return EquityPlayer(table, defence=0.0)

    game = play_game([make(), make()], seed=seed)
    samples: list[Sample] = []
    history = game.history
    for i, turn in enumerate(history):
        if not turn.drew:
            continue  # the bag was empty: the leave is not refilled, not what we learn
        if turn.action == "play":
            kept = list(turn.rack)
            for t in turn.tiles.values():
                kept.remove(t.held())
        elif turn.action == "exchange":
            kept = list(turn.rack)
            for t in turn.returned:
                kept.remove(t)
        else:
            continue
        nxt = next((t for t in history[i + 1:] if t.player == turn.player), None)
        if nxt is None:
            continue
        kept.sort()
        samples.append((features([t.rank for t in kept], [t.colour for t in kept]),
                        float(nxt.score), ranks_key(t.rank for t in kept)))
    return samples


def least_squares(rows: list[list[float]], ys: list[float], ridge: float = 1.0) -> list[float]:
    """Least squares with an intercept (first weight, dropped from the result) and a small
    ridge, by the normal equations and Gaussian elimination."""
    n = len(rows[0]) + 1
    a = [[0.0] * n for _ in range(n)]
    b = [0.0] * n
    for row, y in zip(rows, ys):
        x = [1.0] + row
        for i in range(n):
            xi = x[i]
            if xi:
                b[i] += xi * y
                ai = a[i]
                for j in range(n):
                    ai[j] += xi * x[j]
    for i in range(1, n):
        a[i][i] += ridge
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        b[col], b[pivot] = b[pivot], b[col]
        p = a[col][col]
        if abs(p) < 1e-12:
            continue
        for r in range(n):
            if r != col and a[r][col]:
                f = a[r][col] / p
                ar, ac = a[r], a[col]
                for j in range(col, n):
                    ar[j] -= f * ac[j]
                b[r] -= f * b[col]
    w = [b[i] / a[i][i] if abs(a[i][i]) > 1e-12 else 0.0 for i in range(n)]
    return w[1:]


def train(games: int = 2000, seed: int = 1, rounds: int = 2, workers: int | None = None,
          progress: Any = None) -> LeaveTable:
    """Learn leave values by self-play: round 1 from greedy games, each later round from
    games between equity players using the previous round's table. Each round fits the
    linear weights by least squares, then a correction per multiset of ranks kept: the
    mean residual, shrunk towards 0 (``n / (n + SHRINK)``). Reproducible: game seeds
    come from ``seed`` and samples are gathered in game order."""
    table: LeaveTable | None = None
    rng = random.Random(seed)
    total_samples = 0
    for rnd in range(rounds):
        seeds = [rng.randrange(2**31) for _ in range(games)]
        results = run_parallel(samples_from_game, [(s, "self", table) for s in seeds],
                               workers=workers, progress=progress,
                               description=f"leaves round {rnd + 1}/{rounds}")
        rows: list[list[float]] = []
        ys: list[float] = []
        keys: list[str] = []
        for samples in results:
            for f, y, k in samples:
                rows.append(f)
                ys.append(y)
                keys.append(k)
        weights = least_squares(rows, ys)
        intercept = sum(ys) / len(ys) - sum(
            sum(w * x for w, x in zip(weights, row)) for row in rows) / len(ys)
        sums: dict[str, list[float]] = {}
        for row, y, k in zip(rows, ys, keys):
            residual = y - intercept - sum(w * x for w, x in zip(weights, row))
            acc = sums.setdefault(k, [0.0, 0.0])
            acc[0] += residual
            acc[1] += 1
        corrections = tuple(sorted((k, total / (n + SHRINK)) for k, (total, n) in sums.items()
                                   if k and abs(total / (n + SHRINK)) >= 0.05))
        table = LeaveTable(tuple(weights), {}, corrections)
        total_samples = len(ys)
    if table is None:
        raise ValueError("train at least one round")
    meta = {"trained": True, "games_per_round": games, "rounds": rounds, "seed": seed,
            "samples_last_round": total_samples,
            "command": f"kingscrib train-leaves --games {games} --rounds {rounds} --seed {seed}"}
    return LeaveTable(table.weights, meta, table.corrections)


def write(table: LeaveTable, path: Path | None = None) -> Path:
    """Write ``table`` where the players load it from (or to ``path``); returns where."""
    path = path or shipped_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(table.to_json(), indent=1) + "\n")
    return path


__all__ = ["SHRINK", "Sample", "least_squares", "samples_from_game", "train", "write"]
