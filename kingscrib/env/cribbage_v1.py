"""``cribbage_v1``: classic Cribbage whose observation is an information state.

>>> from kingscrib.env import cribbage_v1
>>> env = cribbage_v1.env(players=2)
>>> env.reset(seed=7)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"]["sequence"].shape, int(obs["action_mask"].sum())
((16, 52), 15)

The actions, rewards and seeding are those of ``cribbage_v0`` (docs/rl.md). What
changed: ``cribbage_v0``'s ``pile`` and ``played`` are sets, so two plays that lay the
same cards in another order look alike although pairs and runs peg differently. Here
the observation adds the play as a sequence (each card laid this deal, in order, with
the seat that laid it and whether it is in the current count), the seats that said go
on the current count and whether a hand or the crib is being shown. With that, two
histories a seat sees alike give it the same legal actions, and every action scores
the same in both (``tests/test_env_information_state.py``).

An illegal action ends the game by default (``illegal="penalty"``: -1 to the offender,
0 to the others, the PettingZoo convention, which Gymnasium's and Stable-Baselines3's
env checkers expect); ``illegal="raise"`` keeps ``cribbage_v0``'s exception.

Earlier deals are left out on purpose: the pack is shuffled anew every deal, so
nothing of them bears on the rest of the game but the scores, which are in.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo.utils import wrappers

from kingscrib.classic.rules import RuleSet
from kingscrib.env.base import PENALTY
from kingscrib.env.cribbage import CARDS, SEATS, CribbageEnv
from kingscrib.env.cribbage import observation_space as v0_observation_space

PLAYED_MAX = 16  # cards laid in one deal: four from each of up to four seats
SHOW_KINDS = ("", "hand", "crib")


def observation_space() -> spaces.Dict:
    """The ``observation`` part of every seat's observation (docs/rl.md)."""
    v0 = dict(v0_observation_space().spaces)
    v0["status"] = spaces.Box(-1, 52, (9,), np.int16)
    return spaces.Dict({
        **v0,
        "sequence": spaces.Box(0, 1, (PLAYED_MAX, CARDS), np.int8),
        "sequence_seat": spaces.Box(0, 1, (PLAYED_MAX, SEATS), np.int8),
        "sequence_in_count": spaces.Box(0, 1, (PLAYED_MAX,), np.int8),
        "said_go": spaces.Box(0, 1, (SEATS,), np.int8),
    })


class CribbageEnvV1(CribbageEnv):
    """``cribbage_v0`` with an information-state observation; an illegal action ends the
    game with a penalty unless ``illegal="raise"``."""

    metadata = {"render_modes": ["human", "ansi"], "name": "cribbage_v1",
                "is_parallelizable": False}

    def __init__(self, players: int | None = None,
                 rules: RuleSet | Mapping[str, Any] | None = None, shaping: float = 0.0,
                 render_mode: str | None = None, illegal: str = PENALTY) -> None:
        super().__init__(players, rules, shaping, render_mode, illegal)
        self._observation_space = spaces.Dict({
            "observation": observation_space(),
            "action_mask": self._observation_space["action_mask"],
        })

    def _observation(self, seat: int) -> dict[str, np.ndarray]:
        out = super()._observation(seat)
        game = self.game
        n = self.rules.players
        sequence = np.zeros((PLAYED_MAX, CARDS), np.int8)
        who = np.zeros((PLAYED_MAX, SEATS), np.int8)
        in_count = np.zeros(PLAYED_MAX, np.int8)
        for k, (laid_by, card) in enumerate(game.played):
            sequence[k, card.number] = 1
            who[k, (laid_by - seat) % n] = 1
        # The current count's cards are the last ones laid (the pile restarts at a reset).
        in_count[len(game.played) - len(game.pile):len(game.played)] = 1
        said_go = np.zeros(SEATS, np.int8)
        for other in game.said_go:
            said_go[(other - seat) % n] = 1
        item = self.game.show_item
        out["status"] = np.append(out["status"],
                                  np.int16(SHOW_KINDS.index(item.kind) if item else 0))
        out.update(sequence=sequence, sequence_seat=who, sequence_in_count=in_count,
                   said_go=said_go)
        return out


def raw_env(**kwargs: Any) -> CribbageEnvV1:
    return CribbageEnvV1(**kwargs)


def env(**kwargs: Any) -> wrappers.OrderEnforcingWrapper:
    """The environment with PettingZoo's order checks (the usual entry point)."""
    return wrappers.OrderEnforcingWrapper(CribbageEnvV1(**kwargs))


__all__ = ["CribbageEnvV1", "PLAYED_MAX", "env", "observation_space", "raw_env"]
