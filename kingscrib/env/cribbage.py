"""``cribbage_v0``: classic Cribbage as a PettingZoo AEC environment for 2, 3 or 4 seats
(4 as two partnerships, partners opposite, sharing a score and a reward).

>>> from kingscrib.env import cribbage_v0
>>> env = cribbage_v0.env(players=2)
>>> env.reset(seed=7)
>>> obs, reward, terminated, truncated, info = env.last()
>>> int(obs["action_mask"].sum())  # the 15 ways to lay two of six cards away
15

One Discrete space (``ACTIONS`` = 1409) covers every action (docs/rl.md):

- ``0..51``: a card by its index ``(rank - 1) * 4 + suit`` (suits C D H S): lay it in the
  play, or, with 3 or 4 players, lay it away to the crib;
- ``52..1377``: with 2 players, lay away a pair of cards, in the order of
  ``itertools.combinations(range(52), 2)``;
- ``1378``: Go. The engine passes over a seat that cannot lay a card; the environment
  then gives that seat a turn whose only legal action is Go, so every agent sees its go;
- ``1379..1408``: with the muggins option, claim 0 to 29 points for the hand being shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo.utils import wrappers

from kingscrib.classic.cards import Card, deck
from kingscrib.classic.game import Action, Claim, ClassicGame, Discard, Go, IllegalAction, Play
from kingscrib.classic.rules import RuleSet
from kingscrib.env.base import RAISE, ContractEnv

CARDS = 52
FIRST_PAIR = CARDS
PAIRS = list(combinations(range(CARDS), 2))
PAIR_INDEX = {pair: FIRST_PAIR + k for k, pair in enumerate(PAIRS)}
GO = FIRST_PAIR + len(PAIRS)
FIRST_CLAIM = GO + 1
MAX_CLAIM = 29
ACTIONS = FIRST_CLAIM + MAX_CLAIM + 1
SEATS = 4
PHASES = ("discard", "play", "show", "over")
_CARD_OF = {card.number: card for card in deck()}


def action_index(action: Action) -> int:
    """The index of an engine action."""
    if isinstance(action, Play):
        return action.card.number
    if isinstance(action, Claim):
        return FIRST_CLAIM + action.points
    if isinstance(action, Go):
        return GO
    cards = sorted(c.number for c in action.cards)
    return cards[0] if len(cards) == 1 else PAIR_INDEX[(cards[0], cards[1])]


def observation_space() -> spaces.Dict:
    """The ``observation`` part of every seat's observation (docs/rl.md)."""
    return spaces.Dict({
        "hand": spaces.Box(0, 1, (CARDS,), np.int8),
        "discards": spaces.Box(0, 1, (CARDS,), np.int8),
        "starter": spaces.Box(0, 1, (CARDS,), np.int8),
        "pile": spaces.Box(0, 1, (CARDS,), np.int8),
        "played": spaces.Box(0, 1, (SEATS, CARDS), np.int8),
        "show": spaces.Box(0, 1, (CARDS,), np.int8),
        "scores": spaces.Box(0, 121, (SEATS,), np.int16),
        "cards_left": spaces.Box(0, 6, (SEATS,), np.int8),
        "status": spaces.Box(-1, 52, (8,), np.int16),
    })


