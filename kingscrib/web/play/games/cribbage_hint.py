"""A Cribbage hint for the page: the advice a player asks for on their own discard or
card, from the coach at two players (:mod:`kingscrib.players.classic.coach`) and from
the expert computer's choice at three or four, written with the cards as people read
them (``6♦ 9♣``)."""

from __future__ import annotations

import dataclasses
from typing import Any

from kingscrib.classic.game import ClassicGame, Discard, Play
from kingscrib.common.people import cards_in_text
from kingscrib.players.classic.coach import coach_discard, coach_play
from kingscrib.players.classic.levels import LevelPlayer
from kingscrib.web.errors import WebError


def hint_inputs(game: ClassicGame, seat: int) -> Any:
    """The seat's view with its legal actions, copied on the event loop; WebError when the
    seat has no discard or card to choose now."""
    if game.phase == "over":
        raise WebError(409, "the game is over")
    if seat not in game.waiting_for():
        raise WebError(409, "a hint is for your own discard or card, and none is waiting on you")
    if game.phase not in ("discard", "play"):
        raise WebError(409, "a hint is for a discard or a card to lay, not for counting a hand")
    view = game.view(seat)
    return dataclasses.replace(view, legal=tuple(game.legal_for(seat)))


def hint_from(view: Any) -> dict[str, Any]:
    """``{"advice", "lines", "cards", "by"}``: what to do in a few words, why, the cards it
    names (to mark them in the hand) and who advises (``coach`` or ``expert``)."""
    if view.rules.players == 2 and (view.phase == "discard" or view.legal[1:]):
        if view.phase == "discard":
            me, them = view.scores[view.side], view.scores[1 - view.side]
            advice = coach_discard(view.hand, view.is_dealer, me, them)
            cards = advice.options[0]["discard"]
        else:
            advice = coach_play(view)
            cards = [advice.options[0]["card"]]
        return {"advice": cards_in_text(advice.best), "by": "coach", "cards": cards,
                "lines": [cards_in_text(line.strip()) for line in advice.lines]}
    if view.phase == "play" and not any(isinstance(a, Play) for a in view.legal):
        return {"advice": "say Go", "by": "rules", "cards": [],
                "lines": ["No card you hold fits under 31."]}
    action = LevelPlayer("expert", seed=0).choose(view)
    if isinstance(action, Discard):
        cards = [str(c) for c in action.cards]
        said = f"lay away {' '.join(cards)}"
    elif isinstance(action, Play):
        cards = [str(action.card)]
        said = f"lay {cards[0]}"
    else:  # the expert answers a discard or a card only
        raise WebError(409, "no hint for this decision")
    return {"advice": cards_in_text(said), "by": "expert", "cards": cards,
            "lines": ["The expert computer's choice (the coach weighs two-player games only)."]}
