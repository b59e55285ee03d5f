"""Classic six-card Cribbage for 2, 3 or 4 players (RULES.md Part 2).

>>> from kingscrib.classic import Card, score_show
>>> score_show([Card.parse(c) for c in "5H 5S 5C JD".split()], Card.parse("5D")).total
29
"""

from kingscrib.classic.cards import Card, deck, parse_cards
from kingscrib.classic.game import Claim, ClassicGame, Discard, Play
from kingscrib.classic.rules import RuleSet
from kingscrib.classic.show import ShowScore, score_show

__all__ = [
    "Card",
    "Claim",
    "ClassicGame",
    "Discard",
    "Play",
    "RuleSet",
    "ShowScore",
    "deck",
    "parse_cards",
    "score_show",
]
