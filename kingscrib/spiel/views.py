"""What a seat of ``kingscrib_cribbage`` sees of a deal, as plain data: the information-
state and observation strings are made of it, and resampling compares it."""

from __future__ import annotations

from typing import Any

from kingscrib.classic.cards import card_list
from kingscrib.spiel.deal_state import DealState


def shown_deal(record: dict[str, Any]) -> dict[str, Any]:
    """A finished deal as every seat saw it in the show (hands as sets: the order they
    were dealt in was never seen)."""
    out = dict(record)
    out["hands"] = [sorted(h) for h in record["hands"]]
    out["discards"] = [sorted(x) if x else x for x in record["discards"]]
    return out


def deal_view(state: DealState, player: int, private: bool) -> dict[str, Any]:
    """The current deal as ``player`` sees it now."""
    n = state.rules.players
    hand, discards = state.hand_and_discards(player) if private else ([], [])
    view: dict[str, Any] = {"seat": player, "phase": state.phase(),
                            "hand": card_list(sorted(hand)),
                            "discards": card_list(discards)}
    engine = state.engine
    if engine is None or state.dealing():
        view["cards_dealt"] = len(state.dealt)
        if engine is not None:
            view["scores"] = list(engine.scores)
        return view
    d = engine.deal_state
    record = d.record
    view.update(
        scores=list(engine.scores), dealer=d.dealer, count=engine.count,
        starter=str(d.starter) if d.starter else None,
        laid_away=[d.discards[s] is not None or (state.pending or (None,))[0] == s
                   for s in range(n)],
        plays=record["plays"], show=record["show"],
        to_act=state.current_player())
    item = engine.show_item
    if item is not None:
        view["showing"] = {"seat": item.seat, "kind": item.kind,
                           "cards": card_list(item.cards)}
    return view
