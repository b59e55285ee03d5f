"""What both games' PettingZoo environments share: seats, seeding, the AEC bookkeeping,
rewards at the end of a game and optional per-turn point shaping.

:class:`ContractEnv` is written once against the engine contract
(:mod:`kingscrib.core.contract`): it starts a game from a seed with ``Engine.start``,
asks it whose turn it is (``to_move``), whether it is over and who won (``winners``:
the +1/-1 rewards of :mod:`kingscrib.core.outcome`). A game's environment says only what
differs: which actions are legal (a mask over its Discrete space), how to apply one,
what each seat sees and the table as text. It holds no rules: the engine decides
everything.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Generic, Protocol, TypedDict, TypeVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from kingscrib.core import Engine, outcome


class IllegalEnvAction(ValueError):
    """An action index the mask does not allow now; the message says why. Nothing changed."""


# What an illegal action does: ``raise`` IllegalEnvAction (nothing changes, the agent may
# try again), or ``penalty``: the game ends at once, the offender gets ILLEGAL_REWARD and
# every other agent 0 (PettingZoo's TerminateIllegalWrapper convention), which is what
# Gymnasium's and Stable-Baselines3's env checkers expect of a random action.
RAISE, PENALTY = "raise", "penalty"
ILLEGAL_POLICIES = (RAISE, PENALTY)
ILLEGAL_REWARD = -1.0


class _Scores:
    """A finished game known only by its sides' scores (the highest win)."""

    def __init__(self, final: list[int], seat_sides: list[int]) -> None:
        self.players = len(seat_sides)
        self.is_over = True
        top = max(final)
        self._winners = [seat for seat, side in enumerate(seat_sides) if final[side] == top]

    def winners(self) -> list[int]:
        return self._winners


def outcome_rewards(final: list[int], seat_sides: list[int]) -> list[float]:
    """+1 for a sole winner, -1 for a loser; tied winners share: each gets 2/k - 1
    (0 for a two-way tie). ``final`` is the score of each side; ``seat_sides`` maps
    seats to sides (partners share a side and its reward). The environments pay
    :func:`kingscrib.core.outcome.outcome_rewards` of their game's winners: the same."""
    return outcome.outcome_rewards(_Scores(final, seat_sides), seat_sides)


class Observed(TypedDict):
    """What a seat observes: the game's arrays and the mask of its legal actions."""

    observation: dict[str, np.ndarray]
    action_mask: np.ndarray


