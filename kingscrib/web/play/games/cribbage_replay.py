"""Replaying a Cribbage game step by step for the page: a stored game (finished, or
live up to now) or a Cribbage record opened from a file.

Each step is one action (a discard, a card laid, a go, a claim) with the table as
everyone saw it just after it: :func:`kingscrib.web.play.games.cribbage_view.public`, the same
view spectators get, so a live game's replay shows no card that was not face up (no
hand before its show, no crib before the show, never the deck). Once the game is over
(the record says every card then anyway) the cards laid away are named and each step
also lays every hand and the crib face up (``held`` and ``crib_cards``), so a finished
game can be followed card by card."""

from __future__ import annotations

from typing import Any

from kingscrib.classic.cards import Card, card_list
from kingscrib.classic.game import (
    Claim,
    ClassicGame,
    Discard,
    IllegalAction,
    Play,
    seated_actions_from_record,
)
from kingscrib.classic.pegging import count_of
from kingscrib.classic.record import RecordError
from kingscrib.classic.record import replay as check_record
from kingscrib.classic.rules import RuleSet
from kingscrib.common.shuffle import Seed
from kingscrib.web.errors import WebError
from kingscrib.web.play.games.cribbage_view import deal_public, public

# Parts of the table that never change in a game, sent once rather than with every step;
# a step's last finished deal (``previous`` in the live view) is ``deals[deal - 2]``.
SHARED = ("rules", "cut", "lines")


def step_json(seat: int, action: Any, events: list[Any], reveal: bool) -> dict[str, Any]:
    """What one action did: who, what, and the points it pegged (for each seat)."""
    out: dict[str, Any] = {"seat": seat}
    if isinstance(action, Discard):
        out.update(action="discard", laid_away=len(action.cards))
        if reveal:
            out["cards"] = [str(c) for c in action.cards]
    elif isinstance(action, Play):
        out.update(action="play", card=str(action.card))
    elif isinstance(action, Claim):
        out.update(action="claim", points=action.points)
    else:
        out["action"] = "go"
    out["pegged"] = [{"seat": e.seat, "kind": e.kind, "points": e.points, "text": e.text}
                     for e in events if e.points > 0]  # these texts name no card
    return out


def face_up(game: ClassicGame) -> dict[str, Any]:
    """Every hand as it is held now and the crib's cards (those laid away so far while
    players discard): for a finished game's replay only."""
    if game.phase == "discard":
        crib = [c for cards in game.deals[-1]["discards"] if cards for c in cards]
    else:
        crib = card_list(game.crib)
    return {"held": [card_list(sorted(game.hand(s))) for s in range(game.rules.players)],
            "crib_cards": sorted(crib, key=Card.parse)}


def steps(rules: RuleSet, seed: Seed, names: list[str],
          actions: list[tuple[int, Any]], reveal: bool) -> dict[str, Any]:
    """``{"game", "rules", "cut", "lines", "seats", "start", "steps", "deals", "end"}``: the
    table before the first action (``start``) and after each one (``steps[i]["state"]``,
    without the parts in ``SHARED`` and without ``previous``: ``deals[state.deal - 2]``)."""
    game = ClassicGame(rules, seed, list(names), explicit_go=True)
    finished: list[dict[str, Any]] = []  # each finished deal's face-up part, once

    def seen() -> dict[str, Any]:
        """The table now, as the replay shows it (every hand too, once the game is over)."""
        state = public(game, finished[-1] if finished else None)
        return state | face_up(game) if reveal else state

    def table() -> dict[str, Any]:
        return {key: value for key, value in seen().items() if key not in SHARED + ("previous",)}

    start = seen()
    shared = {key: start[key] for key in SHARED}

    out = []
    for seat, action in actions:
        deals = len(game.deals)
        count = count_of([c.rank for c in game.pile] + [action.card.rank]) \
            if isinstance(action, Play) else None
        events = game.apply(action, seat)
        if len(game.deals) > deals:  # a deal ended with this action
            finished.append(deal_public(game.deals[-2], game.names))
        step = step_json(seat, action, events, reveal)
        if count is not None:
            step["count"] = count
        out.append({**step, "state": table()})
    return {
        "game": "cribbage",
        **shared,
        "seats": [{"seat": i, "name": name} for i, name in enumerate(names)],
        "start": {key: value for key, value in start.items() if key not in SHARED},
        "steps": out,
        "deals": finished,
        "end": out[-1]["state"]["end"] if out else None,
    }


def session_inputs(session: Any) -> dict[str, Any]:
    """What a hosted game's replay needs, copied in the event loop (the game goes on)."""
    return {"record": session.game.record(), "over": session.over}


def replay_of_session(inputs: dict[str, Any]) -> dict[str, Any]:
    """The steps of a hosted Cribbage game up to now, in its record's order (a deal's
    discards from the dealer's left, whatever order they came in), so that a step's
    number is the ``turn`` of ``kingscrib classic analyze``."""
    record = inputs["record"]
    rules = RuleSet.from_dict(record["rules"])
    names = [p["name"] for p in record["players"]]
    actions = seated_actions_from_record(record, explicit_go=True)
    return steps(rules, record["seed"], names, actions, reveal=inputs["over"])


def replay_of_record(record: dict[str, Any]) -> dict[str, Any]:
    """The steps of a Cribbage record (docs/classic.md); WebError(400) with the engine's
    reason when the record does not replay."""
    try:
        game = check_record(record)  # every deal, card, count and the end checked
        actions = seated_actions_from_record(record, explicit_go=True)
        return steps(game.rules, record["seed"], game.names, actions, reveal=True)
    except RecordError as e:
        raise WebError(400, f"this record cannot be replayed: {e}") from None
    except (IllegalAction, TypeError, ValueError, KeyError) as e:
        raise WebError(400, f"this record cannot be replayed: {e}") from None
