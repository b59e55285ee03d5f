"""Scoring the show: a hand of four cards (or the crib) with the starter.

Fifteens, pairs and runs come from :mod:`kingscrib.counting`; flush and nobs
are added here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

from kingscrib.classic.cards import Card
from kingscrib.counting import JACK, count_hand

NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"]


def number_word(n: int) -> str:
    """``6`` -> ``six``; ``24`` -> ``twenty-four``."""
    if n <= 20:
        return NUMBER_WORDS[n]
    tens = {2: "twenty", 3: "thirty"}[n // 10]
    return tens if n % 10 == 0 else f"{tens}-{NUMBER_WORDS[n % 10]}"


@dataclass(frozen=True)
class ShowScore:
    """Points of one hand in the show, by kind."""

    fifteens: int
    pairs: int
    runs: int
    flush: int
    nobs: int
    run_length: int = 0
    run_count: int = 0
    pair_count: int = 0

    @property
    def total(self) -> int:
        return self.fifteens + self.pairs + self.runs + self.flush + self.nobs

    def to_json(self) -> dict[str, int]:
        """``{"total": 29, "fifteens": 16, "pairs": 12, "runs": 0, "flush": 0, "nobs": 1}``."""
        return {
            "total": self.total,
            "fifteens": self.fifteens,
            "pairs": self.pairs,
            "runs": self.runs,
            "flush": self.flush,
            "nobs": self.nobs,
        }

    def explain(self) -> str:
        """How a player says it: ``fifteen two, fifteen four, a pair is six``."""
        parts: list[str] = []
        running = 0
        for _ in range(self.fifteens // 2):
            running += 2
            parts.append(f"fifteen {number_word(running)}")
        # runs with their pairs are said together ("a double run of three is eight")
        if self.runs:
            running += self.runs + self.pairs
            name = {1: "a run", 2: "a double run", 3: "a triple run", 4: "a double double run"}
            word = name.get(self.run_count, f"{self.run_count} runs")
            parts.append(f"{word} of {number_word(self.run_length)} is {number_word(running)}")
        elif self.pairs:
            running += self.pairs
            name = {1: "a pair", 2: "two pairs", 3: "a pair royal", 6: "a double pair royal"}
            word = name.get(self.pair_count, "pairs")
            if self.pair_count == 4:  # three of a kind and a pair
                word = "a pair royal and a pair"
            parts.append(f"{word} is {number_word(running)}")
        if self.flush:
            running += self.flush
            parts.append(f"a flush is {number_word(running)}")
        if self.nobs:
            running += 1
            parts.append(f"one for his nobs is {number_word(running)}")
        if not parts:
            return "nothing (a \"nineteen\")"
        return ", ".join(parts)

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


def score_show(hand: Sequence[Card], starter: Card, crib: bool = False) -> ShowScore:
    """Score four cards with the starter; ``crib=True`` needs a five-card flush.

    >>> from kingscrib.classic.cards import parse_cards
    >>> *h, s = parse_cards("5H 5S 5C JD 5D")
    >>> score_show(h, s).total
    29
    """
    if len(hand) != 4:
        raise ValueError(f"a hand in the show has 4 cards, not {len(hand)}")
    cards = list(hand) + [starter]
    if len(set(cards)) != 5:
        raise ValueError("a card appears twice among the hand and the starter")
    counted = count_hand([c.rank for c in cards])
    suit = hand[0].suit
    flush = 0
    if all(c.suit == suit for c in hand):
        if starter.suit == suit:
            flush = 5
        elif not crib:
            flush = 4
    nobs = 1 if any(c.rank == JACK and c.suit == starter.suit for c in hand) else 0
    return ShowScore(
        fifteens=counted.fifteen_points,
        pairs=counted.pair_points,
        runs=counted.run_points,
        flush=flush,
        nobs=nobs,
        run_length=counted.run_length,
        run_count=counted.runs,
        pair_count=counted.pairs,
    )


@dataclass(frozen=True)
class Combination:
    """One scoring combination of the show: its kind, the cards in it and its points."""

    kind: str  # fifteen, pair, run, flush, nobs
    cards: tuple[Card, ...]
    points: int


def show_combinations(hand: Sequence[Card], starter: Card, crib: bool = False) -> list[Combination]:
    """Every combination a player names in the show, in the order they are said:
    each fifteen, each pair, each run (a double run is two runs), the flush, nobs.
    Their points add up to :func:`score_show`'s total.

    >>> from kingscrib.classic.cards import parse_cards
    >>> *h, s = parse_cards("5H 5S JC QD 4D")
    >>> [(c.kind, c.points) for c in show_combinations(h, s)]
    [('fifteen', 2), ('fifteen', 2), ('fifteen', 2), ('fifteen', 2), ('pair', 2)]
    """
    from itertools import combinations

    score = score_show(hand, starter, crib)
    cards = list(hand) + [starter]
    out: list[Combination] = []
    for k in range(2, 6):
        for combo in combinations(cards, k):
            if sum(c.points for c in combo) == 15:
                out.append(Combination("fifteen", combo, 2))
    for a, b in combinations(cards, 2):
        if a.rank == b.rank:
            out.append(Combination("pair", (a, b), 2))
    for k in (5, 4, 3):
        runs = [
            combo
            for combo in combinations(sorted(cards), k)
            if len({c.rank for c in combo}) == k
            and max(c.rank for c in combo) - min(c.rank for c in combo) == k - 1
        ]
        if runs:
            out.extend(Combination("run", combo, k) for combo in runs)
            break
    if score.flush:
        out.append(Combination("flush", tuple(cards[: score.flush]), score.flush))
    if score.nobs:
        jack = next(c for c in hand if c.rank == JACK and c.suit == starter.suit)
        out.append(Combination("nobs", (jack, starter), 1))
    return out
