"""Leave values: what the tiles kept on the rack after a turn are worth, in points.

A leave's value is a linear function of a few features of the kept tiles (how many of
each rank, pairs, fifteens within the leave, neighbouring ranks, how many tiles are
kept). The weights are learned by self-play (:func:`train`): for every turn after
which the player draws, the points that player scores on their next turn are
regressed on the features of what they kept. The weights ship in
``data/leaves.json``; ``kingscrib train-leaves`` rebuilds that file reproducibly.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from kingscrib.counting import card_points
from kingscrib.kings.tiles import NINE, SIX, Tile

HELD_RANKS = [r for r in range(1, 14) if r != NINE]  # 6 stands for the 6/9 tile
FORMAT = "kingscrib-leaves/1"
DATA_FILE = "leaves.json"


def feature_names() -> list[str]:
    names = [f"count_{r}" for r in HELD_RANKS]
    names += [f"pair_{r}" for r in HELD_RANKS]
    names += ["fifteen_pairs", "neighbours", "same_colour", "size_1", "size_2", "size_3",
              "size_4"]
    return names


def features(ranks: Sequence[int], colours: Sequence[str] = ()) -> list[float]:
    """The features of a leave given as held ranks (6 for a 6/9 tile) and colours."""
    counts = {r: 0 for r in HELD_RANKS}
    for r in ranks:
        counts[SIX if r == NINE else r] += 1
    out: list[float] = [float(counts[r]) for r in HELD_RANKS]
    out += [1.0 if counts[r] >= 2 else 0.0 for r in HELD_RANKS]
    fifteens = 0
    rs = list(ranks)
    for i in range(len(rs)):
        for j in range(i + 1, len(rs)):
            a, b = rs[i], rs[j]
            if card_points(a) + card_points(b) == 15 or (a == SIX and b == SIX):  # a 6/9 pair: 6 + 9
                fifteens += 1
    out.append(float(fifteens))
    present = {SIX if r == NINE else r for r in ranks}
    if SIX in present:
        present.add(NINE)
    out.append(float(sum(1 for r in present if r + 1 in present)))
    out.append(1.0 if len(colours) >= 2 and len(set(colours)) == 1 else 0.0)
    out += [1.0 if len(rs) == k else 0.0 for k in (1, 2, 3, 4)]
    return out


@dataclass(frozen=True)
class LeaveTable:
    """Weights of the leave features; :meth:`value` gives a leave's worth in points."""

    weights: tuple[float, ...]
    meta: dict[str, Any]
    # corrections by the ranks kept (e.g. "55J"): what the linear model missed, shrunk
    corrections: tuple[tuple[str, float], ...] = ()
    _cache: dict = field(default_factory=dict, compare=False, repr=False)

    def value(self, leave: Iterable[Tile]) -> float:
        tiles = sorted(t.held() for t in leave)
        return self.value_key(tuple((t.rank, t.colour) for t in tiles))

    def value_key(self, key: tuple[tuple[int, str], ...]) -> float:
        """The value of a leave given as sorted (held rank, colour) pairs."""
        v = self._cache.get(key)
        if v is None:
            if not self._cache:
                self._cache[None] = dict(self.corrections)
            v = self._cache[key] = _value(self.weights, self._cache[None], key)
        return v

    def __reduce__(self) -> tuple[Any, ...]:
        # The shipped table goes to another process by name, not with its cache of
        # leaves seen (megabytes in a long-running server): that process has its own.
        if self is shipped():
            return (shipped, ())
        return (LeaveTable, (self.weights, self.meta, self.corrections))

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "features": feature_names(),
                "weights": [round(w, 4) for w in self.weights],
                "corrections": {k: round(v, 3) for k, v in self.corrections},
                "meta": self.meta}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LeaveTable:
        if data.get("format") != FORMAT or data.get("features") != feature_names():
            raise ValueError(f"not a {FORMAT} leave table with the current features")
        corrections = tuple(sorted((str(k), float(v))
                                   for k, v in data.get("corrections", {}).items()))
        return cls(tuple(float(w) for w in data["weights"]), dict(data.get("meta", {})),
                   corrections)

    @classmethod
    def zero(cls) -> LeaveTable:
        return cls(tuple(0.0 for _ in feature_names()), {"trained": False})


def ranks_key(ranks: Iterable[int]) -> str:
    """The ranks of a leave as sorted rank characters (6 for a 6/9 tile): ``55J``."""
    from kingscrib.counting import rank_char

    return "".join(rank_char(r) for r in sorted(SIX if r == NINE else r for r in ranks))


def _value(weights: tuple[float, ...], corrections: dict[str, float],
           key: tuple[tuple[int, str], ...]) -> float:
    if not key:
        return 0.0
    f = features([r for r, _ in key], [c for _, c in key])
    return sum(w * x for w, x in zip(weights, f)) + corrections.get(ranks_key(r for r, _ in key),
                                                                    0.0)


@lru_cache(maxsize=1)
def shipped() -> LeaveTable:
    """The leave table shipped with the package (zero weights if it is missing)."""
    try:
        text = resources.files("kingscrib.players.kings").joinpath("data", DATA_FILE).read_text()
    except (FileNotFoundError, OSError):
        return LeaveTable.zero()
    return LeaveTable.from_json(json.loads(text))


def shipped_path() -> Path:
    return Path(__file__).parent / "data" / DATA_FILE


# ----- training ---------------------------------------------------------------
def _samples_from_game(args: tuple[int, str, tuple[float, ...] | None]) -> list[tuple]:
    """Play one self-play game and return (features, next-turn points) samples."""
    seed, player_name, table = args
    from kingscrib.players.kings.driver import play_game
    from kingscrib.players.kings.equity import EquityPlayer

    def make() -> Any:
        if table is None:
            from kingscrib.players.kings.simple import GreedyPlayer

            return GreedyPlayer()
        # the leave alone decides: it is what is learned, and it is fast
        return EquityPlayer(table, defence=0.0)

    game = play_game([make(), make()], seed=seed)
    samples = []
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


def _solve(rows: list[list[float]], ys: list[float], ridge: float = 1.0) -> list[float]:
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


SHRINK = 30.0  # a rank multiset's correction counts fully after many more samples than this


def train(games: int = 2000, seed: int = 1, rounds: int = 2, workers: int | None = None,
          progress: Any = None) -> LeaveTable:
    """Learn leave values by self-play: round 1 from greedy games, each later round from
    games between equity players using the previous round's table. Each round fits the
    linear weights by least squares, then a correction per multiset of ranks kept: the
    mean residual, shrunk towards 0 (``n / (n + SHRINK)``). Reproducible: game seeds
    come from ``seed`` and samples are gathered in game order."""
    from kingscrib.players.kings.parallel import run_parallel

    table: LeaveTable | None = None
    rng = random.Random(seed)
    total_samples = 0
    for rnd in range(rounds):
        seeds = [rng.randrange(2**31) for _ in range(games)]
        results = run_parallel(_samples_from_game, [(s, "self", table) for s in seeds],
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
        weights = _solve(rows, ys)
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
    assert table is not None
    meta = {"trained": True, "games_per_round": games, "rounds": rounds, "seed": seed,
            "samples_last_round": total_samples,
            "command": f"kingscrib train-leaves --games {games} --rounds {rounds} --seed {seed}"}
    return LeaveTable(table.weights, meta, table.corrections)