class CribbageEnv(ContractEnv[RuleSet, ClassicGame]):
    """Classic Cribbage under ``rules`` (players, skunk, muggins all pass through).

    ``shaping`` adds per-turn point shaping to the +1/-1 outcome reward; ``illegal``
    says what an illegal action does (``raise``, or ``penalty``: :mod:`.base`).
    """

    metadata = {"render_modes": ["human", "ansi"], "name": "cribbage_v0",
                "is_parallelizable": False}

    def __init__(self, players: int | None = None,
                 rules: RuleSet | Mapping[str, Any] | None = None, shaping: float = 0.0,
                 render_mode: str | None = None, illegal: str = RAISE) -> None:
        if not isinstance(rules, RuleSet):
            rules = RuleSet.from_dict(dict(rules or {}))
        if players is not None and players != rules.players:
            if rules.players != RuleSet().players:
                raise ValueError(f"players={players} but the rules say {rules.players}")
            rules = RuleSet(players, rules.skunk, rules.muggins)
        self._go_queue: list[int] = []
        self._go_count = 0
        self._steps = 0  # actions applied in this game (keys the mask cache)
        self._mask_step = -1
        self._mask_cache = np.zeros(ACTIONS, np.int8)
        super().__init__(ClassicGame, rules, rules.players, ACTIONS, observation_space(),
                         shaping, render_mode, illegal,
                         [rules.side_of(s) for s in range(rules.players)])

    # ----- what differs from the contract's game: the gos each seat says --------
    def _start(self, seed: int) -> None:
        super()._start(seed)
        self._go_queue = []
        self._steps, self._mask_step = 0, -1

    def _seat_to_act(self) -> int:
        if self._go_queue:
            return self._go_queue[0]
        return super()._seat_to_act()

    def _mask(self) -> np.ndarray:
        if self._steps != self._mask_step:
            mask = np.zeros(ACTIONS, np.int8)
            if self._go_queue:
                mask[GO] = 1
            else:
                for action in self.game.legal_actions():
                    mask[action_index(action)] = 1
            self._mask_step, self._mask_cache = self._steps, mask
        return self._mask_cache.copy()

    def engine_action(self, index: int) -> Action | None:
        """The engine action of an index (None for Go, which the engine takes itself)."""
        if index == GO:
            return None
        if index >= FIRST_CLAIM:
            return Claim(index - FIRST_CLAIM)
        if index >= FIRST_PAIR:
            a, b = PAIRS[index - FIRST_PAIR]
            return Discard((_CARD_OF[a], _CARD_OF[b]))
        card = _CARD_OF[index]
        return Discard((card,)) if self.game.phase == "discard" else Play(card)

    def _apply(self, action: int) -> None:
        self._steps += 1
        if self._go_queue:
            self._go_queue.pop(0)
            return
        count = self.game.count
        move = self.engine_action(action)
        if move is None:  # the mask offers Go only while a go is due, taken above
            raise IllegalAction("go is said for you when you cannot lay a card")
        events = self.game.apply(move)
        if self.game.phase != "over":
            self._go_queue = [e.seat for e in events if e.kind == "go-said"]
            if self._go_queue:  # the count the gos were said at (it may be reset since)
                self._go_count = count + events[0].cards[0].points

    def _seat_points(self) -> list[int]:
        return [self.game.scores[side] for side in self.seat_sides]

    def _info(self, seat: int) -> dict[str, Any]:
        return {"go": bool(self._go_queue)}

    # ----- what a seat sees ----------------------------------------------------
    def _observation(self, seat: int) -> dict[str, np.ndarray]:
        view = self.game.view(seat)
        n = self.rules.players

        def cards(of: tuple[Card, ...] | list[Card]) -> np.ndarray:
            out = np.zeros(CARDS, np.int8)
            for c in of:
                out[c.number] = 1
            return out

        played = np.zeros((SEATS, CARDS), np.int8)
        for who, card in view.played:
            played[(who - seat) % n, card.number] = 1
        scores = np.zeros(SEATS, np.int16)
        left = np.zeros(SEATS, np.int8)
        for k in range(n):
            other = (seat + k) % n
            scores[k] = view.scores[self.rules.side_of(other)]
            left[k] = view.cards_left[other]
        seen = len(view.hand) + len(view.discards) + (view.starter is not None) + len(
            view.played)
        to_act = -1 if self.finished() else (self._seat_to_act() - seat) % n
        # status[6] is the deal's number, 1 in the first deal (the deals begun, this one
        # included), as docs/rl.md says; the batched engine's is the same.
        status = np.array([PHASES.index(view.phase), (view.dealer - seat) % n, view.count,
                           n, CARDS - seen,
                           to_act, len(self.game.deals), int(bool(self._go_queue))],
                          np.int16)
        return {
            "hand": cards(view.hand), "discards": cards(view.discards),
            "starter": cards([view.starter] if view.starter else []),
            "pile": cards(view.pile), "played": played,
            "show": cards(view.show_item.cards if view.show_item else ()),
            "scores": scores, "cards_left": left, "status": status,
        }

    # ----- text -----------------------------------------------------------------
    def _text(self) -> str:
        game = self.game
        lines = [f"deal {len(game.deals)}, dealer {game.names[game.dealer]}, "
                 f"{game.phase}" + (f", starter {game.starter}" if game.starter else "")]
        for side in range(self.rules.sides):
            lines.append(f"  {game.side_name(side)}: {game.scores[side]}")
        if game.phase == "play":
            pile = " ".join(str(c) for c in game.pile)
            lines.append(f"count {game.count}: {pile}")
        if not self.finished():
            seat = self._seat_to_act()
            hand = " ".join(str(c) for c in sorted(game.hand(seat)))
            what = f"must say go at {self._go_count}" if self._go_queue else "to act"
            lines.append(f"{game.names[seat]} {what}, holding {hand}")
        return "\n".join(lines)


def raw_env(**kwargs: Any) -> CribbageEnv:
    return CribbageEnv(**kwargs)


def env(**kwargs: Any) -> wrappers.OrderEnforcingWrapper:
    """The environment with PettingZoo's order checks (the usual entry point)."""
    return wrappers.OrderEnforcingWrapper(CribbageEnv(**kwargs))


__all__ = ["ACTIONS", "CribbageEnv", "FIRST_CLAIM", "FIRST_PAIR", "GO", "action_index",
           "env", "observation_space", "raw_env"]
