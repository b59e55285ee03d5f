"""Honest baselines for the arena: rules of one line over the environments' action indexes.

- ``uniform`` (Kings): any legal action, uniformly: every legal play, every different
  exchange the bag allows and the pass (Cribbage's ``random`` player is already uniform
  over its legal actions, so it is that game's uniform baseline);
- ``lowest-index``: the legal action with the lowest index in the environments'
  encoding (``cribbage_v1``: a card's number, then the pairs in the order of
  ``itertools.combinations``, then Go; ``kings_v1``: pass, then the exchanges, then the
  plays): in Kings that is a pass whenever one is allowed;
- ``index-32`` (Kings): the legal action of index 32 (the first play in the canonical
  order, a best-scoring play), else the lowest legal index.

They decide from the seat's view alone, as any player does; the tests compare their
choices with the environments' masks.
"""

from __future__ import annotations

import random
from itertools import combinations

from kingscrib.classic.game import Action as ClassicAction
from kingscrib.classic.game import Claim, Discard, Go, Play
from kingscrib.classic.game import PlayerView as ClassicView
from kingscrib.kings.fastgen import legal_plays
from kingscrib.kings.game import PlayerView as KingsView
from kingscrib.kings.moves import Action as KingsAction
from kingscrib.kings.moves import Exchange, Pass
from kingscrib.kings.rules import EXCHANGE_WHEN_STUCK
from kingscrib.players.classic.base import perfect_claim
from kingscrib.players.kings.base import ComputerPlayer

RACK_SIZE = 5


def cribbage_index_key(action: ClassicAction) -> tuple[int, ...]:
    """Sorts the actions as ``cribbage_v1``'s indexes do (a card 0-51, a pair of cards
    52-1377 in ``combinations`` order, Go 1378, a claim 1379-1408)."""
    if isinstance(action, Play):
        return (0, action.card.number)
    if isinstance(action, Discard):
        numbers = sorted(c.number for c in action.cards)
        return (0, numbers[0]) if len(numbers) == 1 else (1, *numbers)
    if isinstance(action, Go):
        return (2,)
    assert isinstance(action, Claim)
    return (3, action.points)


class CribbageLowestIndex:
    """The legal action of lowest index; claims (muggins) counted perfectly."""

    name = "lowest-index"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, view: ClassicView) -> ClassicAction:
        if view.phase == "show":
            return perfect_claim(view)
        return min(view.legal, key=cribbage_index_key)


def kings_exchanges(view: KingsView) -> list[Exchange]:
    """Every different exchange the seat may make, in ``kings_v1``'s index order (the
    set bits of the index are positions in the sorted rack), one of each multiset."""
    p = view.position
    rack = sorted(p.rack)
    bag = p.bag or 0
    seen: set[tuple[object, ...]] = set()
    out: list[tuple[int, Exchange]] = []
    for size in range(1, len(rack) + 1):
        if size > bag:
            break
        for positions in combinations(range(len(rack)), size):
            tiles = tuple(rack[i] for i in positions)
            if tiles in seen:
                continue
            seen.add(tiles)
            out.append((sum(1 << i for i in positions), Exchange.of(list(tiles))))
    return [e for _, e in sorted(out, key=lambda x: x[0])]


def kings_legal(view: KingsView) -> tuple[list[KingsAction], list[KingsAction]]:
    """The seat's (pass and exchanges in index order, plays in canonical order)."""
    p = view.position
    plays: list[KingsAction] = [s.play for s in legal_plays(p.board, p.rack, p.rules)]
    if p.rules.exchange == EXCHANGE_WHEN_STUCK and plays:
        return [], plays
    return [Pass(), *kings_exchanges(view)], plays


class KingsUniform(ComputerPlayer):
    """Any legal action, uniformly (plays, different exchanges and the pass alike)."""

    name = "uniform"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: KingsView) -> KingsAction:
        others, plays = kings_legal(view)
        return self.rng.choice(others + plays)


class KingsLowestIndex(ComputerPlayer):
    """The legal action of lowest index: a pass whenever one is allowed."""

    name = "lowest-index"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, view: KingsView) -> KingsAction:
        others, plays = kings_legal(view)
        return (others or plays)[0]


class KingsIndex32(ComputerPlayer):
    """Index 32 when legal (the first play in canonical order), else the lowest index."""

    name = "index-32"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, view: KingsView) -> KingsAction:
        p = view.position
        plays = legal_plays(p.board, p.rack, p.rules)
        if plays:
            return plays[0].play
        others, _ = kings_legal(view)
        return others[0]


__all__ = ["CribbageLowestIndex", "KingsIndex32", "KingsLowestIndex", "KingsUniform",
           "cribbage_index_key", "kings_exchanges", "kings_legal"]
