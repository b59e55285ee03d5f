"""Gymnasium single-agent environments: one seat learns, the built-in computer players
take every other seat.

>>> from kingscrib.env.single import KingsSingleEnv
>>> env = KingsSingleEnv(opponent="greedy")
>>> obs, info = env.reset(seed=3)
>>> bool(obs["action_mask"].any())
True

``step(action)`` takes the learner's action index, lets the opponents play until it is
the learner's turn again or the game is over, and returns the learner's reward over that
stretch (the AEC environment's rewards: +1/-1 at the end, plus any shaping). The first
``step()`` of an episode also pays what the learner earned before its first turn (with
shaping, the opponents' opening plays: the learner at seat 1 loses by them), which
``reset()``'s ``info["reward_before"]`` shows as well: so the rewards ``step()`` returns
add up to the learner's whole return, as Stable-Baselines3 sums them.

They wrap ``kings_v1`` and ``cribbage_v1`` (``version=0`` for the superseded ``_v0``),
so an illegal action ends the episode with reward -1 and ``info["illegal_action"]``
(``illegal="raise"`` raises instead). Gymnasium's ``check_env`` passes on both;
:mod:`kingscrib.env.flat` flattens the observation for Stable-Baselines3.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np

from kingscrib.env.base import CribEnv, Observed
from kingscrib.env.cribbage import GO, CribbageEnv, action_index
from kingscrib.env.cribbage_v1 import CribbageEnvV1
from kingscrib.env.kings import KingsEnv
from kingscrib.env.kings_v1 import KingsEnvV1


def _versioned(versions: dict[int, type], version: int) -> type:
    if version not in versions:
        raise ValueError(f"version must be one of {', '.join(map(str, versions))},"
                         f" not {version!r}")
    return versions[version]


class SingleAgentEnv(gymnasium.Env):
    """The learner sits in ``seat`` of an AEC environment; ``opponent`` names the computer
    player of every other seat, or gives one name per seat (the learner's is ignored)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, aec: CribEnv, opponent: str | list[str | None], seat: int = 0,
                 render_mode: str | None = None) -> None:
        self.aec = aec
        players = len(aec.possible_agents)
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0 to {players - 1}, not {seat}")
        names: list[str | None] = ([opponent] * players if isinstance(opponent, str)
                                   else list(opponent))
        if len(names) != players:
            raise ValueError(f"{players} opponent names are needed (one per seat), "
                             f"got {len(names)}")
        names[seat] = None
        for name in names:
            if name is not None:
                self._make(name, 0)  # an unknown name fails here, before any game
        self.seat = seat
        self.agent = aec.possible_agents[seat]
        self.opponent_names = names
        self.render_mode = render_mode
        self.observation_space = aec.observation_space(self.agent)
        self.action_space = aec.action_space(self.agent)
        self._opponents: list[Any] = []
        self._reward_before = 0.0  # paid with the first step's reward

    def _make(self, name: str, seed: int) -> Any:
        raise NotImplementedError

    def _opponent_step(self, seat: int) -> None:
        raise NotImplementedError

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observed, dict[str, Any]]:
        super().reset(seed=seed)
        self.aec.reset(seed=seed if seed is not None else int(self.np_random.integers(2**31)))
        game_seed = self.aec.game_seed or 0
        rng = random.Random(game_seed)
        self._opponents = [None if name is None else self._make(name, rng.randrange(2**31))
                           for name in self.opponent_names]
        reward = self._play_opponents()
        self._reward_before = reward
        obs = self.aec.observe(self.agent)
        return obs, {**self.aec.infos.get(self.agent, {}), "reward_before": reward}

    def step(self, action: int) -> tuple[Observed, float, bool, bool, dict[str, Any]]:
        self.aec.step(action)
        reward, self._reward_before = self._reward_before, 0.0
        reward += self.aec._cumulative_rewards.get(self.agent, 0.0)
        self.aec._cumulative_rewards[self.agent] = 0.0
        reward += self._play_opponents()
        done = self.aec.finished()
        obs = self.aec.observe(self.agent)
        info = dict(self.aec.infos.get(self.agent, {}))
        return obs, float(reward), done, False, info

    def _play_opponents(self) -> float:
        """Let the computer seats act until the learner must act; the learner's reward."""
        reward = 0.0
        while not self.aec.finished() and self.aec.agent_selection != self.agent:
            self._opponent_step(self.aec.possible_agents.index(self.aec.agent_selection))
            reward += self.aec._cumulative_rewards.get(self.agent, 0.0)
            self.aec._cumulative_rewards[self.agent] = 0.0
        return reward

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (the name sb3-contrib's MaskablePPO looks for)."""
        return self.aec.observe(self.agent)["action_mask"].astype(bool)

    # Unannotated as in gymnasium's own environments: Env.render's return type is a type
    # variable of the method, which no concrete type (here the text of the table) matches.
    def render(self):
        """The table as text (render_mode "ansi"), else None."""
        return self.aec.render()


class KingsSingleEnv(SingleAgentEnv):
    """Kings Cribbage against the built-in players (``random``, ``greedy``, ``equity``,
    ``sim`` and the levels). Keyword arguments go to ``kings_v1`` (``kings_v0`` with
    ``version=0``)."""

    def __init__(self, opponent: str | list[str | None] = "greedy", seat: int = 0,
                 version: int = 1, **kwargs: Any) -> None:
        aec = _versioned({0: KingsEnv, 1: KingsEnvV1}, version)(**kwargs)
        super().__init__(aec, opponent, seat, kwargs.get("render_mode"))

    def _make(self, name: str, seed: int) -> Any:
        from kingscrib.players.kings import make_player

        return make_player(name, seed)

    def _opponent_step(self, seat: int) -> None:
        aec: KingsEnv = self.aec
        aec.step_action(self._opponents[seat].choose(aec.game.view(seat)))


class CribbageSingleEnv(SingleAgentEnv):
    """Classic Cribbage against the built-in players (``random``, ``baseline`` and the
    levels ``easy`` to ``expert``). Keyword arguments go to ``cribbage_v1``
    (``cribbage_v0`` with ``version=0``)."""

    def __init__(self, opponent: str | list[str | None] = "expert", seat: int = 0,
                 version: int = 1, **kwargs: Any) -> None:
        aec = _versioned({0: CribbageEnv, 1: CribbageEnvV1}, version)(**kwargs)
        super().__init__(aec, opponent, seat, kwargs.get("render_mode"))

    def _make(self, name: str, seed: int) -> Any:
        from kingscrib.players.classic import make_player

        return make_player(name, seed)

    def _opponent_step(self, seat: int) -> None:
        aec: CribbageEnv = self.aec
        if aec.observe(aec.agent_selection)["action_mask"][GO]:
            aec.step(GO)
            return
        aec.step(action_index(self._opponents[seat].choose(aec.game.view(seat))))


__all__ = ["CribbageSingleEnv", "KingsSingleEnv", "SingleAgentEnv"]
