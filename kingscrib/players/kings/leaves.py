"""Leave values: what the tiles kept on the rack after a turn are worth, in points.

A leave's value is a linear function of a few features of the kept tiles (how many of
each rank, pairs, fifteens within the leave, neighbouring ranks, how many tiles are
kept). The weights are learned by self-play (:func:`kingscrib.training.leaves.train`):
for every turn after which the player draws, the points that player scores on their
next turn are regressed on the features of what they kept. The weights ship in
``data/leaves.json``; ``kingscrib train-leaves`` rebuilds that file reproducibly.
"""

from __future__ import annotations

import json
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
LeaveKey = tuple[tuple[int, str], ...]  # a leave as sorted (held rank, colour) pairs
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
    _cache: dict[LeaveKey, float] = field(default_factory=dict, compare=False, repr=False)
    _corrections: dict[str, float] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_corrections", dict(self.corrections))

    def value(self, leave: Iterable[Tile]) -> float:
        tiles = sorted(t.held() for t in leave)
        return self.value_key(tuple((t.rank, t.colour) for t in tiles))

    def value_key(self, key: LeaveKey) -> float:
        """The value of a leave given as sorted (held rank, colour) pairs."""
        v = self._cache.get(key)
        if v is None:
            v = self._cache[key] = _value(self.weights, self._corrections, key)
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


def _value(weights: tuple[float, ...], corrections: dict[str, float], key: LeaveKey) -> float:
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


__all__ = ["DATA_FILE", "FORMAT", "HELD_RANKS", "LeaveKey", "LeaveTable", "feature_names", "features",
           "ranks_key", "shipped", "shipped_path"]
