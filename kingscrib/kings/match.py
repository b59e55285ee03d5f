"""A match of several Kings Cribbage games: totals carried, the Servant on the totals.

>>> m = Match(["Ann", "Bob"], games=2, rules=RuleSet(servant=True), seed=7)
>>> game = m.new_game()
>>> game.seed
7
>>> m.add_result([40, 52]); m.totals, m.servant, m.is_over
([40, 52], 0, False)
>>> m.add_result([70, 30]); m.totals, m.winners(), m.is_over
([110, 82], [0], True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from kingscrib.kings.game import Game
from kingscrib.kings.rules import RuleSet


@dataclass
class Match:
    """``games`` games between the same seats; each game's final scores add to the totals.

    Game ``i`` (from 0) is played with seed ``seed + i``. Under the servant rule the
    lowest total after each game is named the Servant (a tie keeps the current one, else
    the first such seat).
    """

    names: list[str]
    games: int = 1
    rules: RuleSet = field(default_factory=RuleSet)
    seed: int | None = None
    results: list[list[int]] = field(default_factory=list)
    servant: int | None = None

    def __post_init__(self) -> None:
        if self.games < 1:
            raise ValueError("a match has at least one game")
        if self.seed is None:
            self.seed = random.randrange(2**31)

    @property
    def played(self) -> int:
        return len(self.results)

    @property
    def is_over(self) -> bool:
        return self.played >= self.games

    @property
    def totals(self) -> list[int]:
        totals = [0] * len(self.names)
        for result in self.results:
            totals = [a + b for a, b in zip(totals, result)]
        return totals

    def game_seed(self, index: int | None = None) -> int:
        assert self.seed is not None
        return self.seed + (self.played if index is None else index)

    def new_game(self) -> Game:
        """The next game of the match."""
        if self.is_over:
            raise ValueError("the match is over")
        return Game.new(self.names, self.rules, seed=self.game_seed())

    def add_result(self, final_scores: Sequence[int]) -> None:
        """Count a finished game; names the Servant on the new totals under the rule."""
        if len(final_scores) != len(self.names):
            raise ValueError("one score per seat")
        self.results.append(list(final_scores))
        if self.rules.servant:
            totals = self.totals
            low = min(totals)
            tied = [s for s, t in enumerate(totals) if t == low]
            if self.servant not in tied:
                self.servant = tied[0]

    def winners(self) -> list[int]:
        totals = self.totals
        return [s for s, t in enumerate(totals) if t == max(totals)]

    def to_json(self) -> dict[str, Any]:
        return {"names": list(self.names), "games": self.games, "rules": self.rules.to_json(),
                "seed": self.seed, "results": [list(r) for r in self.results],
                "servant": self.servant}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Match:
        return cls(names=[str(n) for n in data["names"]], games=int(data["games"]),
                   rules=RuleSet.from_json(data.get("rules")), seed=data.get("seed"),
                   results=[list(map(int, r)) for r in data.get("results", [])],
                   servant=data.get("servant"))