class CribEnv(AECEnv):
    """The AEC plumbing of a seat-based card or tile game with a Discrete action space."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(self, players: int, actions: int, observation: spaces.Dict,
                 shaping: float = 0.0, render_mode: str | None = None,
                 illegal: str = RAISE) -> None:
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}"
                             f" or None, not {render_mode!r}")
        if illegal not in ILLEGAL_POLICIES:
            raise ValueError(f"illegal must be one of {', '.join(ILLEGAL_POLICIES)},"
                             f" not {illegal!r}")
        self.illegal = illegal
        self.illegal_end: str | None = None  # why an illegal action ended the game
        self.render_mode = render_mode
        self.shaping = float(shaping)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = list(self.possible_agents)
        self._action_space: spaces.Discrete = spaces.Discrete(actions)
        self._observation_space = spaces.Dict({
            "observation": observation,
            "action_mask": spaces.Box(0, 1, (actions,), np.int8),
        })
        self._seeder = random.Random()
        self.game_seed: int | None = None
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]

    # ----- what a subclass provides ----------------------------------------
    def _start(self, seed: int) -> None:
        raise NotImplementedError

    def _seat_to_act(self) -> int:
        raise NotImplementedError

    def _mask(self) -> np.ndarray:
        """The legal actions of the seat to act, as int8 0/1 over the Discrete space."""
        raise NotImplementedError

    def _apply(self, action: int) -> None:
        """Apply a legal action of the seat to act."""
        raise NotImplementedError

    def _over(self) -> bool:
        raise NotImplementedError

    def _seat_points(self) -> list[int]:
        """Each seat's score now (its side's score; rack penalties included at the end)."""
        raise NotImplementedError

    def _final_rewards(self) -> list[float]:
        raise NotImplementedError

    def _observation(self, seat: int) -> dict[str, np.ndarray]:
        raise NotImplementedError

    def _info(self, seat: int) -> dict[str, Any]:
        return {}

    def _seat_sides(self) -> list[int]:
        return list(range(len(self.possible_agents)))

    def finished(self) -> bool:
        """The game is over, or an illegal action ended it (``illegal="penalty"``)."""
        return self.illegal_end is not None or self._over()

    # ----- the PettingZoo API ------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game. ``reset(seed=s)`` always gives the same game; without a seed,
        the next game's seed comes from the last seed given (or from the system)."""
        if seed is not None:
            self._seeder = random.Random(seed)
        self.game_seed = self._seeder.randrange(2**31)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.illegal_end = None
        self._start(self.game_seed)
        self._select()

    def observe(self, agent: str) -> Observed:
        seat = self.possible_agents.index(agent)
        acting = not self.finished() and seat == self._seat_to_act()
        mask = self._mask() if acting else np.zeros(int(self._action_space.n), np.int8)
        return {"observation": self._observation(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalEnvAction(f"{agent} must act: the game is not over")
        index = int(action)
        mask = self._mask()
        if not 0 <= index < len(mask) or not mask[index]:
            message = (f"action {action} is not legal for {agent} now; legal: "
                       f"{np.flatnonzero(mask).tolist()[:20]}"
                       f"{' ...' if mask.sum() > 20 else ''}")
            if self.illegal == RAISE:
                raise IllegalEnvAction(message)
            self._end_illegally(agent, message)
            return
        self._advance(lambda: self._apply(index))

    def _end_illegally(self, agent: str, message: str) -> None:
        """End the game: the offender gets ILLEGAL_REWARD, the others 0; every agent's
        ``info["illegal_action"]`` says what happened. The engine's game stays as it was
        (unfinished)."""
        self.illegal_end = message
        self.rewards = {a: 0.0 for a in self.agents}
        self.rewards[agent] = ILLEGAL_REWARD
        self.terminations = {a: True for a in self.agents}
        self._cumulative_rewards[agent] = 0.0
        self._accumulate_rewards()
        self._select()
        self.infos = {a: {"illegal_action": message} for a in self.agents}

    def _advance(self, apply: Callable[[], None]) -> None:
        """Apply an action of the agent selected, then pay rewards and select the next."""
        agent = self.agent_selection
        before = self._seat_points()
        apply()
        self.rewards = {a: 0.0 for a in self.agents}
        if self.shaping:
            after = self._seat_points()
            self._shape(before, after)
        if self._over():
            for a, r in zip(self.possible_agents, self._final_rewards()):
                self.rewards[a] += r
            self.terminations = {a: True for a in self.agents}
        self._cumulative_rewards[agent] = 0.0
        self._accumulate_rewards()
        self._select()

    def _shape(self, before: list[int], after: list[int]) -> None:
        """Each seat gets ``shaping`` x (its side's gain - the other sides' mean gain)."""
        sides = self._seat_sides()
        gain: dict[int, int] = {}
        for seat, side in enumerate(sides):
            gain[side] = after[seat] - before[seat]
        for seat, a in enumerate(self.possible_agents):
            others = [g for side, g in gain.items() if side != sides[seat]]
            mine = gain[sides[seat]]
            self.rewards[a] += self.shaping * (mine - sum(others) / len(others))

    def _select(self) -> None:
        """Point agent_selection at the seat to act (or a finished agent to remove)."""
        if self.finished():
            if self.agents:
                self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[self._seat_to_act()]
        self.infos = {a: {} for a in self.agents}
        if self.agent_selection in self.infos and not self.finished():
            seat = self.possible_agents.index(self.agent_selection)
            self.infos[self.agent_selection] = self._info(seat)

    def render(self) -> str | None:
        text = self._text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _text(self) -> str:
        raise NotImplementedError

    def close(self) -> None:
        pass


class Played(outcome.Outcome, Protocol):
    """What :class:`ContractEnv` reads of a game: the contract's seats, turn, end and
    winners (:class:`kingscrib.core.contract.GameState` has them all)."""

    def to_move(self) -> int | None: ...


RulesT = TypeVar("RulesT")
StateT = TypeVar("StateT", bound=Played)


class ContractEnv(CribEnv, Generic[RulesT, StateT]):
    """The AEC environment of any engine of the contract: ``engine.start`` makes each
    game (the seats named as the agents), ``to_move`` says who acts, ``is_over`` when
    it ends and ``winners`` who is paid +1 (tied winning sides share, partners get
    their side's reward). ``seat_sides`` maps seats to sides (a side a seat when None).
    """

    def __init__(self, engine: Engine[RulesT, StateT], rules: RulesT, players: int,
                 actions: int, observation: spaces.Dict, shaping: float = 0.0,
                 render_mode: str | None = None, illegal: str = RAISE,
                 seat_sides: Sequence[int] | None = None) -> None:
        self.engine = engine
        self.rules = rules
        self.seat_sides = list(range(players) if seat_sides is None else seat_sides)
        super().__init__(players, actions, observation, shaping, render_mode, illegal)
        self.game: StateT = engine.start(rules, 0, self.possible_agents)

    def _start(self, seed: int) -> None:
        self.game = self.engine.start(self.rules, seed, self.possible_agents)

    def _seat_to_act(self) -> int:
        seat = self.game.to_move()
        if seat is None:
            raise IllegalEnvAction("no seat acts: the game is over")
        return seat

    def _over(self) -> bool:
        return self.game.is_over

    def _seat_sides(self) -> list[int]:
        return list(self.seat_sides)

    def _final_rewards(self) -> list[float]:
        return outcome.outcome_rewards(self.game, self.seat_sides)
