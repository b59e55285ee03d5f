"""Flat observations, for libraries that take one array (Stable-Baselines3 and its
MaskablePPO refuse nested Dict observations).

>>> from kingscrib.env.flat import FlatObservation
>>> from kingscrib.env.single import CribbageSingleEnv
>>> env = FlatObservation(CribbageSingleEnv(opponent="random"))
>>> obs, info = env.reset(seed=1)
>>> obs.shape, obs.dtype.name, int(env.action_masks().sum())
((1401,), 'int16', 15)

The flat array is ``gymnasium.spaces.flatten`` of the ``observation`` Dict: its arrays
one after the other in the order of their sorted keys, each flattened row by row;
``flat_keys`` gives each key's slice. :class:`FlatObservation` wraps a single-agent
environment (the mask stays out of the array unless ``mask=True`` appends it;
``action_masks()`` gives it for MaskablePPO); :class:`FlatObservationAEC` wraps a
PettingZoo environment as PettingZoo's own card games are laid out: ``observation`` one
array beside ``action_mask``.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo.utils.wrappers import BaseWrapper


@runtime_checkable
class Masked(Protocol):
    """An environment that gives its legal actions (the name MaskablePPO looks for)."""

    def action_masks(self) -> np.ndarray: ...


def observation_parts(space: spaces.Space[Any]) -> tuple[spaces.Dict, spaces.Box]:
    """The ``observation`` Dict and the ``action_mask`` Box of an environment's space."""
    if isinstance(space, spaces.Dict):
        inner, mask = space.spaces.get("observation"), space.spaces.get("action_mask")
        if isinstance(inner, spaces.Dict) and isinstance(mask, spaces.Box):
            return inner, mask
    raise TypeError(f"expected a Dict of an observation Dict and an action_mask Box,"
                    f" not {space}")


def flat_box(space: spaces.Dict) -> spaces.Box:
    """``gymnasium.spaces.flatten_space`` of an observation Dict: one Box."""
    flat = spaces.flatten_space(space)
    if not isinstance(flat, spaces.Box):
        raise TypeError(f"{space} does not flatten to one Box")
    return flat


def number_type(box: spaces.Box) -> type[np.floating[Any]] | type[np.integer[Any]]:
    """The number type of a Box's arrays."""
    kind = None if box.dtype is None else box.dtype.type
    if kind is None or not issubclass(kind, (np.floating, np.integer)):
        raise TypeError(f"{box} holds no numbers")
    return kind


def flat_keys(space: spaces.Dict) -> dict[str, slice]:
    """Where each array of the ``observation`` Dict lies in the flat array."""
    out, start = {}, 0
    for key, sub in space.spaces.items():
        size = spaces.flatdim(sub)
        out[key] = slice(start, start + size)
        start += size
    return out


class FlatObservation(gymnasium.ObservationWrapper):
    """A single-agent environment (:mod:`kingscrib.env.single`) whose observation is one
    1-D array; ``mask=True`` appends the action mask to it."""

    def __init__(self, env: gymnasium.Env, mask: bool = False) -> None:
        super().__init__(env)
        self._inner, self._mask_space = observation_parts(env.observation_space)
        self.mask = mask
        flat = flat_box(self._inner)
        if mask:
            flat = spaces.Box(np.concatenate([flat.low, self._mask_space.low]),
                              np.concatenate([flat.high, self._mask_space.high]),
                              dtype=number_type(flat))
        self.observation_space = flat

    def observation(self, observation: dict[str, Any]) -> np.ndarray:
        flat = spaces.flatten(self._inner, observation["observation"])
        assert isinstance(flat, np.ndarray)  # a Dict of arrays flattens to one array
        if self.mask:
            flat = np.concatenate([flat, observation["action_mask"].astype(flat.dtype)])
        return flat

    def action_masks(self) -> np.ndarray:
        """The legal actions now (sb3-contrib's MaskablePPO looks for this name)."""
        inner = self.env.unwrapped
        if not isinstance(inner, Masked):
            raise TypeError(f"{inner} gives no action_masks()")
        return inner.action_masks()


class FlatObservationAEC(BaseWrapper):
    """A PettingZoo environment whose ``observation`` is one 1-D array (the
    ``action_mask`` beside it is unchanged)."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self._flat: dict[str, tuple[spaces.Dict, spaces.Dict]] = {}

    def _spaces(self, agent: str) -> tuple[spaces.Dict, spaces.Dict]:
        if agent not in self._flat:
            inner, mask = observation_parts(self.env.observation_space(agent))
            self._flat[agent] = (inner, spaces.Dict({
                "observation": flat_box(inner), "action_mask": mask}))
        return self._flat[agent]

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._spaces(agent)[1]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        obs = self.env.observe(agent)
        inner = self._spaces(agent)[0]
        return {"observation": spaces.flatten(inner, obs["observation"]),
                "action_mask": obs["action_mask"]}


__all__ = ["FlatObservation", "FlatObservationAEC", "Masked", "flat_box", "flat_keys", "number_type",
           "observation_parts"]
