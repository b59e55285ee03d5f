"""Dealing again the cards a seat has not seen, for information-set search (ISMCTS).

Only the current deal can hold a card a seat has not seen: every earlier deal was shown
in full. So a resampled state replays the current deal from the state it began in, with
the unseen cards dealt otherwise and the other seats' lay-aways renamed to match. A deal
in which a seat that said go now holds a card it could have laid does not replay, or
plays out otherwise; it is drawn again, so every go the seat saw is respected.
"""

from __future__ import annotations

import random
from typing import TypeVar

from kingscrib.core import IllegalAction
from kingscrib.env.cribbage import FIRST_PAIR, PAIR_INDEX, PAIRS
from kingscrib.spiel.deal_state import DealState
from kingscrib.spiel.views import deal_view

State = TypeVar("State", bound=DealState)

MAX_DRAWS = 10_000  # the true deal always replays, so this is never reached in practice


def resample_deal(state: State, player: int, rng: random.Random | None = None) -> State:
    """A state ``player`` cannot tell from ``state``, the cards it has not seen drawn
    uniformly among the deals that agree with everything it saw."""
    rng = rng or random.Random()
    start = state.deal_start
    if start is None:  # no card dealt yet
        return state.clone()
    moves = list(state.history())[state.deal_start_moves:]
    known = state.known_cards(player)
    dealt = moves[:state.cards_to_deal()]
    hidden = [k for k, card in enumerate(dealt) if card not in known]
    pool = [c for c in range(52) if c not in known]
    seen = deal_view(state, player, True)
    for _ in range(MAX_DRAWS):
        new = rng.sample(pool, len(hidden))
        rename = {dealt[k]: c for k, c in zip(hidden, new)}
        try:
            other = _replay(start, moves, len(dealt), rename, player)
        except (ValueError, IllegalAction):
            continue  # a seat's go or lay-away is not legal in this deal
        # The same moves may still play out otherwise: a seat whose go the engine said
        # for it (it held nothing it could lay) now holds a card it can lay.
        if deal_view(other, player, True) == seen:
            return other
    raise RuntimeError(f"no deal agreeing with seat {player}'s view in {MAX_DRAWS} draws")


def _replay(start: State, moves: list[int], dealt: int, rename: dict[int, int],
            player: int) -> State:
    state = start.clone()
    for k, move in enumerate(moves):
        if k < dealt:
            move = rename.get(move, move)
        elif not state.is_chance_node() and state.current_player() != player:
            move = _renamed_action(move, rename)
        state.apply_action(move)
    return state


def _renamed_action(action: int, rename: dict[int, int]) -> int:
    """Another seat's action with its hidden cards renamed (lay-aways; a card laid in the
    play is seen, so it keeps its name)."""
    if action < FIRST_PAIR:
        return rename.get(action, action)
    if action < FIRST_PAIR + len(PAIRS):
        a, b = (rename.get(c, c) for c in PAIRS[action - FIRST_PAIR])
        return PAIR_INDEX[(min(a, b), max(a, b))]
    return action
