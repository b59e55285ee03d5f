"""The protocol every classic Cribbage player follows, computer or human."""

from __future__ import annotations

from typing import Protocol

from kingscrib.classic.game import Action, Claim, PlayerView
from kingscrib.classic.show import score_show


class ClassicPlayer(Protocol):
    """Given what a seat may see, choose an action (Discard, Play or Claim)."""

    name: str

    def choose(self, view: PlayerView) -> Action:
        ...


def perfect_claim(view: PlayerView) -> Claim:
    """Claim exactly what the hand being shown is worth (computers count perfectly)."""
    item = view.show_item
    assert item is not None and view.starter is not None
    return Claim(score_show(item.cards, view.starter, crib=item.kind == "crib").total)
