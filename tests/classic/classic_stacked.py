"""A game whose first deal is stacked: chosen hands, crib card and starter."""

from __future__ import annotations

import random

from kingscrib.classic.cards import Card, deck, parse_cards
from kingscrib.classic.game import ClassicGame, Discard
from kingscrib.classic.rules import RuleSet


class StackedGame(ClassicGame):
    """``hands`` are given from the left of the dealer round to the dealer."""

    def __init__(self, hands: list[str], starter: str, rules: RuleSet | None = None,
                 crib_card: str | None = None, seed: int = 1) -> None:
        self._stack_hands = [parse_cards(h) for h in hands]
        self._stack_starter = Card.parse(starter)
        self._stack_crib = Card.parse(crib_card) if crib_card else None
        self._stacked = False
        super().__init__(rules or RuleSet(players=len(hands)), seed=seed)

    def _shuffled_pack(self) -> list[Card]:
        if self._stacked:
            pack = deck()
            random.Random(len(self.deals)).shuffle(pack)
            return pack
        self._stacked = True
        hands = self._stack_hands
        order: list[Card] = []
        for i in range(len(hands[0])):
            for h in hands:
                order.append(h[i])
        if self._stack_crib:
            order.append(self._stack_crib)
        order.append(self._stack_starter)
        rest = [c for c in deck() if c not in order]
        return order + rest


def seat_order(game: ClassicGame) -> list[int]:
    """Seats from the left of the dealer."""
    return game.order_from_left()


def deal_in_play(seed: int, laid: int) -> StackedGame:
    """A two-player deal played at random up to ``laid`` cards (muggins keeps the show
    waiting for claims), the starter never a jack."""
    rng = random.Random(seed)
    cards = deck()
    rng.shuffle(cards)
    starter = next(c for c in cards[12:] if c.rank != 11)
    game = StackedGame([" ".join(map(str, cards[0:6])), " ".join(map(str, cards[6:12]))],
                       str(starter), RuleSet(muggins=True), seed=seed)
    while game.phase == "discard":
        game.apply(Discard(tuple(game.hand(game.to_act)[:2])))
    for _ in range(laid):
        if game.phase != "play":
            break
        game.apply(rng.choice(game.legal_actions()))
    return game
